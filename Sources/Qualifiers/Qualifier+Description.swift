import EnvKeys

extension Qualifier: CustomStringConvertible {
  /// Canonical text: single quotes, `=` for equality, upper-case `AND`/`OR`/`NOT`, minimal
  /// parentheses. It parses back to an equal qualifier.
  public var description: String {
    switch self {
    case .constant(let value): return value ? "*true*" : "*false*"
    case .comparison(let path, let op, let value):
      return "\(path.quotedDescription) \(op.rawValue) \(value.qualifierText)"
    case .keyComparison(let lhs, let op, let rhs):
      return "\(lhs.quotedDescription) \(op.rawValue) \(rhs.quotedDescription)"
    case .and(let parts):
      return parts.map { part in
        if case .or = part { return "(\(part))" }
        return part.description
      }.joined(separator: " AND ")
    case .or(let parts):
      return parts.map(\.description).joined(separator: " OR ")
    case .not(let inner):
      switch inner {
      case .and, .or: return "NOT (\(inner))"
      default: return "NOT \(inner)"
      }
    }
  }
}
