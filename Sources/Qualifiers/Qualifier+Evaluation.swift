import EnvKeys
import Foundation

extension Qualifier {
  /// Evaluates the qualifier against `object`, reading key paths through key-value coding
  /// (``KVC``) and comparing by value (``ValueComparison``).
  public func evaluate(with object: Any?) -> Bool {
    evaluate(with: object, root: nil)
  }

  /// Evaluates the qualifier against `root`, whose first key-path step is asked of it
  /// directly: no runtime cast finds out that it adopts ``KeyValueCoding`` (the first such
  /// cast of a type searches every conformance table).
  public func evaluate(on root: any KeyValueCoding) -> Bool {
    evaluate(with: root, root: root)
  }

  private func evaluate(with object: Any?, root: (any KeyValueCoding)?) -> Bool {
    switch self {
    case .constant(let value):
      return value
    case .comparison(let path, let op, let value):
      let rhs = ComparableValue(value)
      return Qualifier.anySatisfies(path.components[...], from: object, root: root) {
        Qualifier.apply(op, ComparableValue($0), rhs)
      }
    case .keyComparison(let lhsPath, let op, let rhsPath):
      let rhs =
        if let root {
          KVC.value(forKeyPath: rhsPath.components, from: root)
        } else {
          KVC.value(forKeyPath: rhsPath.components, of: object)
        }
      return Qualifier.anySatisfies(lhsPath.components[...], from: object, root: root) {
        Qualifier.apply(op, $0, rhs)
      }
    case .and(let parts):
      for part in parts where !part.evaluate(with: object, root: root) { return false }
      return true
    case .or(let parts):
      for part in parts where part.evaluate(with: object, root: root) { return true }
      return false
    case .not(let inner):
      return !inner.evaluate(with: object, root: root)
    }
  }

  /// Whether `test` holds for the value at `components` from `object`. A step that meets a
  /// list (a to-many relationship's objects) with more steps to go tests each element and
  /// holds when any does, like SQL's `EXISTS`: `films.title = 'ACADEMY DINOSAUR'` on an actor.
  /// `@count` and the like still apply to the list itself. `root`, when given, is `object`
  /// known to adopt ``KeyValueCoding``, and answers the first step.
  static func anySatisfies(
    _ components: ArraySlice<String>, from object: Any?, root: (any KeyValueCoding)? = nil,
    _ test: (Any?) -> Bool
  ) -> Bool {
    var current = object
    var index = components.startIndex
    if let root, index < components.endIndex {
      current = root.value(forKey: components[index])
      index += 1
    }
    while index < components.endIndex {
      guard let value = KVC.unwrap(current) else { return test(nil) }
      let component = components[index]
      if let kvc = DeclaredConformances.keyValueCoding(value) {
        current = kvc.value(forKey: component)
      } else if index > components.startIndex, !component.hasPrefix("@"),
        let elements = value as? [Any]
      {
        let rest = components[index...]
        return elements.contains { anySatisfies(rest, from: $0, test) }
      } else {
        current = KVC.value(forKey: component, of: value)
      }
      index += 1
    }
    return test(KVC.unwrap(current))
  }

  /// Applies a comparison operator to two values.
  public static func apply(_ op: ComparisonOperator, _ lhs: Any?, _ rhs: Any?) -> Bool {
    apply(op, ComparableValue(lhs), ComparableValue(rhs))
  }

  /// Applies a comparison operator to two normalised values.
  public static func apply(_ op: ComparisonOperator, _ lhs: ComparableValue, _ rhs: ComparableValue)
    -> Bool
  {
    let order = { ValueComparison.compare(lhs, rhs) }
    switch op {
    case .equal: return order() == .orderedSame
    case .notEqual: return order() != .orderedSame
    case .lessThan: return order() == .orderedAscending
    case .lessThanOrEqual: return [.orderedAscending, .orderedSame].contains(order())
    case .greaterThan: return order() == .orderedDescending
    case .greaterThanOrEqual: return [.orderedDescending, .orderedSame].contains(order())
    case .like, .caseInsensitiveLike:
      guard case .string(let text) = lhs, case .string(let pattern) = rhs else { return false }
      return LikePattern(pattern, caseInsensitive: op == .caseInsensitiveLike).matches(text)
    case .in:
      guard case .list(let items) = rhs else { return false }
      return items.contains { ValueComparison.compare(lhs, ComparableValue($0)) == .orderedSame }
    }
  }
}
