import D2SModel
import EnvKeys

/// A table: column descriptions and a source of rows, read while the table is rendered, so a
/// long list never has to be held whole.
public struct TableNode: Sendable {
  /// The columns.
  public var columns: [TableColumn]
  /// The rows, read once.
  public var rows: RowSource
  /// What follows the rows: the window and total of a list, or a hint.
  public var summary: TableSummary

  /// A table of `columns` whose rows come from `rows`.
  public init(columns: [TableColumn], rows: RowSource, summary: TableSummary = .none) {
    self.columns = columns
    self.rows = rows
    self.summary = summary
  }
}

/// A column of a table.
public struct TableColumn: Sendable {
  /// The property key (`title`, `customer.lastName`).
  public var key: String
  /// The header (`Title`).
  public var label: String
  /// The component that shows its values (`DisplayString`).
  public var component: String
  /// Whether values align right (numbers).
  public var rightAligned: Bool
  /// Whether a narrow terminal may cut its values (text); titles, numbers and dates are
  /// never cut.
  public var cuttable: Bool

  /// A column.
  public init(
    key: String, label: String, component: String, rightAligned: Bool = false, cuttable: Bool? = nil
  ) {
    self.key = key
    self.label = label
    self.component = component
    self.rightAligned = rightAligned
    self.cuttable = cuttable ?? !rightAligned
  }
}

/// One row: the object's primary key (when it has one) and a cell per column.
public struct TableRow: Sendable {
  /// The primary key values of the row's object.
  public var key: [DatabaseValue]
  /// The cells, in column order.
  public var cells: [ShownValue]
  /// A row.
  public init(key: [DatabaseValue], cells: [ShownValue]) {
    self.key = key
    self.cells = cells
  }
}

/// A source of rows, read once, front to back: it hands each row to the renderer as it is
/// made, so a long list is never held whole.
public final class RowSource: @unchecked Sendable {
  private let produce: (_ emit: (TableRow) throws -> Void) throws -> Void
  /// How many rows have been read.
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
    let before = count
    defer { RowTally.current?.add(count - before) }
    try produce { row in
      count += 1
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

/// The window and total of a list page, for its footer (`1–20 of 599 Customer`).
public struct ListSummary: Sendable {
  /// The name the footer counts in (`Customer`).
  public var noun: String
  /// The first row's offset.
  public var offset: Int
  /// The window's size, if the list has one.
  public var limit: Int?
  /// The total, given the number of rows shown.
  public var total: @Sendable (_ shown: Int) throws -> ListTotal
  /// The entity's name and its key's attributes when the columns do not show them all (a
  /// surrogate `id`, a link table's foreign keys): the footer says how, for `inspect`.
  public var hiddenKey: (entity: String, attributes: [String])?
  /// The display group the rows come from, when they come from one: where the window the
  /// rows were read into began and ended (``DisplayGroup/shown``), and the windows beside it.
  public var displayGroup: DisplayGroup?

  /// A list summary.
  public init(
    noun: String, offset: Int, limit: Int?,
    hiddenKey: (entity: String, attributes: [String])? = nil, displayGroup: DisplayGroup? = nil,
    total: @escaping @Sendable (Int) throws -> ListTotal
  ) {
    self.hiddenKey = hiddenKey
    self.displayGroup = displayGroup
    self.noun = noun
    self.offset = offset
    self.limit = limit
    self.total = total
  }

  /// The footer: `no Film found`, `16 Film`, `1–20 of 599 Customer`, `0 of 5 Film (offset 5,
  /// limit 0)`; when the key is hidden, how to see it: `… · "with id" shows the key for
  /// inspect Film ID`.
  public func footer(shown: Int, total: ListTotal) -> String {
    let of = total.text
    if shown == 0 {
      return total.value == 0 && total.kind == .exact
        ? "no \(noun) found" : "0 of \(of) \(noun) (offset \(offset), limit \(limit ?? 0))"
    }
    let count =
      shown == total.value && total.kind == .exact
      ? "\(of) \(noun)" : "\(offset + 1)–\(offset + shown) of \(of) \(noun)"
    guard let (entity, attributes) = hiddenKey, !attributes.isEmpty else { return count }
    let names = attributes.joined(separator: ", ")
    let placeholder = attributes.map { $0.uppercased() }.joined(separator: ",")
    return count + " · \"with \(names)\" shows the key for inspect \(entity) \(placeholder)"
  }
}

/// How many rows a list has in all, and how sure that number is.
public struct ListTotal: Sendable, Equatable {
  /// Exact, estimated by the database, or a lower bound.
  public enum Kind: String, Sendable {
    case exact, estimate, atLeast
  }
  /// The number.
  public var value: Int
  /// How sure it is.
  public var kind: Kind

  /// A total.
  public init(_ value: Int, _ kind: Kind = .exact) {
    self.value = value
    self.kind = kind
  }

  /// `250000`, `about 250000` or `at least 1000`.
  public var text: String {
    switch kind {
    case .exact: "\(value)"
    case .estimate: "about \(value)"
    case .atLeast: "at least \(value)"
    }
  }
}
