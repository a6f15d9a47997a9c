import D2SModel
import EnvKeys

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
  /// The fraction digits its values have as stored (a `numeric(8,2)` column's 2), when the
  /// column's attribute says: `12.50` is written so, not `12.5`.
  public var scale: Int?
  /// Whether its dates are days, times of day or both, when the column's attribute says: a
  /// `DATE` column's `2024-01-02` is written so, with no time.
  public var dateKind: Attribute.DateKind?

  /// A column.
  public init(
    key: String, label: String, component: String, rightAligned: Bool = false,
    cuttable: Bool? = nil,
    scale: Int? = nil, dateKind: Attribute.DateKind? = nil
  ) {
    self.scale = scale
    self.dateKind = dateKind
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
