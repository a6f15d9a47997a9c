/// Many-to-many relationships flattened through pure link tables (`Film.actors` through
/// `film_actor`).
extension ModelBuilder {
  /// One to-one of a table and the to-many that leads back to it from its destination.
  struct LinkEnd {
    /// The destination's draft.
    let destination: Int
    /// The to-one's name on the link (`actor`).
    let toOneName: String
    /// The to-one's source attributes on the link (`actorId`).
    let columns: [String]
    /// The inverse to-many's name on the destination (`filmActors`).
    let inverseName: String
  }

  /// Whether `draft` is a pure link table between `ends`: its primary key is exactly the two
  /// foreign keys, and its other columns are at most timestamps (`last_update`).
  static func isPureLink(_ draft: Draft, _ ends: [LinkEnd]) -> Bool {
    guard ends.count == 2 else { return false }
    let key = Set(draft.table.primaryKey.compactMap { draft.columnToAttribute[$0] })
    let first = Set(ends[0].columns)
    let second = Set(ends[1].columns)
    guard !key.isEmpty, first.isDisjoint(with: second), first.union(second) == key else {
      return false
    }
    return draft.attributes.allSatisfy { key.contains($0.name) || $0.valueType == .date }
  }

  /// Gives both ends of every pure link table a flattened to-many named by the plural of the
  /// other end (`Film.actors`, `Actor.films`), unique on its entity: the plural, then `As` +
  /// the link's to-one (capitalised), then a number.
  static func addFlattenedRelationships(_ linkEnds: [Int: [LinkEnd]], to drafts: inout [Draft]) {
    for (link, ends) in linkEnds.sorted(by: { $0.key < $1.key })
    where isPureLink(drafts[link], ends) {
      // Each side: (its entity, the end it starts from, the end it leads to).
      let sides = [
        (ends[0].destination, ends[0], ends[1]), (ends[1].destination, ends[1], ends[0]),
      ]
      var names: [String] = []
      for (owner, _, target) in sides {
        let plural = Fancyfier.plural(Fancyfier.lowerFirst(drafts[target.destination].entityName))
        var name = plural
        if drafts[owner].taken.contains(name) {
          name = Fancyfier.unique(
            plural + "As" + Fancyfier.capitalized(target.toOneName), in: drafts[owner].taken)
        }
        drafts[owner].taken.insert(name)
        names.append(name)
      }
      for (position, (owner, start, target)) in sides.enumerated() {
        drafts[owner].relationships.append(
          Relationship(
            name: names[position], destinationName: drafts[target.destination].entityName,
            joins: [], isToMany: true,
            isMandatory: false, definition: [start.inverseName, target.toOneName],
            inverseName: names[1 - position]))
      }
    }
  }
}
