/// The one "did you mean" of D2S: the names closest to what was typed, for unknown keys,
/// entities, properties, components and rule labels alike.
public enum Suggestions {
  /// Up to `limit` names among `candidates` closest to `typed`, ignoring case, closest first
  /// (ties by name). A candidate that begins with what was typed is close (distance 0); any
  /// other is as far as its edit distance (insertions, deletions, substitutions and adjacent
  /// transpositions), and is left out beyond a third of the typed length (at least 2). Only
  /// the closest distance found is offered: `EditLargeStrng` suggests `EditLargeString`, not
  /// `Edit`, which is only a prefix of what was typed.
  public static func closest(to typed: String, among candidates: [String], limit: Int = 3)
    -> [String]
  {
    let lower = typed.lowercased()
    guard !lower.isEmpty else { return [] }
    let allowed = max(2, lower.count / 3)
    let scored = candidates.compactMap { name -> (name: String, distance: Int)? in
      let candidate = name.lowercased()
      if candidate.hasPrefix(lower) { return (name, 0) }
      let distance = editDistance(lower, candidate, limit: allowed)
      return distance <= allowed ? (name, distance) : nil
    }
    guard let best = scored.map(\.distance).min() else { return [] }
    var seen = Set<String>()
    return scored.filter { $0.distance == best }.map(\.name).sorted()
      .filter { seen.insert($0).inserted }.prefix(limit).map { $0 }
  }

  /// The edit distance of `a` and `b` with adjacent transpositions, giving up (`limit` + 1)
  /// once it must exceed `limit`.
  public static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
    let x = Array(a)
    let y = Array(b)
    if abs(x.count - y.count) > limit { return limit + 1 }
    guard !x.isEmpty, !y.isEmpty else { return max(x.count, y.count) }
    var previous2 = [Int](repeating: 0, count: y.count + 1)
    var previous = Array(0...y.count)
    for i in 1...x.count {
      var current = [i] + [Int](repeating: 0, count: y.count)
      for j in 1...y.count {
        let cost = x[i - 1] == y[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
          current[j] = min(current[j], previous2[j - 2] + 1)
        }
      }
      if current.min() ?? 0 > limit { return limit + 1 }
      (previous2, previous) = (previous, current)
    }
    return previous[y.count]
  }
}
