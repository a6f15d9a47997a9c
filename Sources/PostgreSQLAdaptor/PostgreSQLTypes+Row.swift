import D2SModel
import EnvKeys

extension PostgreSQLTypes {
  /// A value's `bytes` (its text, as PostgreSQL sends it) as `type` says, as decoding its text
  /// as a `String` would: text, integers and canonical dates are read from the bytes, with no
  /// `String` made first; other types go through their text.
  static func decode(_ bytes: UnsafeRawBufferPointer, as type: ColumnType) -> DatabaseValue {
    switch type.valueType {
    case .string: return .string(String(decoding: bytes, as: UTF8.self))
    case .int: if let value = integer(bytes) { return .int(value) }
    case .date:
      // As SQLite's dates: read from the bytes, no `String` made for a canonical one.
      let utf8 = bytes.assumingMemoryBound(to: UInt8.self)
      let kind = type.dateKind
      if DateForms.isCanonical(utf8, kind: kind), let date = DateForms.parse(utf8, kind: kind),
        DateForms.isExact(date, utf8, kind: kind)
      {
        return .date(date)
      }
    default: break
    }
    return decode(String(decoding: bytes, as: UTF8.self), as: type)
  }

  /// An integer written as PostgreSQL writes one (an optional `-`, then 1 to 18 digits), or nil
  /// for anything else (which `Int(_:)` then reads, or not).
  static func integer(_ bytes: UnsafeRawBufferPointer) -> Int? {
    var index = 0
    let negative = bytes.first == UInt8(ascii: "-")
    if negative { index = 1 }
    let digits = bytes.count - index
    guard digits > 0, digits <= 18 else { return nil }
    var value = 0
    while index < bytes.count {
      let digit = bytes[index] &- UInt8(ascii: "0")
      guard digit < 10 else { return nil }
      value = value &* 10 &+ Int(digit)
      index += 1
    }
    return negative ? -value : value
  }
}
