import D2SModel
import EnvKeys

/// Where a rendered list window began and ended: the positions (orderings' values and
/// primary key) of its first and last rows, how many rows it had, and whether the list went
/// on after it. A display group records it as its rows are read; `next` and `prev` continue
/// from it.
public struct ListWindow: Sendable, Hashable {
  /// The first row's position.
  public var first: [DatabaseValue]
  /// The last row's position.
  public var last: [DatabaseValue]
  /// The rows the window had.
  public var rows: Int
  /// Whether the list went on after the window when it was read.
  public var more: Bool

  /// A window from `first` to `last` of `rows` rows, with `more` after it or not.
  public init(first: [DatabaseValue], last: [DatabaseValue], rows: Int, more: Bool) {
    self.first = first
    self.last = last
    self.rows = rows
    self.more = more
  }
}
