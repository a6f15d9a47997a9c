import Qualifiers

/// Where a qualifier's key path first crosses a to-many relationship, with flattened
/// many-to-many steps expanded through their link table (`actors.firstName` from a film is
/// `filmActors.actor.firstName`): what the SQL builder turns into an `EXISTS` subquery.
struct ToManyPath {
  /// The crossing: the to-ones before it, the to-many itself, and the steps after it.
  struct Crossing {
    /// The to-one relationships followed from the root first (joined in the outer query).
    let toOnes: [String]
    /// The to-many relationship crossed (never a flattened one: those are expanded).
    let relationship: Relationship
    /// Its destination.
    let destination: Entity
    /// The steps after it, from the destination (they may cross further to-manys).
    let rest: [String]
  }

  /// Nil when the path follows to-one relationships only.
  let crossing: Crossing?

  /// Resolves `path` from `entity` as far as its first to-many step.
  /// - Throws: when the path ends at a to-many relationship (compare one of its attributes).
  init(_ path: KVCPath, from entity: Entity, in model: Model) throws {
    let walk = KeyPathWalk(path.components, from: entity, in: model, expandingFlattened: true)
    guard case .toMany(let step) = walk.stop else {
      crossing = nil
      return
    }
    let rest = walk.rest.dropFirst()
    guard !rest.isEmpty else {
      throw DatabaseError(
        .unsupported,
        "\(path) is a to-many relationship; compare one of its attributes (like \(path).id)")
    }
    crossing = Crossing(
      toOnes: walk.steps.map(\.name), relationship: step.relationship,
      destination: step.destination, rest: Array(rest))
  }
}
