extension Catalog {
  /// A table or view.
  public struct Table: Sendable {
    public var name: String
    public var schema: String?
    public var isView: Bool
    public var columns: [Column]
    /// Primary key column names, in key order.
    public var primaryKey: [String]
    /// Foreign keys, in the order of their first source column in the table.
    public var foreignKeys: [ForeignKey]
    /// The database's own bookkeeping (`sqlite_sequence`, a full-text index's shadow tables):
    /// an entity, but not listed unless asked for.
    public var isInternal: Bool
    /// A full-text index over the table's text, if the database has one.
    public var fullTextIndex: FullTextIndex?

    public init(
      name: String, schema: String? = nil, isView: Bool = false, columns: [Column],
      primaryKey: [String],
      foreignKeys: [ForeignKey], isInternal: Bool = false
    ) {
      self.isInternal = isInternal
      self.name = name
      self.schema = schema
      self.isView = isView
      self.columns = columns
      self.primaryKey = primaryKey
      self.foreignKeys = foreignKeys
    }
  }
}
