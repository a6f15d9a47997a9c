#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value that many threads read at once and that is written rarely (a registry filled at
/// start): readers share a read-write lock, so they never wait for each other, only for a
/// write. A `Mutex` makes every reader wait for the one before it, which a web server's
/// threads, all rendering pages, feel on every component and key lookup.
public final class ReadMostly<Value: Sendable>: @unchecked Sendable {
  private var value: Value
  private let lock: UnsafeMutablePointer<pthread_rwlock_t>

  /// Holds `value`.
  public init(_ value: Value) {
    self.value = value
    lock = .allocate(capacity: 1)
    lock.initialize(to: pthread_rwlock_t())
    pthread_rwlock_init(lock, nil)
  }

  deinit {
    pthread_rwlock_destroy(lock)
    lock.deinitialize(count: 1)
    lock.deallocate()
  }

  /// `body`'s result on the value, beside other readers.
  public func read<T>(_ body: (Value) throws -> T) rethrows -> T {
    pthread_rwlock_rdlock(lock)
    defer { pthread_rwlock_unlock(lock) }
    return try body(value)
  }

  /// `body`'s result on the value, alone.
  public func write<T>(_ body: (inout Value) throws -> T) rethrows -> T {
    pthread_rwlock_wrlock(lock)
    defer { pthread_rwlock_unlock(lock) }
    return try body(&value)
  }
}
