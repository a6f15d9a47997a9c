import D2SModel
import Dispatch
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor
import Synchronization

/// The server's readers: up to `size` connections to the database, each on a thread of its
/// own, so that a blocking database call never runs on the event loop or Swift's cooperative
/// pool. A request waits (without blocking a thread) for a free connection, runs on its
/// thread, and gives it back. Connections share the model read at start.
public final class DatabasePool: Sendable {
  /// Opens one more connection.
  public typealias Opener = @Sendable () throws -> any DatabaseAdaptor

  private struct State {
    var idle: [Reader] = []
    var opened = 0
    var waiting: [CheckedContinuation<Reader?, Never>] = []
  }

  private let state = Mutex(State())
  private let open: Opener
  private let model: Model
  /// The most connections open at once.
  public let size: Int
  /// How long one request's statements may run before they are stopped.
  public let statementTimeout: Duration

  /// A pool opening connections with `open`, for a database whose model is `model`.
  public init(size: Int, statementTimeout: Duration, model: Model, open: @escaping Opener) {
    self.size = max(1, size)
    self.statementTimeout = statementTimeout
    self.model = model
    self.open = open
  }

  /// Runs `body` with a connection of its own, on that connection's thread; its statements
  /// stop (``DatabaseError/Code/interrupted``) once the statement timeout has passed.
  ///
  /// - Throws: what `body` throws, or the error of opening a connection.
  public func withDatabase<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T)
    async throws -> T
  {
    let reader = try await checkOut()
    do {
      let result = try await withCheckedThrowingContinuation { continuation in
        reader.queue.async {
          reader.startDeadline(after: self.statementTimeout)
          defer { reader.clearDeadline() }
          continuation.resume(with: Result { try body(reader.database) })
        }
      }
      checkIn(reader)
      return result
    } catch let error as DatabaseError where error.code == .connection {
      // A connection that failed is not given to the next request: a new one is opened.
      discard(reader)
      throw error
    } catch {
      checkIn(reader)
      throw error
    }
  }

  /// Forgets a broken connection; a waiting request opens a new one in its place.
  private func discard(_ reader: Reader) {
    let waiter: CheckedContinuation<Reader?, Never>? = state.withLock { state in
      state.opened -= 1
      return state.waiting.isEmpty ? nil : state.waiting.removeFirst()
    }
    guard let waiter else { return }
    // Hand the waiter a fresh connection, or wake it to fail if none can be opened.
    if let adaptor = try? open() {
      state.withLock { $0.opened += 1 }
      waiter.resume(returning: Reader(database: Database(adaptor: adaptor, model: model)))
    } else {
      waiter.resume(returning: nil)
    }
  }

  private func checkOut() async throws -> Reader {
    enum Next {
      case reader(Reader)
      case open
      case wait
    }
    let next: Next = state.withLock { state in
      if let reader = state.idle.popLast() { return .reader(reader) }
      if state.opened < size {
        state.opened += 1
        return .open
      }
      return .wait
    }
    switch next {
    case .reader(let reader): return reader
    case .open:
      do {
        let adaptor = try open()
        return Reader(database: Database(adaptor: adaptor, model: model))
      } catch {
        state.withLock { $0.opened -= 1 }
        throw error
      }
    case .wait:
      let reader = await withCheckedContinuation { continuation in
        let handed: Reader? = state.withLock { state in
          if let reader = state.idle.popLast() { return reader }
          state.waiting.append(continuation)
          return nil
        }
        if let handed { continuation.resume(returning: handed) }
      }
      guard let reader else { throw DatabaseError(.connection, "no connection could be opened") }
      return reader
    }
  }

  private func checkIn(_ reader: Reader) {
    let waiter: CheckedContinuation<Reader?, Never>? = state.withLock { state in
      if !state.waiting.isEmpty { return state.waiting.removeFirst() }
      state.idle.append(reader)
      return nil
    }
    waiter?.resume(returning: reader)
  }
}

/// One pooled connection and the thread its statements run on.
final class Reader: Sendable {
  let database: Database
  let queue = DispatchQueue(label: "d2s-serve.reader")
  /// When the running request's statements must stop (uptime nanoseconds; 0: never).
  private let deadline = Atomic<UInt64>(0)

  init(database: Database) {
    self.database = database
    database.adaptor.interrupt { [unowned self] in self.isPastDeadline }
  }

  /// Whether the running request's time is up.
  var isPastDeadline: Bool {
    let limit = deadline.load(ordering: .relaxed)
    return limit != 0 && DispatchTime.now().uptimeNanoseconds > limit
  }

  func startDeadline(after timeout: Duration) {
    let (seconds, attoseconds) = timeout.components
    let nanoseconds =
      UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    deadline.store(DispatchTime.now().uptimeNanoseconds + nanoseconds, ordering: .relaxed)
  }

  func clearDeadline() { deadline.store(0, ordering: .relaxed) }
}
