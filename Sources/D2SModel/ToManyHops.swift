/// How far a key path reaches through to-many relationships: what a server bounds, since
/// each such hop can multiply the rows a filter or an order must look at.
extension Model {
  /// The to-many relationships `path` crosses from `entity`; a many-to-many flattened
  /// through its link table (`actors` of a film) counts as one.
  public func toManyHops(_ path: some Collection<String>, from entity: Entity) -> Int {
    KeyPathWalk(path, from: entity, in: self, toMany: true).steps.count {
      $0.relationship.isToMany
    }
  }
}
