import EnvKeys
import Foundation

extension Qualifier {
  /// Evaluates the qualifier against `object`, reading key paths through key-value coding
  /// (``KVC``) and comparing by value (``ValueComparison``).
  public func evaluate(with object: Any?) -> Bool {
    switch self {
    case .constant(let value):
      return value
    case .comparison(let path, let op, let literal):
      let lhs = KVC.value(forKeyPath: path.components, of: object)
      return Qualifier.apply(op, lhs, literal.anyValue)
    case .keyComparison(let lhsPath, let op, let rhsPath):
      let lhs = KVC.value(forKeyPath: lhsPath.components, of: object)
      let rhs = KVC.value(forKeyPath: rhsPath.components, of: object)
      return Qualifier.apply(op, lhs, rhs)
    case .and(let parts):
      for part in parts where !part.evaluate(with: object) { return false }
      return true
    case .or(let parts):
      for part in parts where part.evaluate(with: object) { return true }
      return false
    case .not(let inner):
      return !inner.evaluate(with: object)
    }
  }

  /// Applies a comparison operator to two values.
  public static func apply(_ op: ComparisonOperator, _ lhs: Any?, _ rhs: Any?) -> Bool {
    switch op {
    case .equal: return ValueComparison.equal(lhs, rhs)
    case .notEqual: return !ValueComparison.equal(lhs, rhs)
    case .lessThan: return ValueComparison.compare(lhs, rhs) == .orderedAscending
    case .lessThanOrEqual:
      return [.orderedAscending, .orderedSame].contains(ValueComparison.compare(lhs, rhs))
    case .greaterThan: return ValueComparison.compare(lhs, rhs) == .orderedDescending
    case .greaterThanOrEqual:
      return [.orderedDescending, .orderedSame].contains(ValueComparison.compare(lhs, rhs))
    case .like, .caseInsensitiveLike:
      guard case .string(let text) = ComparableValue(lhs), case .string(let pattern) = ComparableValue(rhs)
      else { return false }
      return LikePattern(pattern, caseInsensitive: op == .caseInsensitiveLike).matches(text)
    case .in:
      guard case .list(let items) = ComparableValue(rhs) else { return false }
      let needle = ComparableValue(lhs)
      return items.contains { ValueComparison.compare(needle, ComparableValue($0)) == .orderedSame }
    }
  }
}
