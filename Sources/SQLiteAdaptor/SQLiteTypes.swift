import CSQLite
import D2SModel
import EnvKeys
import Foundation

/// SQLite declared types → value types, by SQLite's affinity rules with date/time names
/// checked first (so `BLOB SUB_TYPE TEXT` is text, `TIMESTAMP` a date).
enum SQLiteTypes {
  static func column(
    name: String, declaredType: String, notNull: Bool, defaultValue: String?, isAutoIncrement: Bool
  )
    -> Catalog.Column
  {
    let lower = declaredType.lowercased()
    // By hand over the bytes: Foundation's `String.contains`, and the standard library's
    // generic `Collection.contains(_:)`, each cost thousands of instructions a call, for every
    // column at start-up.
    let bytes = Array(lower.utf8)
    func has(_ part: StaticString) -> Bool {
      let needle = UnsafeBufferPointer(start: part.utf8Start, count: part.utf8CodeUnitCount)
      guard bytes.count >= needle.count else { return false }
      return (0...(bytes.count - needle.count)).contains { start in
        needle.indices.allSatisfy { bytes[start + $0] == needle[$0] }
      }
    }
    var valueType = Attribute.ValueType.string
    var dateKind: Attribute.DateKind?
    if lower.isEmpty {
      valueType = .string
    } else if has("datetime") || has("timestamp") {
      (valueType, dateKind) = (.date, .dateTime)
    } else if lower.hasPrefix("date") {
      (valueType, dateKind) = (.date, .date)
    } else if lower.hasPrefix("time") {
      (valueType, dateKind) = (.date, .time)
    } else if has("int") {
      valueType = .int
    } else if has("char") || has("clob") || has("text") {
      valueType = .string
    } else if has("blob") {
      valueType = .data
    } else if has("real") || has("floa") || has("doub") {
      valueType = .double
    } else if lower.hasPrefix("bool") {
      valueType = .bool
    } else if lower.hasPrefix("numeric") || lower.hasPrefix("decimal") {
      valueType = .decimal
    }
    let (width, scale) = Catalog.widthAndScale(declaredType)
    return Catalog.Column(
      name: name, externalType: declaredType, valueType: valueType, dateKind: dateKind,
      allowsNull: !notNull,
      defaultValue: defaultValue, isAutoIncrement: isAutoIncrement, width: width, scale: scale,
      isUntyped: lower.isEmpty)
  }

  /// The value at `index` of the current row, as `attribute`'s type (or by storage class).
  static func decode(_ statement: OpaquePointer, _ index: Int32, as attribute: Attribute?)
    -> DatabaseValue
  {
    decode(StatementColumns(statement: statement), index, as: attribute)
  }

  /// The value at `index` of `row`, as `attribute`'s type (or by storage class).
  static func decode<Row: SQLiteColumns>(_ row: Row, _ index: Int32, as attribute: Attribute?)
    -> DatabaseValue
  {
    let storage = row.storage(index)
    if storage == SQLITE_NULL { return .null }
    func text() -> String {
      row.withText(index) { String(decoding: $0, as: UTF8.self) }
    }
    func data() -> Data {
      row.withBlob(index) { $0.isEmpty ? Data() : Data($0) }
    }
    func natural() -> DatabaseValue {
      switch storage {
      case SQLITE_INTEGER: .int(Int(row.int64(index)))
      case SQLITE_FLOAT: .double(row.double(index))
      case SQLITE_BLOB: .data(data())
      default: .string(text())
      }
    }
    guard let attribute, !attribute.isUntyped else { return natural() }
    switch attribute.valueType {
    case .string:
      switch storage {
      case SQLITE_TEXT: return .string(text())
      case SQLITE_INTEGER: return .string(String(row.int64(index)))
      case SQLITE_FLOAT: return .string(String(row.double(index)))
      default: return .string(String(decoding: data(), as: UTF8.self))
      }
    case .int:
      if storage == SQLITE_INTEGER { return .int(Int(row.int64(index))) }
      if storage == SQLITE_FLOAT {
        let d = row.double(index)
        if let i = Int(exactly: d) { return .int(i) }
      }
      return natural()
    case .double:
      if storage == SQLITE_INTEGER || storage == SQLITE_FLOAT {
        return .double(row.double(index))
      }
      return natural()
    case .decimal:
      switch storage {
      case SQLITE_INTEGER: return .decimal(Decimal(Int(row.int64(index))))
      case SQLITE_FLOAT:
        // Through the shortest decimal string: 4.99, never 4.990000000000001024.
        let d = row.double(index)
        return DecimalText.decimal(from: d).map { .decimal($0) } ?? .double(d)
      default:
        let s = text()
        return Decimal(string: s, locale: DecimalText.posix).map { .decimal($0) } ?? .string(s)
      }
    case .bool:
      switch storage {
      case SQLITE_INTEGER: return .bool(row.int64(index) != 0)
      default:
        let s = text().lowercased()
        if ["1", "t", "true", "y", "yes"].contains(s) { return .bool(true) }
        if ["0", "f", "false", "n", "no"].contains(s) { return .bool(false) }
        return .string(text())
      }
    case .date:
      if storage == SQLITE_TEXT {
        if let date = row.withText(index, { ISODateText.parse(bytes: $0) }) {
          return .date(date)
        }
        let s = text()
        return DatabaseValue.parseDate(s, kind: attribute.dateKind).map { .date($0) } ?? .string(s)
      }
      if storage == SQLITE_INTEGER || storage == SQLITE_FLOAT {
        return .date(Date(timeIntervalSince1970: row.double(index)))
      }
      return natural()
    case .data:
      return storage == SQLITE_BLOB ? .data(data()) : .data(Data(text().utf8))
    case .array:
      let s = text()
      return .array(s.isEmpty ? [] : s.split(separator: ",").map(String.init))
    }
  }

  /// A value in the form the column stores: dates as the column's text form, decimals as
  /// numbers (NUMERIC affinity stores REAL), booleans as 0/1.
  static func encode(_ value: DatabaseValue, for attribute: Attribute) -> DatabaseValue {
    switch value {
    case .date(let date): return .string(DatabaseValue.formatDate(date, kind: attribute.dateKind))
    case .decimal(let d) where attribute.valueType == .decimal || attribute.valueType == .double:
      return .double(Double(d.description) ?? NSDecimalNumber(decimal: d).doubleValue)
    case .bool(let b) where attribute.valueType != .string: return .int(b ? 1 : 0)
    case .array(let items): return .string(items.joined(separator: ","))
    default: return value
    }
  }
}
