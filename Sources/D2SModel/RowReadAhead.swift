import Foundation
import Synchronization

/// Rows read on a second thread, a few batches ahead of the caller, who handles each row on
/// its own thread and in order: reading a statement's rows (stepping and decoding) and showing
/// them (formatting and writing) then take two cores instead of one after the other.
///
/// The reader is joined before ``run(produce:consume:)`` returns, whatever happens: an error
/// of either side stops the other and is thrown (the consumer's first). The caller must not
/// use the reading connection while the rows are read.
final class RowReadAhead: @unchecked Sendable {
  /// Rows handed over at once, and batches read ahead at most (so memory stays bounded).
  static let batchSize = 256
  static let depth = 4

  private let condition = NSCondition()
  private var batches: [[[DatabaseValue]]] = []
  private var finished = false
  private var failure: (any Error)?
  private let cancelled = Atomic<Bool>(false)
  private let produce: (_ emit: ([DatabaseValue]) throws -> Void) throws -> Void

  private init(produce: @escaping (_ emit: ([DatabaseValue]) throws -> Void) throws -> Void) {
    self.produce = produce
  }

  /// Runs `produce` on a second thread and hands each row it emits to `consume`, here.
  static func run(
    produce: @escaping (_ emit: ([DatabaseValue]) throws -> Void) throws -> Void,
    consume: ([DatabaseValue]) throws -> Void
  ) throws {
    let readAhead = RowReadAhead(produce: produce)
    let thread = Thread { readAhead.read() }
    thread.name = "d2s.read-ahead"
    thread.start()
    try readAhead.handOver(to: consume)
  }

  /// The reading thread: batches of rows, then the end (or the error).
  private func read() {
    var batch: [[DatabaseValue]] = []
    batch.reserveCapacity(Self.batchSize)
    do {
      try produce { values in
        if cancelled.load(ordering: .relaxed) { throw ReadAheadStopped() }
        batch.append(values)
        if batch.count == Self.batchSize {
          try push(batch)
          batch.removeAll(keepingCapacity: true)
        }
      }
      if !batch.isEmpty { try push(batch) }
      end(nil)
    } catch is ReadAheadStopped {
      end(nil)
    } catch {
      end(error)
    }
  }

  private func push(_ batch: [[DatabaseValue]]) throws {
    condition.lock()
    defer { condition.unlock() }
    while batches.count >= Self.depth, !cancelled.load(ordering: .relaxed) { condition.wait() }
    if cancelled.load(ordering: .relaxed) { throw ReadAheadStopped() }
    batches.append(batch)
    condition.broadcast()
  }

  private func end(_ error: (any Error)?) {
    condition.lock()
    failure = error
    finished = true
    condition.broadcast()
    condition.unlock()
  }

  /// The caller's side: rows in order until the reader ends; then the reader's error, if any.
  private func handOver(to consume: ([DatabaseValue]) throws -> Void) throws {
    do {
      while let batch = next() {
        for values in batch { try consume(values) }
      }
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
  private func next() -> [[DatabaseValue]]? {
    condition.lock()
    defer { condition.unlock() }
    while batches.isEmpty, !finished { condition.wait() }
    guard !batches.isEmpty else { return nil }
    let batch = batches.removeFirst()
    condition.broadcast()
    return batch
  }
}

/// Thrown inside the reader when the caller has stopped taking rows.
private struct ReadAheadStopped: Error {}
