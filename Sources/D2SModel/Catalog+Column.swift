extension Catalog {
  /// A column with its type already mapped by the adaptor.
  public struct Column: Sendable {
    public var name: String
    public var externalType: String
    public var valueType: Attribute.ValueType
    public var dateKind: Attribute.DateKind?
    public var allowsNull: Bool
    public var defaultValue: String?
    public var isAutoIncrement: Bool
    public var width: Int?
    public var scale: Int?
    public var isBlankPadded: Bool
    public var needsTextCast: Bool
    public var isUntyped: Bool
    /// Computed by the database (`GENERATED ALWAYS AS …`): read, never written.
    public var isGenerated: Bool
    /// SQLite's `rowid`, standing in as the key of a table that declares none.
    public var isRowID: Bool
    /// Whether SQL's `=` compares the column's values exactly: false for a PostgreSQL type
    /// with no default B-tree operator class (`json`, `xml`, `point`; `box`'s `=` compares
    /// areas).
    public var hasEquality: Bool

    public init(
      name: String, externalType: String, valueType: Attribute.ValueType,
      dateKind: Attribute.DateKind? = nil,
      allowsNull: Bool, defaultValue: String? = nil, isAutoIncrement: Bool = false,
      width: Int? = nil,
      scale: Int? = nil, isBlankPadded: Bool = false, needsTextCast: Bool = false,
      isUntyped: Bool = false, isGenerated: Bool = false, isRowID: Bool = false,
      hasEquality: Bool = true
    ) {
      self.hasEquality = hasEquality
      self.isGenerated = isGenerated
      self.isRowID = isRowID
      self.name = name
      self.externalType = externalType
      self.valueType = valueType
      self.dateKind = dateKind
      self.allowsNull = allowsNull
      self.defaultValue = defaultValue
      self.isAutoIncrement = isAutoIncrement
      self.width = width
      self.scale = scale
      self.isBlankPadded = isBlankPadded
      self.needsTextCast = needsTextCast
      self.isUntyped = isUntyped
    }
  }
}
