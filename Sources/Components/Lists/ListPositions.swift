import D2SModel
import EnvKeys
import Synchronization

/// Where a rendered list window began and ended: the positions (orderings' values and
/// primary key) of its first and last rows, from which `next` and `prev` continue.
public final class ListPositions: Sendable {
  private struct State {
    var first: [DatabaseValue]?
    var last: [DatabaseValue]?
    var rows = 0
    var more = false
  }
  private let state = Mutex(State())

  /// Nothing recorded.
  public init() {}

  /// The first row's position, if a window with rows was read with positions.
  public var first: [DatabaseValue]? { state.withLock { $0.first } }
  /// The last row's position.
  public var last: [DatabaseValue]? { state.withLock { $0.last } }
  /// The rows the window had.
  public var rows: Int { state.withLock { $0.rows } }
  /// Whether the list went on after the window when it was read.
  public var more: Bool { state.withLock { $0.more } }

  /// Forgets the last window, as a new one is read.
  func reset() { state.withLock { $0 = State() } }

  /// Records a window's first and last positions, its number of rows, and whether more
  /// followed.
  func record(first: [DatabaseValue]?, last: [DatabaseValue]?, rows: Int, more: Bool) {
    state.withLock { $0 = State(first: first, last: last, rows: rows, more: more) }
  }
}
