/// What a delete reaches beyond the row deleted: the rows its foreign keys delete or change
/// (`ON DELETE CASCADE`, `SET NULL`, `SET DEFAULT`), followed through every cascade.
extension Database {
  /// The most rows a check fetches along cascades before it answers true (it cannot tell).
  public static let deleteReachRowLimit = 10_000

  /// Whether deleting `object` would delete or change a row of an entity `hidden` names:
  /// a foreign key of a hidden entity's rows that cascades or sets NULL or a default, from
  /// the object or from any row a cascade deletes with it, however deep. Rows are read only
  /// along cascades that can lead to a hidden entity (found from the catalog alone), each
  /// once (a cycle of cascades ends). True also when more than ``deleteReachRowLimit`` rows
  /// would have to be read to tell.
  /// - Throws: ``DatabaseError`` when a count or a fetch fails.
  public func deleteChangesRows(of object: DatabaseObject, hidden: (String) -> Bool) throws
    -> Bool
  {
    var referring = ReferringCache()
    let leading = try entitiesLeading(from: object.entity, to: hidden, referring: &referring)
    guard leading.contains(object.entity.name) else { return false }
    var pending = [object]
    var seen: Set<[String]> = [Self.rowIdentity(object)]
    while let next = pending.popLast() {
      for (relationship, destination, action) in try referring.of(next.entity, in: self) {
        if hidden(destination.name) {
          if [.cascade, .setNull, .setDefault].contains(action),
            try countToMany(relationship.name, of: next) > 0
          {
            return true
          }
          continue
        }
        guard action == .cascade, leading.contains(destination.name) else { continue }
        for row in try fetchToMany(relationship, of: next)
        where seen.insert(Self.rowIdentity(row)).inserted {
          guard seen.count <= Self.deleteReachRowLimit else { return true }
          pending.append(row)
        }
      }
    }
    return false
  }

  /// A row's entity and key, as text.
  private static func rowIdentity(_ object: DatabaseObject) -> [String] {
    [object.entity.name] + object.primaryKeyValues.map(\.qualifierText)
  }

  /// The entities, among those a delete of `root` can cascade to, from whose rows a delete
  /// can reach a hidden entity's rows: a fixed point over the catalog, no row read.
  private func entitiesLeading(
    from root: Entity, to hidden: (String) -> Bool, referring: inout ReferringCache
  ) throws -> Set<String> {
    // The entities cascades can reach from the root, and each one's referring to-manys.
    var reachable: [String: Entity] = [root.name: root]
    var queue = [root]
    while let entity = queue.popLast() {
      for (_, destination, action) in try referring.of(entity, in: self)
      where action == .cascade && !hidden(destination.name) && reachable[destination.name] == nil {
        reachable[destination.name] = destination
        queue.append(destination)
      }
    }
    var leading: Set<String> = []
    var changed = true
    while changed {
      changed = false
      for (name, entity) in reachable where !leading.contains(name) {
        let leads = try referring.of(entity, in: self).contains { _, destination, action in
          hidden(destination.name)
            ? [.cascade, .setNull, .setDefault].contains(action)
            : action == .cascade && leading.contains(destination.name)
        }
        if leads {
          leading.insert(name)
          changed = true
        }
      }
    }
    return leading
  }
}

/// The to-many relationships rows refer to an entity by (flattened ones excluded: their
/// link rows are a to-many of their own), each with its destination and what a delete does
/// to its rows: read from the catalog once per entity.
private struct ReferringCache {
  private var known: [String: [(Relationship, Entity, DeleteAction?)]] = [:]

  mutating func of(_ entity: Entity, in database: Database) throws
    -> [(Relationship, Entity, DeleteAction?)]
  {
    if let found = known[entity.name] { return found }
    let found = try entity.relationships.compactMap {
      relationship -> (Relationship, Entity, DeleteAction?)? in
      guard relationship.isToMany, !relationship.isFlattened,
        let destination = database.model.entity(named: relationship.destinationName)
      else { return nil }
      let columns = relationship.joins.compactMap {
        destination.attribute(named: $0.destination)?.columnName
      }
      let action = try database.adaptor.deleteAction(ofForeignKey: columns, in: destination)
      return (relationship, destination, action)
    }
    known[entity.name] = found
    return found
  }
}
