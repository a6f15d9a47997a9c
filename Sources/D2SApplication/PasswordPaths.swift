import Components
import D2SModel
import Qualifiers
import RuleCore

/// Which key paths read a password's value: a part that names a password attribute of any
/// entity (by its name or its column's), or `propertyValue` (the value of whatever property
/// the context names, a password included). Explanations mask such values; rules written from
/// a page may not read them.
public enum PasswordPaths {
  /// The names (attribute and column) of every password attribute of `model`.
  public static func names(in model: Model) -> Set<String> {
    Set(
      model.entities.flatMap { entity in
        entity.attributes.filter(\.isPassword).flatMap { [$0.name, $0.columnName] }
      })
  }

  /// Whether `path` (`user.password`, `propertyValue`) reads a password's value in `model`.
  public static func reads(_ path: KVCPath, in model: Model) -> Bool {
    let passwords = names(in: model)
    return path.components.first == "propertyValue"
      || path.components.contains(where: passwords.contains)
  }

  /// Whether `rule` reads a password's value: in its condition or its value (a key path, or
  /// the `@propertyValue` computation).
  public static func reads(_ rule: Rule, in model: Model) -> Bool {
    if case .computation("propertyValue") = rule.value { return true }
    return (rule.predicate.keyPaths + rule.value.keyPaths).contains { reads($0, in: model) }
  }

  /// `whyNot`'s description with the value of every key path that reads a password masked
  /// (for a front end other than the terminal's own user).
  public static func description(of whyNot: RuleWhyNot, in model: Model?) -> String {
    guard let model, case .doesNotMatch(let rule, let clause, let actual) = whyNot else {
      return whyNot.description
    }
    let paths = Dictionary(
      clause.keyPaths.map { ($0.description, $0) }, uniquingKeysWith: { first, _ in first })
    let masked = actual.map { path, value in
      paths[path].map { reads($0, in: model) } == true
        ? (path: path, value: KeyExplanation.hidden) : (path: path, value: value)
    }
    return RuleWhyNot.doesNotMatch(rule, clause: clause, actual: masked).description
  }
}
