import EnvKeys
import Qualifiers

// The Swift rule DSL: type-checked rules that compile to exactly the rules of rule text.
//
//     let rules: RuleModel = [
//       \.propertyKey == "rating" && \.task == "edit" => \.component <= EditRating(),
//       (\.task == "list" => \.nextTask <= "inspect").priority(.low),
//     ]
//
// Key names come from the shared registry (`D2SContextKVC.shared`).

precedencegroup RuleArrowPrecedence {
  associativity: left
  lowerThan: LogicalDisjunctionPrecedence
  higherThan: AssignmentPrecedence
}

infix operator => : RuleArrowPrecedence

/// A value a DSL rule can assign by value and that rule text names by a literal: a component
/// is stored as its registered name.
public protocol RuleValueConvertible {
  /// The literal rule text would use for this value.
  var ruleLiteral: Literal { get }
}

/// A DSL condition.
public struct RulePredicate: Sendable {
  let qualifier: Result<Qualifier, RuleDSLError>
}

/// A DSL assignment: `\.key <= value`.
public struct RuleAssignment: Sendable {
  let target: Result<(ExposedKey, RuleValue), RuleDSLError>
}

/// A DSL rule; added to a model it becomes a ``Rule``, or a logged error when it cannot.
public struct DSLRule: Sendable, RuleModelElement {
  let predicate: RulePredicate
  let assignment: RuleAssignment
  let rulePriority: Rule.Priority

  /// The same rule at another priority.
  public func priority(_ priority: Rule.Priority) -> DSLRule {
    DSLRule(predicate: predicate, assignment: assignment, rulePriority: priority)
  }

  /// The rule, or why it cannot be made.
  public func makeRule() throws -> Rule {
    let qualifier = try predicate.qualifier.get()
    let (key, value) = try assignment.target.get()
    return try Rule(predicate: qualifier, key: key, value: value, priority: rulePriority)
  }

  public func add(to model: RuleModel) {
    do {
      model.add(try makeRule())
    } catch {
      ruleLogger.error("rule not added: \(error)")
    }
  }
}

extension RuleAssignment: RuleModelElement {
  /// An unconditional rule.
  public func add(to model: RuleModel) {
    DSLRule(predicate: RulePredicate(qualifier: .success(.constant(true))), assignment: self, rulePriority: .normal)
      .add(to: model)
  }
}

func dslPath(_ keyPath: AnyKeyPath) -> Result<KVCPath, RuleDSLError> {
  Result { () throws(RuleDSLError) in try KeyPathRecorder.path(of: keyPath, registry: .shared) }
}

func dslComparison<V: ContextLiteralConvertible>(
  _ keyPath: KeyPath<RuleContext, V>, _ op: ComparisonOperator, _ value: V
) -> RulePredicate {
  RulePredicate(qualifier: dslPath(keyPath).map { .comparison($0, op, value.contextLiteral) })
}

func dslKeyComparison<V, W>(
  _ lhs: KeyPath<RuleContext, V>, _ op: ComparisonOperator, _ rhs: KeyPath<RuleContext, W>
) -> RulePredicate {
  RulePredicate(qualifier: dslPath(lhs).flatMap { l in dslPath(rhs).map { .keyComparison(l, op, $0) } })
}

// MARK: - Comparisons

public func == <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V) -> RulePredicate {
  dslComparison(lhs, .equal, rhs)
}
public func != <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V) -> RulePredicate {
  dslComparison(lhs, .notEqual, rhs)
}
public func < <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V) -> RulePredicate {
  dslComparison(lhs, .lessThan, rhs)
}
public func <= <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V) -> RulePredicate {
  dslComparison(lhs, .lessThanOrEqual, rhs)
}
public func > <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V) -> RulePredicate {
  dslComparison(lhs, .greaterThan, rhs)
}
public func >= <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V) -> RulePredicate {
  dslComparison(lhs, .greaterThanOrEqual, rhs)
}
public func == <V, W>(lhs: KeyPath<RuleContext, V>, rhs: KeyPath<RuleContext, W>) -> RulePredicate {
  dslKeyComparison(lhs, .equal, rhs)
}
public func != <V, W>(lhs: KeyPath<RuleContext, V>, rhs: KeyPath<RuleContext, W>) -> RulePredicate {
  dslKeyComparison(lhs, .notEqual, rhs)
}
public func < <V, W>(lhs: KeyPath<RuleContext, V>, rhs: KeyPath<RuleContext, W>) -> RulePredicate {
  dslKeyComparison(lhs, .lessThan, rhs)
}
public func > <V, W>(lhs: KeyPath<RuleContext, V>, rhs: KeyPath<RuleContext, W>) -> RulePredicate {
  dslKeyComparison(lhs, .greaterThan, rhs)
}
public func >= <V, W>(lhs: KeyPath<RuleContext, V>, rhs: KeyPath<RuleContext, W>) -> RulePredicate {
  dslKeyComparison(lhs, .greaterThanOrEqual, rhs)
}

// MARK: - Compounds

public func && (lhs: RulePredicate, rhs: RulePredicate) -> RulePredicate {
  RulePredicate(qualifier: lhs.qualifier.flatMap { l in rhs.qualifier.map { .all([l, $0]) } })
}
public func || (lhs: RulePredicate, rhs: RulePredicate) -> RulePredicate {
  RulePredicate(qualifier: lhs.qualifier.flatMap { l in rhs.qualifier.map { .any([l, $0]) } })
}
public prefix func ! (operand: RulePredicate) -> RulePredicate {
  RulePredicate(qualifier: operand.qualifier.map { .not($0) })
}

/// A boolean key path as a condition: `\.debug` means `debug = true`.
public prefix func ! (operand: KeyPath<RuleContext, Bool>) -> RulePredicate {
  !(operand == true)
}

// MARK: - Assignments and rules

func dslAssignment(_ keyPath: AnyKeyPath, _ value: Result<RuleValue, RuleDSLError>) -> RuleAssignment {
  RuleAssignment(
    target: dslPath(keyPath).flatMap { path in
      guard path.components.count == 1, let key = D2SContextKVC.shared.key(named: path.first) else {
        return .failure(RuleDSLError(message: "a rule assigns a key, not the key path \(path)"))
      }
      return value.map { (key, $0) }
    })
}

/// Assigns a constant.
public func <= <V: ContextLiteralConvertible>(lhs: KeyPath<RuleContext, V>, rhs: V) -> RuleAssignment {
  dslAssignment(lhs, .success(.constant(rhs.contextLiteral)))
}
/// Assigns a value stored by its literal (a component by its registered name).
public func <= <V>(lhs: KeyPath<RuleContext, V>, rhs: some RuleValueConvertible) -> RuleAssignment {
  dslAssignment(lhs, .success(.constant(rhs.ruleLiteral)))
}
/// Assigns the value of another key path, evaluated at lookup time.
public func <= <V, W>(lhs: KeyPath<RuleContext, V>, rhs: KeyPath<RuleContext, W>) -> RuleAssignment {
  dslAssignment(lhs, dslPath(rhs).map { .keyPath($0) })
}

/// Joins a condition and an assignment into a rule.
public func => (lhs: RulePredicate, rhs: RuleAssignment) -> DSLRule {
  DSLRule(predicate: lhs, assignment: rhs, rulePriority: .normal)
}

extension RuleModelElement where Self == DSLRule {}
