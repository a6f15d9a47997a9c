import CSQLite
import D2SModel
import EnvKeys
import Foundation

/// SQLite declared types → value types, by SQLite's affinity rules with date/time names
/// checked first (so `BLOB SUB_TYPE TEXT` is text, `TIMESTAMP` a date).
enum SQLiteTypes {
  static func column(
    name: String, declaredType: String, notNull: Bool, defaultValue: String?, isAutoIncrement: Bool,
    isGenerated: Bool = false
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
      isUntyped: lower.isEmpty, isGenerated: isGenerated)
  }

  /// What decoding a column reads of its attribute, copied out of it once per statement:
  /// reading the attribute itself for every cell retained and released it, and the model's
  /// attributes are shared by every pooled connection, so their reference counts' cache lines
  /// went from core to core (`swift_retain` was 6.5% of a 1,000-row page's samples).
  struct ColumnType {
    /// The attribute's value type; nil: by storage class (no attribute, or an untyped one).
    let valueType: Attribute.ValueType?
    let dateKind: Attribute.DateKind?

    init(_ attribute: Attribute?) {
      valueType = attribute.flatMap { $0.isUntyped ? nil : $0.valueType }
      dateKind = attribute?.dateKind
    }

    /// The types of a statement's `columns`, `count` of them (past the attributes given: by
    /// storage class).
    static func of(_ columns: [Attribute?], count: Int) -> [ColumnType] {
      (0..<count).map { ColumnType($0 < columns.count ? columns[$0] : nil) }
    }
  }

  /// The decimals a column's last few REAL values were read as, by their bits: a column of
  /// prices repeats a few values, and a `Decimal` made from a double's shortest text costs
  /// about 330 instructions (a tenth of a list row's decoding).
  struct DecimalMemo {
    private var kept: [(bits: UInt64, value: DatabaseValue)] = []
    private var next = 0
    /// The most values kept.
    static let size = 4

    /// `d`'s value, as `make` makes it (once for each of the last ``size`` doubles).
    mutating func value(_ d: Double, _ make: (Double) -> DatabaseValue) -> DatabaseValue {
      let bits = d.bitPattern
      for entry in kept where entry.bits == bits { return entry.value }
      let value = make(d)
      if kept.count < Self.size {
        kept.append((bits, value))
      } else {
        kept[next] = (bits, value)
        next = (next + 1) % Self.size
      }
      return value
    }
  }

  /// The value at `index` of the current row, as `attribute`'s type (or by storage class).
  static func decode(_ statement: OpaquePointer, _ index: Int32, as attribute: Attribute?)
    -> DatabaseValue
  {
    var memo = DecimalMemo()
    return decode(
      ColumnValue(statement, index), index, as: ColumnType(attribute), memo: &memo)
  }

  /// The value at `index` of `row`, as `type` says (or by storage class); a REAL read as a
  /// decimal through `memo`, the column's.
  static func decode<Row: SQLiteColumns>(
    _ row: Row, _ index: Int32, as type: ColumnType, memo: inout DecimalMemo
  )
    -> DatabaseValue
  {
    let storage = row.storage(index)
    if storage == SQLITE_NULL { return .null }
    func text() -> String {
      row.withText(index) { String(decoding: $0, as: UTF8.self) }
    }
    // Text that is not UTF-8 is kept as its bytes (shown escaped: `a\xc0`), never repaired
    // into U+FFFD, which would make two values look alike and lose the bytes.
    func textValue() -> DatabaseValue {
      row.withText(index) { bytes in
        // Decoded on the fast path (`String(validating:)` walked the bytes generically: the
        // 16,044-row list took 38.4 ms with it, 30.6 ms so): bytes that were not UTF-8 come
        // back repaired, so the text's bytes then differ from them.
        var text = String(decoding: bytes, as: UTF8.self)
        let same = text.withUTF8 { decoded in
          guard decoded.count == bytes.count else { return false }
          guard let left = decoded.baseAddress, let right = bytes.baseAddress else { return true }
          return memcmp(left, right, bytes.count) == 0
        }
        return same ? .string(text) : .textBytes(Data(bytes))
      }
    }
    func data() -> Data {
      row.withBlob(index) { $0.isEmpty ? Data() : Data($0) }
    }
    func natural() -> DatabaseValue {
      switch storage {
      case SQLITE_INTEGER: .int(Int(row.int64(index)))
      case SQLITE_FLOAT: .double(row.double(index))
      case SQLITE_BLOB: .data(data())
      default: textValue()
      }
    }
    guard let valueType = type.valueType else { return natural() }
    // Each type's case only when it holds exactly what is stored; else the stored value as
    // it is (text in an INTEGER column, an epoch number in a DATE column, a blob anywhere).
    switch valueType {
    case .string:
      return storage == SQLITE_TEXT ? textValue() : natural()
    case .int:
      return storage == SQLITE_INTEGER ? .int(Int(row.int64(index))) : natural()
    case .double:
      return storage == SQLITE_FLOAT ? .double(row.double(index)) : natural()
    case .decimal:
      switch storage {
      case SQLITE_INTEGER: return .decimal(Decimal(Int(row.int64(index))))
      case SQLITE_FLOAT:
        // Through the shortest decimal string: 4.99, never 4.990000000000001024.
        let d = row.double(index)
        guard d.isFinite else { return .double(d) }
        return memo.value(d) { d in
          DecimalText.decimal(from: d).map { .decimal($0) } ?? .double(d)
        }
      default: return natural()
      }
    case .bool:
      if storage == SQLITE_INTEGER {
        let i = row.int64(index)
        return i == 0 || i == 1 ? .bool(i == 1) : .int(Int(i))
      }
      return natural()
    case .date:
      guard storage == SQLITE_TEXT else { return natural() }
      let date = row.withText(index) { bytes -> Date? in
        guard DateForms.isCanonical(bytes, kind: type.dateKind),
          let date = DateForms.parse(bytes, kind: type.dateKind),
          DateForms.isExact(date, bytes, kind: type.dateKind)
        else { return nil }
        return date
      }
      return date.map { .date($0) } ?? textValue()
    case .data:
      return natural()
    case .array:
      guard storage == SQLITE_TEXT else { return natural() }
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
      // A whole number as an integer, exactly (a REAL holds 53 bits).
      let text = DecimalText.format(d)
      if let whole = Int(text) { return .int(whole) }
      return .double(Double(text) ?? NSDecimalNumber(decimal: d).doubleValue)
    case .bool(let b) where attribute.valueType != .string: return .int(b ? 1 : 0)
    case .array(let items): return .string(items.map { $0 ?? "" }.joined(separator: ","))
    default: return value
    }
  }
}
