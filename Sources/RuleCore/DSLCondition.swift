import EnvKeys
import Qualifiers

/// A DSL rule's condition as the operators build it, before its keys are named.
indirect enum DSLCondition: Sendable {
  case constant(Bool)
  case comparison(DSLKeyPath, ComparisonOperator, DatabaseValue)
  case keyComparison(DSLKeyPath, ComparisonOperator, DSLKeyPath)
  case and([DSLCondition])
  case or([DSLCondition])
  case not(DSLCondition)

  /// The qualifier, with names from `registry`.
  func qualifier(in registry: D2SContextKVC) throws(DSLFailure) -> Qualifier {
    switch self {
    case .constant(let value): return .constant(value)
    case .comparison(let path, let op, let value):
      return .comparison(try path.path(in: registry), op, value)
    case .keyComparison(let lhs, let op, let rhs):
      return .keyComparison(try lhs.path(in: registry), op, try rhs.path(in: registry))
    case .and(let parts): return .all(try qualifiers(parts, in: registry))
    case .or(let parts): return .any(try qualifiers(parts, in: registry))
    case .not(let inner): return .not(try inner.qualifier(in: registry))
    }
  }

  private func qualifiers(_ parts: [DSLCondition], in registry: D2SContextKVC) throws(DSLFailure)
    -> [Qualifier]
  {
    var result: [Qualifier] = []
    for part in parts { result.append(try part.qualifier(in: registry)) }
    return result
  }

  /// The qualifier as printed before the rule is attached: keys by their usual names.
  func printed(in registry: D2SContextKVC?) -> Qualifier {
    switch self {
    case .constant(let value): .constant(value)
    case .comparison(let path, let op, let value):
      .comparison(path.printed(in: registry), op, value)
    case .keyComparison(let lhs, let op, let rhs):
      .keyComparison(lhs.printed(in: registry), op, rhs.printed(in: registry))
    case .and(let parts): .all(parts.map { $0.printed(in: registry) })
    case .or(let parts): .any(parts.map { $0.printed(in: registry) })
    case .not(let inner): .not(inner.printed(in: registry))
    }
  }
}
