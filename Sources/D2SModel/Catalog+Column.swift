extension Catalog {
  /// A column with its type already mapped by the adaptor.
  public struct Column: Sendable {
    /// The column's name in SQL.
    public var name: String
    /// The declared SQL type (`VARCHAR(45)`, `numeric(5,2)`).
    public var externalType: String
    /// The type of its values.
    public var valueType: Attribute.ValueType
    /// For a date: whether it holds a day, a time or both.
    public var dateKind: Attribute.DateKind?
    /// Whether it accepts NULL.
    public var allowsNull: Bool
    /// Its default expression, as the catalog shows it.
    public var defaultValue: String?
    /// Whether the database gives new rows a value itself.
    public var isAutoIncrement: Bool
    /// Its character width or numeric precision, when declared.
    public var width: Int?
    /// A fixed-point column's digits after the point, when declared.
    public var scale: Int?
    /// A `char(n)` column, whose values are blank-padded.
    public var isBlankPadded: Bool
    /// A PostgreSQL enum or `tsvector`: compared as text.
    public var needsTextCast: Bool
    /// An SQLite column without a declared type.
    public var isUntyped: Bool
    /// Computed by the database (`GENERATED ALWAYS AS …`): read, never written.
    public var isGenerated: Bool
    /// SQLite's `rowid`, standing in as the key of a table that declares none.
    public var isRowID: Bool
    /// Whether SQL's `=` compares the column's values exactly: false for a PostgreSQL type
    /// with no default B-tree operator class (`json`, `xml`, `point`; `box`'s `=` compares
    /// areas).
    public var hasEquality: Bool

    /// A column; only its name, type and nullability are required.
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
