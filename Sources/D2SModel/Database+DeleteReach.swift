/// What a delete reaches beyond the row deleted: the rows its foreign keys delete or change
/// (`ON DELETE CASCADE`, `SET NULL`, `SET DEFAULT`), followed through every cascade.
extension Database {
  /// The most rows a check fetches along cascades before it answers true (it cannot tell).
  public static let deleteReachRowLimit = 10_000

  /// Whether deleting `object` would delete or change a row of an entity `hidden` names:
  /// a foreign key of a hidden entity's rows that cascades or sets NULL or a default, from
  /// the object or from any row a cascade deletes with it, however deep. True also when
  /// more than ``deleteReachRowLimit`` rows would have to be read to tell.
  /// - Throws: ``DatabaseError`` when a count or a fetch fails.
  public func deleteChangesRows(of object: DatabaseObject, hidden: (String) -> Bool) throws
    -> Bool
  {
    var leads: [String: Bool] = [:]
    var pending = [object]
    var read = 0
    while let next = pending.popLast() {
      for (relationship, destination, action) in try referring(next.entity) {
        let changes = [.cascade, .setNull, .setDefault].contains(action)
        if hidden(destination.name) {
          if changes, try countToMany(relationship.name, of: next) > 0 { return true }
          continue
        }
        guard action == .cascade,
          try mayLead(destination, to: hidden, known: &leads, visiting: [])
        else { continue }
        let rows = try fetchToMany(relationship, of: next)
        read += rows.count
        if read > Self.deleteReachRowLimit { return true }
        pending += rows
      }
    }
    return false
  }

  /// The to-many relationships of `entity` that rows refer to it by (flattened ones
  /// excluded: their link rows are a to-many of their own), each with its destination and
  /// what a delete does to its rows.
  private func referring(_ entity: Entity) throws -> [(Relationship, Entity, DeleteAction?)] {
    try entity.relationships.compactMap { relationship in
      guard relationship.isToMany, !relationship.isFlattened,
        let destination = model.entity(named: relationship.destinationName)
      else { return nil }
      let columns = relationship.joins.compactMap {
        destination.attribute(named: $0.destination)?.columnName
      }
      let action = try adaptor.deleteAction(ofForeignKey: columns, in: destination)
      return (relationship, destination, action)
    }
  }

  /// Whether deleting a row of `entity` can reach a hidden entity's rows through the
  /// model's foreign keys alone (no rows read), so that rows are fetched only along cascades
  /// that can lead there.
  private func mayLead(
    _ entity: Entity, to hidden: (String) -> Bool, known: inout [String: Bool],
    visiting: Set<String>
  ) throws -> Bool {
    if let answer = known[entity.name] { return answer }
    // A cycle of cascades: what it can reach is found from where it started.
    if visiting.contains(entity.name) { return false }
    var answer = false
    for (_, destination, action) in try referring(entity) {
      if hidden(destination.name) {
        answer = [.cascade, .setNull, .setDefault].contains(action)
      } else if action == .cascade {
        answer = try mayLead(
          destination, to: hidden, known: &known, visiting: visiting.union([entity.name]))
      }
      if answer { break }
    }
    // A false found inside a cycle may be true from elsewhere: kept only when whole.
    if answer || visiting.isEmpty { known[entity.name] = answer }
    return answer
  }
}
