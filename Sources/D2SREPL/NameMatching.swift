import D2SModel
import Qualifiers

/// Names typed by the user, matched against the model as SPEC §7 says: exactly, else without
/// regard to case when that is unique, else an error with "did you mean".
enum NameMatching {
  /// The name among `names` that `typed` means, or nil.
  static func match(_ typed: String, among names: [String]) -> String? {
    if names.contains(typed) { return typed }
    let folded = names.filter { $0.lowercased() == typed.lowercased() }
    return folded.count == 1 ? folded[0] : nil
  }

  /// Up to three names closest to `typed`: those it starts, else those the fewest typing
  /// mistakes away (at most a third of its length, and at least 2).
  static func suggestions(for typed: String, among names: [String]) -> [String] {
    let lower = typed.lowercased()
    let allowed = max(2, lower.count / 3)
    let scored = names.compactMap { name -> (String, Int)? in
      let candidate = name.lowercased()
      if candidate.hasPrefix(lower) || (lower.count >= 3 && lower.hasPrefix(candidate)) { return (name, 0) }
      let distance = editDistance(lower, candidate, limit: allowed)
      return distance <= allowed ? (name, distance) : nil
    }
    let best = scored.map(\.1).min() ?? 0
    return scored.filter { $0.1 == best }.map(\.0).sorted().prefix(3).map { $0 }
  }

  /// `message` with " (did you mean a, b?)" when there are suggestions.
  static func notFound(_ message: String, _ typed: String, among names: [String]) -> REPLError {
    let close = suggestions(for: typed, among: names)
    return REPLError(message + (close.isEmpty ? "" : " (did you mean \(close.joined(separator: ", "))?)"))
  }

  /// Levenshtein distance with adjacent transpositions, giving up (limit + 1) past `limit`.
  static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
    let x = Array(a), y = Array(b)
    if abs(x.count - y.count) > limit { return limit + 1 }
    guard !x.isEmpty, !y.isEmpty else { return max(x.count, y.count) }
    var previous2 = [Int](repeating: 0, count: y.count + 1)
    var previous = Array(0...y.count)
    for i in 1...x.count {
      var current = [i] + [Int](repeating: 0, count: y.count)
      for j in 1...y.count {
        let cost = x[i - 1] == y[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { current[j] = min(current[j], previous2[j - 2] + 1) }
      }
      if current.min() ?? 0 > limit { return limit + 1 }
      (previous2, previous) = (previous, current)
    }
    return previous[y.count]
  }
}

extension REPLSession {
  /// `path` from `entity` with each property name matched (exactly, else without regard to
  /// case): through relationships up to an attribute; what follows an attribute, and
  /// `@` operators, are left as typed.
  func matchedPath(_ path: KVCPath, from entity: Entity) throws -> KVCPath {
    var components: [String] = []
    var current: Entity? = entity
    for component in path.components {
      guard let from = current, !component.hasPrefix("@") else {
        components.append(component)
        current = nil
        continue
      }
      let name = try propertyName(component, in: from)
      components.append(name)
      current = from.relationship(named: name).flatMap { try? database.model.entity(named: $0.destinationName) }
    }
    return KVCPath(components: components)
  }

  /// `qualifier` with every key path matched against `entity`.
  func matchedQualifier(_ qualifier: Qualifier, from entity: Entity) throws -> Qualifier {
    switch qualifier {
    case .constant: qualifier
    case .comparison(let path, let op, let value): .comparison(try matchedPath(path, from: entity), op, value)
    case .keyComparison(let lhs, let op, let rhs):
      .keyComparison(try matchedPath(lhs, from: entity), op, try matchedPath(rhs, from: entity))
    case .and(let parts): .and(try parts.map { try matchedQualifier($0, from: entity) })
    case .or(let parts): .or(try parts.map { try matchedQualifier($0, from: entity) })
    case .not(let inner): .not(try matchedQualifier(inner, from: entity))
    }
  }
}
