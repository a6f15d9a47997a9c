import Foundation

/// A database catalog as an adaptor reads it, before any naming: the input of
/// ``ModelBuilder``.
public struct Catalog: Sendable {
  public var tables: [Table]
  /// The schemas a bare table name is looked up in, in order (PostgreSQL's `search_path`);
  /// empty for databases without schemas. A table of the first keeps its bare name when two
  /// schemas have one of the same name.
  public var searchPath: [String]
  /// A catalog of `tables`, with the schemas of `searchPath` first.
  public init(tables: [Table], searchPath: [String] = []) {
    self.tables = tables
    self.searchPath = searchPath
  }

  /// The numbers of a declared type: `varchar(45)` → 45; `numeric(5,2)` → 5, 2.
  public static func widthAndScale(_ type: String) -> (Int?, Int?) {
    guard let open = type.firstIndex(of: "("), let close = type.lastIndex(of: ")"), open < close
    else { return (nil, nil) }
    // Trimmed by hand: Foundation's character sets cost a start-up's worth of set-up.
    let numbers = type[type.index(after: open)..<close].split(separator: ",").map { part in
      Int(String(part.filter { $0 != " " }))
    }
    return (numbers.first ?? nil, numbers.count > 1 ? numbers[1] : nil)
  }

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

    public init(
      name: String, externalType: String, valueType: Attribute.ValueType,
      dateKind: Attribute.DateKind? = nil,
      allowsNull: Bool, defaultValue: String? = nil, isAutoIncrement: Bool = false,
      width: Int? = nil,
      scale: Int? = nil, isBlankPadded: Bool = false, needsTextCast: Bool = false,
      isUntyped: Bool = false, isGenerated: Bool = false, isRowID: Bool = false
    ) {
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
