import EnvKeys
import Qualifiers

/// The right side of a rule: what it assigns when its predicate holds.
public enum RuleValue: Hashable, Sendable, CustomStringConvertible {
  /// A constant, coerced to the key's type when the rule is made.
  case constant(Literal)
  /// A key path evaluated in the context at lookup time (`attribute.name`, `object.lastName`).
  case keyPath(KVCPath)
  /// `NOT keyPath`, for booleans.
  case negatedKeyPath(KVCPath)
  /// A named builtin computation, `@name` (see ``RuleComputations``).
  case computation(String)

  /// The value as rule text writes it (`'x'`, `object.name`, `NOT isEditable`, `@name`).
  public var description: String {
    switch self {
    case .constant(let literal): literal.description
    case .keyPath(let path): path.quotedDescription
    case .negatedKeyPath(let path): "NOT \(path.quotedDescription)"
    case .computation(let name): "@\(name)"
    }
  }

  /// Whether the value is read from the context when the rule wins (not a constant).
  var isReadFromContext: Bool {
    if case .constant = self { return false }
    return true
  }

  /// The key paths the value reads.
  public var keyPaths: [KVCPath] {
    switch self {
    case .keyPath(let path), .negatedKeyPath(let path): [path]
    case .constant, .computation: []
    }
  }
}
