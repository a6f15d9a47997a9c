import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

// The Swift rule DSL on attribute value types, by name as rule text writes them:
// `\.attribute?.valueType == "String"` is `attribute.valueType = 'String'`, like
// `\.attribute?.valueType == .string`.

/// `attribute.valueType = 'NAME'`; a name that is no value type is the rule's failure,
/// reported when the model is attached.
public func == (lhs: KeyPath<RuleContext, Attribute.ValueType?>, rhs: String) -> RulePredicate {
  valueTypeComparison(lhs, .equal, rhs)
}

/// `attribute.valueType != 'NAME'`; a name that is no value type is the rule's failure.
public func != (lhs: KeyPath<RuleContext, Attribute.ValueType?>, rhs: String) -> RulePredicate {
  valueTypeComparison(lhs, .notEqual, rhs)
}

private func valueTypeComparison(
  _ keyPath: KeyPath<RuleContext, Attribute.ValueType?>, _ op: ComparisonOperator, _ name: String
) -> RulePredicate {
  guard let type = Attribute.ValueType(rawValue: name) else {
    let names = Attribute.ValueType.allCases.map { "'\($0.rawValue)'" }.joined(separator: ", ")
    return .failure("'\(name)' is not a value type (use \(names))")
  }
  return .comparison(keyPath, op, type.contextLiteral)
}
