import D2SModel
import EnvKeys

/// A source of rows, read once, front to back: it hands each row to the renderer as it is
/// made, so a long list is never held whole.
public final class RowSource: @unchecked Sendable {
  private let produce: (_ emit: (TableRow) throws -> Void) throws -> Void
  /// How many rows have been read (by ``stream(_:)`` calls that have returned).
  public private(set) var count = 0

  /// Rows that `produce` hands, one by one, to the function it is given.
  public init(_ produce: @escaping (_ emit: (TableRow) throws -> Void) throws -> Void) {
    self.produce = produce
  }

  /// Rows from an array.
  public convenience init(_ rows: [TableRow]) {
    self.init { emit in
      for row in rows { try emit(row) }
    }
  }

  /// Hands every row to `body`, in order, as it is made; adds them to ``RowTally/current``.
  public func stream(_ body: (TableRow) throws -> Void) throws {
    // Counted in a local, added once: a class's property changed per row is an exclusive
    // access checked at run time each time.
    var seen = 0
    defer {
      count += seen
      RowTally.current?.add(seen)
    }
    try produce { row in
      seen += 1
      try body(row)
    }
  }
}

/// What follows a table's rows.
public enum TableSummary: Sendable {
  /// Nothing.
  case none
  /// A line of text.
  case hint(String)
  /// A list's window and total, known once the rows are read.
  case list(ListSummary)
}
