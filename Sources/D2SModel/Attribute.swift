import EnvKeys
import Qualifiers

/// A column of an entity, with its friendly name and its value type.
public final class Attribute: Sendable, Hashable, KeyValueCoding, QualifierComparable,
  CustomStringConvertible
{
  /// The Swift-side value type of a column.
  public enum ValueType: String, Sendable, CaseIterable {
    case string = "String"
    case int = "Int"
    case double = "Double"
    case decimal = "Decimal"
    case bool = "Bool"
    case date = "Date"
    case data = "Data"
    case array = "Array"
  }

  /// What a `Date` column holds: a day, a time of day, or both.
  public enum DateKind: String, Sendable {
    case date, time, dateTime
  }

  /// The friendly name (`lastName`).
  public let name: String
  /// The column name in SQL (`last_name`).
  public let columnName: String
  /// The declared SQL type (`VARCHAR(45)`, `numeric(5,2)`, `mpaa_rating`).
  public let externalType: String
  /// The type of the values (`Int`, `String`, …).
  public let valueType: ValueType
  /// For a date: whether it holds a day, a time or both.
  public let dateKind: DateKind?
  /// Whether the column accepts NULL.
  public let allowsNull: Bool
  /// The default expression as the catalog shows it.
  public let defaultValue: String?
  /// Whether the database gives new rows a value itself (a serial or rowid key).
  public let isAutoIncrement: Bool
  /// Character width or numeric precision, and scale, when declared.
  public let width: Int?
  /// The digits after the point of a fixed-point column (`numeric(12,2)`: 2).
  public let scale: Int?
  /// A `char(n)` column, whose values are blank-padded (and shown with their padding).
  public let isBlankPadded: Bool
  /// A PostgreSQL enum or `tsvector`: compared as text.
  public let needsTextCast: Bool
  /// For SQLite columns without a declared type: the storage class decides.
  public let isUntyped: Bool
  /// Computed by the database (`GENERATED ALWAYS AS …`): shown, never written or edited.
  public let isGenerated: Bool
  /// SQLite's `rowid`, the key of a table that declares none: not stable across `VACUUM`,
  /// so updates and deletes of such rows compare every comparable column.
  public let isRowID: Bool
  /// Whether SQL's `=` compares the column's values exactly (see
  /// ``Catalog/Column/hasEquality``).
  public let hasEquality: Bool

  /// A column read as its text, verbatim (a keyset position on PostgreSQL).
  public static let positionText = Attribute(
    name: "position", columnName: "position", externalType: "text", valueType: .string,
    allowsNull: true)

  /// An attribute named `name` for `column`, as the model builder makes one.
  public init(name: String, column: Catalog.Column) {
    self.name = name
    columnName = column.name
    externalType = column.externalType
    valueType = column.valueType
    dateKind = column.dateKind
    allowsNull = column.allowsNull
    defaultValue = column.defaultValue
    isAutoIncrement = column.isAutoIncrement
    width = column.width
    scale = column.scale
    isBlankPadded = column.isBlankPadded
    needsTextCast = column.needsTextCast
    isUntyped = column.isUntyped
    isGenerated = column.isGenerated
    isRowID = column.isRowID
    hasEquality = column.hasEquality
  }

  /// An attribute from its parts, as a test or a hand-written model makes one.
  public convenience init(
    name: String, columnName: String, externalType: String, valueType: ValueType,
    dateKind: DateKind? = nil, allowsNull: Bool, defaultValue: String? = nil,
    isAutoIncrement: Bool = false, width: Int? = nil, scale: Int? = nil,
    isBlankPadded: Bool = false,
    needsTextCast: Bool = false, isUntyped: Bool = false, isGenerated: Bool = false,
    isRowID: Bool = false, hasEquality: Bool = true
  ) {
    self.init(
      name: name,
      column: Catalog.Column(
        name: columnName, externalType: externalType, valueType: valueType, dateKind: dateKind,
        allowsNull: allowsNull, defaultValue: defaultValue, isAutoIncrement: isAutoIncrement,
        width: width, scale: scale, isBlankPadded: isBlankPadded, needsTextCast: needsTextCast,
        isUntyped: isUntyped, isGenerated: isGenerated, isRowID: isRowID,
        hasEquality: hasEquality))
  }

  /// A password column (by name), never shown or edited.
  public var isPassword: Bool {
    ["password", "passwd", "pwd"].contains(name.lowercased())
      || name.lowercased().hasSuffix("password")
  }

  /// Whether optimistic locking may compare this column in SQL (not floating point,
  /// binary, arrays, full-text vectors or a type without an exact `=`): the others are
  /// compared as fetched, on the row read under the save's lock.
  public var isComparable: Bool {
    switch valueType {
    case .double, .data, .array: false
    default: hasEquality && !externalType.lowercased().contains("tsvector")
    }
  }

  /// The attribute's own properties by name, for rules (`attribute.isPassword`).
  public func value(forKey key: String) -> Any? {
    switch key {
    case "name": name
    case "columnName", "externalName": columnName
    case "externalType": externalType
    case "valueType": valueType.rawValue
    case "dateKind": dateKind?.rawValue
    case "allowsNull": allowsNull
    case "isPassword": isPassword
    case "isAutoIncrement": isAutoIncrement
    case "isGenerated": isGenerated
    case "width": width
    case "scale": scale
    case "defaultValue": defaultValue
    default: nil
    }
  }

  /// The attribute as qualifiers compare it: its name.
  public var qualifierComparisonValue: Any? { name }

  /// Attributes are equal when they are the same object.
  public static func == (a: Attribute, b: Attribute) -> Bool { a === b }
  /// Hashes the attribute's identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  /// The attribute's name.
  public var description: String { name }
}

extension Attribute.ValueType: ContextLiteralConvertible {
  /// `ValueType`.
  public static var contextTypeName: String { "ValueType" }
  /// The value type named by a string literal (`'String'`).
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
    guard case .string(let name) = literal, let type = Attribute.ValueType(rawValue: name) else {
      let names = Attribute.ValueType.allCases.map { "'\($0.rawValue)'" }
        .joined(separator: ", ")
      throw LiteralCoercionError(
        expectedType: "ValueType", literal: literal, hint: "one of \(names)")
    }
    self = type
  }
  /// The name as rule text compares it: `'String'`.
  public var contextLiteral: Literal { .string(rawValue) }
}
