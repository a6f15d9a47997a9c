import EnvKeys
import Foundation
import Synchronization

/// Rows read on a second thread, a few batches ahead of the caller, who handles each batch on
/// its own thread and in order: reading a statement's rows and showing them (formatting and
/// writing) then take two cores instead of one after the other.
///
/// The reader is joined before ``run(produce:consume:)`` returns, whatever happens: an error
/// of either side stops the other and is thrown (the consumer's first). The caller must not
/// use the reading connection while the rows are read.
enum RowReadAhead {
  /// Rows handed over at once, and batches read ahead at most (so memory stays bounded).
  static let batchSize = 256
  static let depth = 4

  /// Runs `produce` on a second thread (with the caller's dependencies) and hands each batch
  /// it pushes to `consume`, here.
  static func run<Batch>(
    produce: @escaping (_ queue: Queue<Batch>) throws -> Void,
    consume: (Batch) throws -> Void
  ) throws {
    let queue = Queue(produce: produce)
    let dependencies = DependencyValues.current
    let thread = Thread { DependencyValues.$current.withValue(dependencies) { queue.read() } }
    thread.name = "d2s.read-ahead"
    thread.start()
    try queue.handOver(to: consume)
  }

  /// The batches between the two threads.
  final class Queue<Batch>: @unchecked Sendable {
    private let condition = NSCondition()
    private var batches: [Batch] = []
    private var finished = false
    private var failure: (any Error)?
    private let cancelled = Atomic<Bool>(false)
    private let produce: (_ queue: Queue<Batch>) throws -> Void

    fileprivate init(produce: @escaping (_ queue: Queue<Batch>) throws -> Void) {
      self.produce = produce
    }

    /// Throws once the caller has stopped taking rows: the reader checks before each row.
    func checkCancelled() throws {
      if cancelled.load(ordering: .relaxed) { throw ReadAheadStopped() }
    }

    /// How many batches wait for the caller now.
    var waiting: Int {
      condition.lock()
      defer { condition.unlock() }
      return batches.count
    }

    /// Hands `batch` over, waiting while `depth` batches wait already.
    func push(_ batch: Batch) throws {
      condition.lock()
      defer { condition.unlock() }
      while batches.count >= RowReadAhead.depth, !cancelled.load(ordering: .relaxed) {
        condition.wait()
      }
      if cancelled.load(ordering: .relaxed) { throw ReadAheadStopped() }
      batches.append(batch)
      condition.broadcast()
    }

    /// The reading thread: batches, then the end (or the error).
    fileprivate func read() {
      do {
        try produce(self)
        end(nil)
      } catch is ReadAheadStopped {
        end(nil)
      } catch {
        end(error)
      }
    }

    private func end(_ error: (any Error)?) {
      condition.lock()
      failure = error
      finished = true
      condition.broadcast()
      condition.unlock()
    }

    /// The caller's side: batches in order until the reader ends; then the reader's error.
    fileprivate func handOver(to consume: (Batch) throws -> Void) throws {
      do {
        while let batch = next() { try consume(batch) }
      } catch {
        cancelled.store(true, ordering: .relaxed)
        condition.lock()
        condition.broadcast()
        while !finished { condition.wait() }
        condition.unlock()
        throw error
      }
      condition.lock()
      defer { condition.unlock() }
      if let failure { throw failure }
    }

    /// The next batch, waiting for it; nil once the reader has ended and every batch is taken.
    private func next() -> Batch? {
      condition.lock()
      defer { condition.unlock() }
      while batches.isEmpty, !finished { condition.wait() }
      guard !batches.isEmpty else { return nil }
      let batch = batches.removeFirst()
      condition.broadcast()
      return batch
    }
  }
}

/// Thrown inside the reader when the caller has stopped taking rows.
private struct ReadAheadStopped: Error {}
