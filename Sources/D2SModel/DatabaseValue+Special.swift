import EnvKeys

extension DatabaseValue {
  /// A special value typed for `attribute` as PostgreSQL writes it, kept as that text for
  /// the database to read (``verbatim(_:)``): `infinity`, `-infinity` or a date ending in
  /// ` BC` for a date column; `NaN`, `Infinity`, `-Infinity` for a decimal or a double
  /// column. Nil for any other text.
  public static func special(_ text: String, for attribute: Attribute) -> DatabaseValue? {
    let lowered = text.trimmingCharacters(in: .whitespaces).lowercased()
    switch attribute.valueType {
    case .date:
      if lowered == "infinity" || lowered == "-infinity" { return .verbatim(lowered) }
      guard lowered.hasSuffix(" bc"),
        parseDate(String(lowered.dropLast(3)), kind: attribute.dateKind) != nil
      else { return nil }
      return .verbatim(String(lowered.dropLast(3)) + " BC")
    case .decimal, .double:
      switch lowered {
      case "nan": return .verbatim("NaN")
      case "infinity", "+infinity": return .verbatim("Infinity")
      case "-infinity": return .verbatim("-Infinity")
      default: return nil
      }
    default: return nil
    }
  }
}
