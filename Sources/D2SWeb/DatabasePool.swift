import D2SModel
import Dispatch
import EnvKeys
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

  /// What a waiting request is handed: an idle connection, or the right to open one.
  private enum Lease {
    case reader(Reader)
    case slot
  }

  private struct State {
    var idle: [Reader] = []
    var opened = 0
    var waiting: [CheckedContinuation<Lease, Never>] = []
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

  /// Runs `body` with a connection of its own, on that connection's thread, with the caller's
  /// dependencies (``EnvKeys/DependencyValues/current``, carried across); its statements
  /// stop (``DatabaseError/Code/interrupted``) once the statement timeout has passed. A
  /// connection that fails is closed, not given to the next request.
  ///
  /// - Throws: what `body` throws, or the error of opening a connection.
  public func withDatabase<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T)
    async throws -> T
  {
    let reader = try await checkOut()
    let dependencies = DependencyValues.current
    do {
      let result = try await withCheckedThrowingContinuation { continuation in
        reader.queue.async {
          reader.startDeadline(after: self.statementTimeout)
          defer { reader.clearDeadline() }
          continuation.resume(
            with: Result {
              try DependencyValues.$current.withValue(dependencies) { try body(reader.database) }
            })
        }
      }
      checkIn(reader)
      return result
    } catch let error as DatabaseError where error.code == .connection {
      releaseSlot()
      throw error
    } catch {
      checkIn(reader)
      throw error
    }
  }

  /// An idle connection, or a new one when fewer than `size` are open, or the next one
  /// given back (or the slot of one that failed).
  private func checkOut() async throws -> Reader {
    let lease: Lease? = state.withLock { state in
      if let reader = state.idle.popLast() { return .reader(reader) }
      if state.opened < size {
        state.opened += 1
        return .slot
      }
      return nil
    }
    let granted: Lease
    if let lease {
      granted = lease
    } else {
      granted = await withCheckedContinuation { continuation in
        // Checked again under the lock: a connection given back meanwhile is taken.
        let now: Lease? = state.withLock { state in
          if let reader = state.idle.popLast() { return .reader(reader) }
          if state.opened < size {
            state.opened += 1
            return .slot
          }
          state.waiting.append(continuation)
          return nil
        }
        if let now { continuation.resume(returning: now) }
      }
    }
    switch granted {
    case .reader(let reader): return reader
    case .slot:
      do {
        return try await openReader()
      } catch {
        releaseSlot()
        throw error
      }
    }
  }

  /// Opens a connection on a thread of its own (connecting can block for long).
  private func openReader() async throws -> Reader {
    let open = self.open
    let model = self.model
    return try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(
          with: Result { Reader(database: Database(adaptor: try open(), model: model)) })
      }
    }
  }

  private func checkIn(_ reader: Reader) {
    let waiter: CheckedContinuation<Lease, Never>? = state.withLock { state in
      if !state.waiting.isEmpty { return state.waiting.removeFirst() }
      state.idle.append(reader)
      return nil
    }
    waiter?.resume(returning: .reader(reader))
  }

  /// Gives up a connection's place (it failed, or could not be opened): the next waiting
  /// request gets the place and opens a connection of its own.
  private func releaseSlot() {
    let waiter: CheckedContinuation<Lease, Never>? = state.withLock { state in
      guard !state.waiting.isEmpty else {
        state.opened -= 1
        return nil
      }
      return state.waiting.removeFirst()
    }
    waiter?.resume(returning: .slot)
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
