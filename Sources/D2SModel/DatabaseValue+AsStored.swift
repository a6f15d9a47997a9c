import EnvKeys

extension DatabaseValue {
  /// The value to compare `attribute`'s column with to find `value` exactly as the column
  /// holds it: `value` itself when ``coerce(_:to:)`` keeps it, else a kind bound as it is,
  /// which coercion passes over. SQLite keeps what it is given (`'abc'` or `1.5` in an
  /// INTEGER column, a TIMESTAMP column's text in another form than D2S writes): text is
  /// bound as that text (``verbatim(_:)``, not read as a date or a number), an integer as the
  /// double equal to it (SQLite compares numbers by value, whatever the column's affinity).
  public static func asStored(_ value: DatabaseValue, for attribute: Attribute) -> DatabaseValue {
    if let coerced = try? coerce(value, to: attribute), coerced == value { return value }
    switch value {
    case .string(let text): return .verbatim(text)
    case .int(let number):
      let double = Double(number)
      return Int(exactly: double) == number ? .double(double) : .verbatim(String(number))
    case .decimal(let number): return .verbatim(DecimalText.format(number))
    default: return value
    }
  }
}
