import EnvKeys
import Qualifiers

// The Swift rule DSL: type-checked rules that become exactly the rules of rule text.
//
//     let rules: RuleModel = [
//       \.propertyKey == "rating" && \.task == "edit" => \.component <= EditRating(),
//       (\.task == "list" => \.nextTask <= "inspect").priority(.low),
//     ]
//
// Operators record keys by identity; names come from the registry of the engine the model is
// attached to (see `RuleModel.attach(to:)`). The operators live in RuleDSL+Operators.swift.

precedencegroup RuleArrowPrecedence {
  associativity: left
  lowerThan: LogicalDisjunctionPrecedence
  higherThan: AssignmentPrecedence
}

infix operator => : RuleArrowPrecedence

/// A value a DSL rule can assign by value and that rule text names by a literal: a component
/// is stored as its registered name (`EditRating()` as `'EditRating'`).
public protocol RuleValueConvertible {
  /// The literal rule text would use for this value.
  var ruleLiteral: Literal { get }
}

/// A DSL condition: `\.task == "edit"`, `\.entity?.name == "Actor" && !\.debug`.
public struct RulePredicate: Sendable {
  let condition: Result<DSLCondition, DSLFailure>

  /// `keyPath OP literal`, for DSL operators defined outside RuleCore. A dictionary, which no
  /// condition compares with, is a failure the model records.
  public static func comparison<V>(
    _ keyPath: KeyPath<RuleContext, V>, _ op: ComparisonOperator, _ literal: Literal
  ) -> RulePredicate {
    guard let value = DatabaseValue(literal: literal) else {
      return .failure("a condition cannot compare with a dictionary (\(literal))")
    }
    return comparison(keyPath, op, value)
  }

  /// `keyPath OP value`, for DSL operators defined outside RuleCore.
  public static func comparison<V>(
    _ keyPath: KeyPath<RuleContext, V>, _ op: ComparisonOperator, _ value: DatabaseValue
  ) -> RulePredicate {
    RulePredicate(condition: DSLKeyPath.recording(keyPath).map { .comparison($0, op, value) })
  }

  /// A condition Swift's types could not reject: the model records `reason`, and attaching
  /// the model to an engine throws it with the rule's place.
  public static func failure(_ reason: String) -> RulePredicate {
    RulePredicate(condition: .failure(DSLFailure(reason)))
  }
}

/// A DSL assignment, `\.key <= value`; alone in a model it is an unconditional rule.
public struct RuleAssignment: Sendable {
  let target: Result<DSLAssignment, DSLFailure>
  let location: RuleLocation
}

/// What a DSL assignment assigns, before its keys are named.
struct DSLAssignment: Sendable {
  enum Value: Sendable {
    case constant(Literal)
    case keyPath(DSLKeyPath)
  }
  let key: DSLKeyPath
  let value: Value

  /// The value as printed before the rule is attached.
  func printedValue(in registry: D2SContextKVC?) -> RuleValue {
    switch value {
    case .constant(let literal): .constant(literal)
    case .keyPath(let path): .keyPath(path.printed(in: registry))
    }
  }
}

/// A rule written in Swift. A model holds it until the model is attached to an engine, which
/// names its keys from the engine's registry and makes it a ``Rule`` (or reports why it
/// cannot, with the rule's ``location``).
public struct DSLRule: Sendable, RuleModelElement, CustomStringConvertible {
  let condition: Result<DSLCondition, DSLFailure>
  let assignment: Result<DSLAssignment, DSLFailure>
  let rulePriority: Rule.Priority
  /// Where the rule is written.
  public let location: RuleLocation

  /// The same rule at another priority: `(\.task == "list" => \.nextTask <= "inspect").priority(.low)`.
  public func priority(_ priority: Rule.Priority, file: String = #filePath, line: Int = #line)
    -> DSLRule
  {
    DSLRule(
      condition: condition, assignment: assignment, rulePriority: priority,
      location: RuleLocation(file: file, line: line))
  }

  /// The rule with its keys named by `registry`.
  func rule(in registry: D2SContextKVC) throws(DSLFailure) -> Rule {
    let qualifier = try condition.get().qualifier(in: registry)
    let assignment = try assignment.get()
    guard let key = registry.key(named: try assignment.key.path(in: registry).first) else {
      throw DSLFailure(
        "the key \(assignment.key.key.typeName) is not exposed in this engine's registry")
    }
    let value: RuleValue
    switch assignment.value {
    case .constant(let literal): value = .constant(literal)
    case .keyPath(let path): value = .keyPath(try path.path(in: registry))
    }
    do {
      return try Rule(
        predicate: qualifier, key: key, value: value, priority: rulePriority, location: location)
    } catch {
      throw DSLFailure(error.description)
    }
  }

  /// Adds the rule to `model`, which holds it until attached.
  public func add(to model: RuleModel) { model.add(self) }

  /// The rule as text, keys named by their usual names (``printed(in:)`` with a registry).
  public var description: String { printed(in: nil) }

  /// The rule as text, keys named by `registry` where it exposes them.
  func printed(in registry: D2SContextKVC?) -> String {
    let predicate = (try? condition.get())?.printed(in: registry)
    let target = try? assignment.get()
    guard let predicate, let target else {
      return "<a rule that cannot be read: \(Self.reason(condition, assignment))>"
    }
    return Rule.text(
      predicate: predicate, keyName: target.key.printed(in: registry).description,
      value: target.printedValue(in: registry), priority: rulePriority)
  }

  private static func reason(
    _ condition: Result<DSLCondition, DSLFailure>, _ assignment: Result<DSLAssignment, DSLFailure>
  ) -> String {
    if case .failure(let failure) = condition { return failure.reason }
    if case .failure(let failure) = assignment { return failure.reason }
    return "unknown"
  }
}

extension RuleAssignment: RuleModelElement {
  /// Adds the assignment as an unconditional rule.
  public func add(to model: RuleModel) {
    DSLRule(
      condition: .success(.constant(true)), assignment: target, rulePriority: .normal,
      location: location
    )
    .add(to: model)
  }
}
