import EnvKeys
import Qualifiers

// The operators of the Swift rule DSL (see RuleDSL.swift).

func dslComparison<V: ContextLiteralConvertible>(
  _ keyPath: KeyPath<RuleContext, V>, _ op: ComparisonOperator, _ value: V
) -> RulePredicate {
  RulePredicate.comparison(keyPath, op, value.contextLiteral)
}

func dslKeyComparison<V, W>(
  _ lhs: KeyPath<RuleContext, V>, _ op: ComparisonOperator, _ rhs: KeyPath<RuleContext, W>
) -> RulePredicate {
  RulePredicate(
    condition: DSLKeyPath.recording(lhs).flatMap { l in
      DSLKeyPath.recording(rhs).map { .keyComparison(l, op, $0) }
    })
}

// MARK: - Comparisons with a value

/// `keyPath = value`.
public func == <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V) -> RulePredicate
{
  dslComparison(lhs, .equal, rhs)
}
/// `keyPath != value`.
public func != <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V) -> RulePredicate
{
  dslComparison(lhs, .notEqual, rhs)
}
/// `keyPath < value`.
public func < <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V) -> RulePredicate
{
  dslComparison(lhs, .lessThan, rhs)
}
/// `keyPath <= value` (in a condition; after `=>` the same operator assigns).
public func <= <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V) -> RulePredicate
{
  dslComparison(lhs, .lessThanOrEqual, rhs)
}
/// `keyPath > value`.
public func > <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V) -> RulePredicate
{
  dslComparison(lhs, .greaterThan, rhs)
}
/// `keyPath >= value`.
public func >= <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V) -> RulePredicate
{
  dslComparison(lhs, .greaterThanOrEqual, rhs)
}

// MARK: - Comparisons of two key paths

/// `keyPath = otherKeyPath`.
public func == <V, W>(lhs: KeyPath<RuleContext, V>, rhs: KeyPath<RuleContext, W>) -> RulePredicate {
  dslKeyComparison(lhs, .equal, rhs)
}
/// `keyPath != otherKeyPath`.
public func != <V, W>(lhs: KeyPath<RuleContext, V>, rhs: KeyPath<RuleContext, W>) -> RulePredicate {
  dslKeyComparison(lhs, .notEqual, rhs)
}
/// `keyPath < otherKeyPath`.
public func < <V, W>(lhs: KeyPath<RuleContext, V>, rhs: KeyPath<RuleContext, W>) -> RulePredicate {
  dslKeyComparison(lhs, .lessThan, rhs)
}
/// `keyPath > otherKeyPath`.
public func > <V, W>(lhs: KeyPath<RuleContext, V>, rhs: KeyPath<RuleContext, W>) -> RulePredicate {
  dslKeyComparison(lhs, .greaterThan, rhs)
}
/// `keyPath >= otherKeyPath`.
public func >= <V, W>(lhs: KeyPath<RuleContext, V>, rhs: KeyPath<RuleContext, W>) -> RulePredicate {
  dslKeyComparison(lhs, .greaterThanOrEqual, rhs)
}

// MARK: - Compounds

/// `a AND b`.
public func && (lhs: RulePredicate, rhs: RulePredicate) -> RulePredicate {
  RulePredicate(condition: lhs.condition.flatMap { l in rhs.condition.map { .and([l, $0]) } })
}
/// `a OR b`.
public func || (lhs: RulePredicate, rhs: RulePredicate) -> RulePredicate {
  RulePredicate(condition: lhs.condition.flatMap { l in rhs.condition.map { .or([l, $0]) } })
}
/// `NOT a`.
public prefix func ! (operand: RulePredicate) -> RulePredicate {
  RulePredicate(condition: operand.condition.map { .not($0) })
}
/// `NOT key = true`, for a boolean key path: `!\.debug`.
public prefix func ! (operand: KeyPath<RuleContext, Bool>) -> RulePredicate {
  !(operand == true)
}
/// `key = true AND b`, for a boolean key path: `\.debug && \.task == "list"`.
public func && (lhs: KeyPath<RuleContext, Bool>, rhs: RulePredicate) -> RulePredicate {
  (lhs == true) && rhs
}
/// `a AND key = true`: `\.task == "list" && \.debug`.
public func && (lhs: RulePredicate, rhs: KeyPath<RuleContext, Bool>) -> RulePredicate {
  lhs && (rhs == true)
}
/// `key = true OR b`, for a boolean key path.
public func || (lhs: KeyPath<RuleContext, Bool>, rhs: RulePredicate) -> RulePredicate {
  (lhs == true) || rhs
}
/// `a OR key = true`.
public func || (lhs: RulePredicate, rhs: KeyPath<RuleContext, Bool>) -> RulePredicate {
  lhs || (rhs == true)
}

// MARK: - Assignments and rules

func dslAssignment(
  _ keyPath: AnyKeyPath, _ value: Result<DSLAssignment.Value, DSLFailure>, _ location: RuleLocation
) -> RuleAssignment {
  let target = DSLKeyPath.recording(keyPath).flatMap { key -> Result<DSLAssignment, DSLFailure> in
    guard key.members.isEmpty else {
      return .failure(DSLFailure("a rule assigns a key, not the key path \(keyPath)"))
    }
    return value.map { DSLAssignment(key: key, value: $0) }
  }
  return RuleAssignment(target: target, location: location)
}

/// Assigns a constant: `\.nextTask <= "inspect"`.
public func <= <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V)
  -> RuleAssignment
{
  dslAssignment(lhs, .success(.constant(rhs.contextLiteral)), RuleLocation.captureCaller())
}
/// Assigns a value stored by its literal, a component by its registered name:
/// `\.component <= EditRating()`.
public func <= <V>(lhs: KeyPath<RuleContext, V>, rhs: some RuleValueConvertible) -> RuleAssignment {
  dslAssignment(lhs, .success(.constant(rhs.ruleLiteral)), RuleLocation.captureCaller())
}
/// Assigns the value of another key path, read at lookup time: `\.title <= \.object?.lastName`.
public func <= <V, W>(lhs: KeyPath<RuleContext, V>, rhs: KeyPath<RuleContext, W>) -> RuleAssignment
{
  dslAssignment(lhs, DSLKeyPath.recording(rhs).map { .keyPath($0) }, RuleLocation.captureCaller())
}

/// Joins a condition and an assignment into a rule.
public func => (lhs: RulePredicate, rhs: RuleAssignment) -> DSLRule {
  DSLRule(
    condition: lhs.condition, assignment: rhs.target, rulePriority: .normal,
    location: RuleLocation.captureCaller())
}

/// A rule whose condition is a boolean key path: `\.debug => …` means `debug = true => …`.
public func => (lhs: KeyPath<RuleContext, Bool>, rhs: RuleAssignment) -> DSLRule {
  (lhs == true) => rhs
}
/// A rule whose condition is an optional boolean key path: `\.relationship?.isToMany => …`.
public func => (lhs: KeyPath<RuleContext, Bool?>, rhs: RuleAssignment) -> DSLRule {
  (lhs == true) => rhs
}
