import EnvKeys

/// A predicate over key-value-coding values: the shared grammar of rule conditions and
/// database fetches (EOF/ZeeQL qualifier style).
///
/// Build compounds with ``all(_:)`` and ``any(_:)``, which flatten nested compounds of the
/// same kind, so a printed qualifier parses back to an equal value.
public indirect enum Qualifier: Hashable, Sendable {
  /// `*true*` or `*false*`.
  case constant(Bool)
  /// `keyPath OP value`; `is nil` is `= nil`, `is not nil` is `!= nil`, `in (…)` a list. The
  /// value is the database's own value type, so a qualifier D2S builds from a fetched row
  /// compares with exactly what was fetched (a blob, a double, a verbatim numeric).
  case comparison(KVCPath, ComparisonOperator, DatabaseValue)
  /// `keyPath OP keyPath`, e.g. `object.ownerId != user.id` or `entity.name in readOnlyEntityNames`.
  case keyComparison(KVCPath, ComparisonOperator, KVCPath)
  /// All must hold (two or more parts).
  case and([Qualifier])
  /// One must hold (two or more parts).
  case or([Qualifier])
  /// Negation.
  case not(Qualifier)

  /// The conjunction of `parts`, flattening nested conjunctions; one part is itself.
  public static func all(_ parts: [Qualifier]) -> Qualifier {
    let flat = parts.flatMap { part -> [Qualifier] in
      if case .and(let inner) = part { return inner }
      return [part]
    }
    if flat.isEmpty { return .constant(true) }
    return flat.count == 1 ? flat[0] : .and(flat)
  }

  /// The disjunction of `parts`, flattening nested disjunctions; one part is itself.
  public static func any(_ parts: [Qualifier]) -> Qualifier {
    let flat = parts.flatMap { part -> [Qualifier] in
      if case .or(let inner) = part { return inner }
      return [part]
    }
    if flat.isEmpty { return .constant(false) }
    return flat.count == 1 ? flat[0] : .or(flat)
  }

  /// The number of key comparisons: 1 per comparison, 0 for `*true*`/`*false*`, sums for
  /// `AND`/`OR`, and `NOT x` counts as `x`.
  public var complexity: Int {
    switch self {
    case .constant: 0
    case .comparison, .keyComparison: 1
    case .and(let parts), .or(let parts): parts.reduce(0) { $0 + $1.complexity }
    case .not(let inner): inner.complexity
    }
  }

  /// Every key path the qualifier reads, in order of appearance.
  public var keyPaths: [KVCPath] {
    switch self {
    case .constant: []
    case .comparison(let path, _, _): [path]
    case .keyComparison(let lhs, _, let rhs): [lhs, rhs]
    case .and(let parts), .or(let parts): parts.flatMap(\.keyPaths)
    case .not(let inner): inner.keyPaths
    }
  }
}

/// The comparison operators of the grammar.
public enum ComparisonOperator: String, Hashable, Sendable, CaseIterable {
  case equal = "="
  case notEqual = "!="
  case lessThan = "<"
  case lessThanOrEqual = "<="
  case greaterThan = ">"
  case greaterThanOrEqual = ">="
  case like = "like"
  case caseInsensitiveLike = "ilike"
  case `in` = "in"
}
