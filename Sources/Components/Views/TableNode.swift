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
