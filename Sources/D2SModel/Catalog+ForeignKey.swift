extension Catalog {
  /// A foreign key: source columns and the destination table's columns, pairwise.
  public struct ForeignKey: Sendable {
    public var columns: [String]
    public var destinationTable: String
    public var destinationSchema: String?
    public var destinationColumns: [String]
    public init(
      columns: [String], destinationTable: String, destinationSchema: String? = nil,
      destinationColumns: [String]
    ) {
      self.columns = columns
      self.destinationTable = destinationTable
      self.destinationSchema = destinationSchema
      self.destinationColumns = destinationColumns
    }
  }
}
