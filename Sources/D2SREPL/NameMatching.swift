import D2SModel
import EnvKeys
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

  /// Up to three names closest to `typed` (``Suggestions``).
  static func suggestions(for typed: String, among names: [String]) -> [String] {
    Suggestions.closest(to: typed, among: names)
  }

  /// `message` with " (did you mean a, b?)" when there are suggestions.
  static func notFound(_ message: String, _ typed: String, among names: [String]) -> REPLError {
    let close = suggestions(for: typed, among: names)
    return REPLError(
      message + (close.isEmpty ? "" : " (did you mean \(close.joined(separator: ", "))?)"))
  }
}

extension REPLSession {
  /// `path` from `entity` with each property name matched (exactly, else without regard to
  /// case): through relationships up to an attribute; what follows an attribute, and
  /// `@` operators, are left as typed.
  func matchedPath(_ path: KVCPath, from entity: Entity) throws -> KVCPath {
    let named = path.components.prefix { !$0.hasPrefix("@") }
    let walk = try KeyPathWalk(
      named, from: entity, in: try database.model, toMany: true, matching: propertyName)
    var components = walk.steps.map(\.name)
    var rest = path.components.dropFirst(walk.steps.count)
    // The attribute (or relationship to an entity the model lacks) the walk stopped at.
    if let next = rest.first, !next.hasPrefix("@") {
      components.append(try propertyName(next, in: walk.owner))
      rest = rest.dropFirst()
    }
    return KVCPath(components: components + rest)
  }

  /// `qualifier` with every key path matched against `entity`.
  func matchedQualifier(_ qualifier: Qualifier, from entity: Entity) throws -> Qualifier {
    switch qualifier {
    case .constant: qualifier
    case .comparison(let path, let op, let value):
      .comparison(try matchedPath(path, from: entity), op, value)
    case .keyComparison(let lhs, let op, let rhs):
      .keyComparison(try matchedPath(lhs, from: entity), op, try matchedPath(rhs, from: entity))
    case .and(let parts): .and(try parts.map { try matchedQualifier($0, from: entity) })
    case .or(let parts): .or(try parts.map { try matchedQualifier($0, from: entity) })
    case .not(let inner): .not(try matchedQualifier(inner, from: entity))
    }
  }
}
