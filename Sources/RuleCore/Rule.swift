import EnvKeys
import Qualifiers

/// A rule: **predicate => key = value**, with a priority.
///
/// ```swift
/// let rule = try RuleParser().parseRule("task = 'edit' AND propertyKey = 'rating' => component = 'EditRating'")
/// ```
public struct Rule: Sendable, Equatable, CustomStringConvertible {
  /// When the rule applies.
  public let predicate: Qualifier
  /// The key it assigns.
  public let key: ExposedKey
  /// What it assigns.
  public let value: RuleValue
  /// Its priority (``Priority/normal`` unless stated).
  public let priority: Priority
  /// The predicate's complexity (its number of key comparisons).
  public let complexity: Int
  /// Where the rule is written (rules in Swift); not part of equality.
  public let location: RuleLocation?
  /// The constant coerced to the key's type, when `value` is a constant.
  let constantValue: (any Sendable)?

  /// Makes a rule, coercing a constant value to the key's type.
  /// - Throws: ``LiteralCoercionError`` when the constant does not fit the key.
  public init(
    predicate: Qualifier = .constant(true), key: ExposedKey, value: RuleValue,
    priority: Priority = .normal, location: RuleLocation? = nil
  ) throws(LiteralCoercionError) {
    self.location = location
    self.predicate = predicate
    self.key = key
    self.value = value
    self.priority = priority
    self.complexity = predicate.complexity
    if case .constant(let literal) = value {
      do {
        self.constantValue = try key.coerce(literal)
      } catch let error as LiteralCoercionError {
        throw error
      } catch {
        throw LiteralCoercionError(key: key.name, expectedType: key.valueTypeName, literal: literal)
      }
    } else {
      self.constantValue = nil
    }
  }

  /// The same rule at another priority.
  public func priority(_ priority: Priority) -> Rule {
    Rule(copying: self, priority: priority)
  }

  private init(copying rule: Rule, priority: Priority) {
    self.location = rule.location
    self.predicate = rule.predicate
    self.key = rule.key
    self.value = rule.value
    self.priority = priority
    self.complexity = rule.complexity
    self.constantValue = rule.constantValue
  }

  public static func == (lhs: Rule, rhs: Rule) -> Bool {
    lhs.predicate == rhs.predicate && lhs.key.id == rhs.key.id && lhs.key.name == rhs.key.name
      && lhs.value == rhs.value && lhs.priority == rhs.priority
  }

  /// Canonical rule text: `PREDICATE => KEY = VALUE`, then `; PRIORITY` unless normal.
  public var description: String {
    Rule.text(predicate: predicate, keyName: key.name, value: value, priority: priority)
  }

  /// `PREDICATE => KEY = VALUE`, then `; PRIORITY` unless normal.
  static func text(
    predicate: Qualifier, keyName: String, value: RuleValue, priority: Priority
  ) -> String {
    var text = "\(predicate) => \(keyName) = \(value)"
    if priority != .normal { text += " ; \(priority)" }
    return text
  }

  /// The normalised condition, for detecting rules that can never be told apart: compounds
  /// with their parts sorted.
  var conditionSignature: String {
    func normalise(_ q: Qualifier) -> String {
      switch q {
      case .and(let parts):
        return "(" + parts.map(normalise).sorted().joined(separator: " AND ") + ")"
      case .or(let parts):
        return "(" + parts.map(normalise).sorted().joined(separator: " OR ") + ")"
      case .not(let inner): return "NOT " + normalise(inner)
      default: return q.description
      }
    }
    return "\(key.name)|\(priority.value)|\(normalise(predicate))"
  }
}
