import EnvKeys

/// The links of a many-to-many flattened through a pure link table (`Film.actors` through
/// `film_actor`): which destinations an object is linked to, and adding or removing one link
/// row, each in one transaction under the owner's lock.
extension Database {
  /// A change to the links of one object: the destination's primary key values.
  public enum LinkChange: Sendable, Equatable {
    /// Insert a link row to the destination with this key.
    case add([DatabaseValue])
    /// Delete the link row to the destination with this key.
    case remove([DatabaseValue])
  }

  /// How a flattened relationship is stored: its link entity, the link's columns that hold
  /// the owner's key and those that hold the destination's.
  public struct LinkTable: Sendable {
    /// The link entity (`FilmActor`).
    public let entity: Entity
    /// Pairs of (owner attribute, link attribute): `(filmId, filmId)`.
    public let ownerColumns: [(owner: String, link: String)]
    /// Pairs of (link attribute, destination attribute): `(actorId, actorId)`, in the order
    /// of the destination's primary key (a link's key values are the destination's key).
    public let destinationColumns: [(link: String, destination: String)]
    /// The entity the links lead to (`Actor`).
    public let destination: Entity
  }

  /// The link table of `relationshipName` on `entity`, which must be a flattened many-to-many.
  public func linkTable(_ relationshipName: String, of entity: Entity) throws -> LinkTable {
    guard let relationship = entity.relationship(named: relationshipName),
      relationship.isFlattened, relationship.definition.count == 2,
      let toLink = entity.relationship(named: relationship.definition[0]),
      let linkEntity = model.entity(named: toLink.destinationName),
      let toDestination = linkEntity.relationship(named: relationship.definition[1])
    else {
      throw DatabaseError(
        .invalidValue,
        "\(entity.name) has no many-to-many '\(relationshipName)' through a link table")
    }
    // The link's columns in the order of the destination's key, whatever order its foreign
    // key names them in: `(part_code, part_maker) REFERENCES part (code, maker)` with the key
    // `(maker, code)` is read and written as `(maker, code)`.
    guard let destination = model.entity(named: toDestination.destinationName),
      Set(toDestination.joins.map(\.destination)) == Set(destination.primaryKeyAttributeNames),
      toDestination.joins.count == destination.primaryKeyAttributeNames.count
    else {
      throw DatabaseError(
        .invalidValue,
        "\(entity.name).\(relationshipName) links by another key than \(toDestination.destinationName)'s primary key; its links are edited as rows"
      )
    }
    let keyOrder = destination.primaryKeyAttributeNames
    return LinkTable(
      entity: linkEntity,
      ownerColumns: toLink.joins.map { ($0.source, $0.destination) },
      destinationColumns: toDestination.joins.sorted {
        (keyOrder.firstIndex(of: $0.destination) ?? 0)
          < (keyOrder.firstIndex(of: $1.destination) ?? 0)
      }.map { ($0.source, $0.destination) },
      destination: destination)
  }

  /// The keys of the destinations `object` is linked to by `relationshipName`, read from the
  /// link table in key order.
  public func linkedKeys(_ relationshipName: String, of object: DatabaseObject) throws
    -> [[DatabaseValue]]
  {
    let link = try linkTable(relationshipName, of: object.entity)
    return try readLinks(link, of: object, locking: false)
  }

  /// Adds or removes one link of `object`, in one transaction that first locks the owner's
  /// row and reads its links again: when `expecting` is given (the keys the user saw) and the
  /// links differ from it, nothing changes and the error is a `conflict`. Adding a link that
  /// exists, or removing one that does not, is a `conflict` too; adding one to a destination
  /// that does not exist is `notFound`. The link row is inserted as a save inserts (a NOT NULL
  /// timestamp without a default gets now).
  public func changeLinks(
    _ relationshipName: String, of object: DatabaseObject, _ change: LinkChange,
    expecting: [[DatabaseValue]]? = nil, options: SaveOptions = SaveOptions()
  ) throws {
    let link = try linkTable(relationshipName, of: object.entity)
    guard !link.entity.isReadOnly else {
      throw DatabaseError(.readOnly, "\(link.entity.name) is read-only; no link is changed")
    }
    try requireWritable("no link was changed")
    guard !object.isNew else {
      throw DatabaseError(
        .invalidValue, "save the new \(object.entity.name) before linking it to others")
    }
    try reportingNothingSaved {
      try throwFailedRead()
      try adaptor.transaction {
        try lockOwner(object)
        let current = try readLinks(link, of: object, locking: true)
        if let expecting, Set(expecting) != Set(current) {
          throw DatabaseError(
            .conflict,
            "the \(relationshipName) of \(object.entity.name) \(object.primaryKeyDescription) were changed meanwhile; nothing was changed"
          )
        }
        switch change {
        case .add(let key):
          guard !current.contains(key) else {
            throw DatabaseError(.conflict, "already linked; nothing was changed")
          }
          try insertLink(link, of: object, to: key, relationshipName, options: options)
        case .remove(let key):
          guard current.contains(key) else {
            throw DatabaseError(.conflict, "not linked; nothing was changed")
          }
          try deleteLink(link, of: object, to: key)
        }
      }
    }
  }

  /// Locks the owner's row until the transaction ends (PostgreSQL's `FOR UPDATE`; SQLite's
  /// transaction holds the write lock): two link changes of one object never interleave.
  /// A row gone meanwhile is a conflict.
  private func lockOwner(_ object: DatabaseObject) throws {
    let entity = object.entity
    let keys = entity.primaryKeyAttributes
    var select = SQLSelect(
      keys.map { .identifier($0.columnName) },
      from: SQLSource(.table(entity.externalName, schema: entity.schema)))
    select.conditions = zip(keys, object.primaryKeyValues).map { attribute, value in
      .compare(
        .identifier(attribute.columnName), .equal, .bind(adaptor.encode(value, for: attribute)))
    }
    select.locksRows = true
    var found = false
    try adaptor.query(adaptor.dialect.statement(select), columns: keys) { _ in found = true }
    guard found else {
      throw DatabaseError(
        .conflict,
        "\(entity.name) \(object.primaryKeyDescription) was deleted meanwhile; nothing was changed")
    }
  }

  /// The destination keys of `object`'s link rows.
  private func readLinks(_ link: LinkTable, of object: DatabaseObject, locking: Bool) throws
    -> [[DatabaseValue]]
  {
    let columns = try link.destinationColumns.map { try attribute($0.link, of: link.entity) }
    let destinationEntity = link.destination
    let keyAttributes = try link.destinationColumns.map {
      try attribute($0.destination, of: destinationEntity)
    }
    var select = SQLSelect(
      columns.map { .identifier($0.columnName) },
      from: SQLSource(.table(link.entity.externalName, schema: link.entity.schema)))
    select.conditions = try ownerConditions(link, of: object)
    select.orderBy = columns.map { SQLOrdering(.identifier($0.columnName)) }
    select.locksRows = locking
    var keys: [[DatabaseValue]] = []
    try adaptor.query(adaptor.dialect.statement(select), columns: columns) { row in
      // Read as the link's columns, compared as the destination's key (the same types).
      keys.append(
        zip(row, keyAttributes).map { value, attribute in
          (try? DatabaseValue.coerce(value, to: attribute)) ?? value
        })
    }
    return keys
  }

  /// `"film_id" = ?` for each of the link's columns that hold the owner's key.
  private func ownerConditions(_ link: LinkTable, of object: DatabaseObject) throws
    -> [SQLExpression]
  {
    try link.ownerColumns.map { owner, linkName in
      let column = try attribute(linkName, of: link.entity)
      let value = object.databaseValue(forAttribute: owner) ?? .null
      return .compare(
        .identifier(column.columnName), .equal, .bind(adaptor.encode(value, for: column)))
    }
  }

  private func attribute(_ name: String, of entity: Entity) throws -> Attribute {
    guard let attribute = entity.attribute(named: name) else {
      throw DatabaseError(.invalidValue, "\(entity.name) has no attribute '\(name)'")
    }
    return attribute
  }

  private func insertLink(
    _ link: LinkTable, of object: DatabaseObject, to key: [DatabaseValue],
    _ relationshipName: String, options: SaveOptions
  ) throws {
    let destination = link.destination
    guard key.count == destination.primaryKeyAttributes.count,
      try fetchObject(destination.name, primaryKey: key) != nil
    else {
      throw DatabaseError(
        .notFound,
        "no \(destination.name) with key \(key.map(\.description).joined(separator: ",")); nothing was changed"
      )
    }
    let row = DatabaseObject(entity: link.entity, database: self)
    for (owner, linkName) in link.ownerColumns {
      try row.setValue(object.databaseValue(forAttribute: owner) ?? .null, forAttribute: linkName)
    }
    for ((linkName, _), value) in zip(link.destinationColumns, key) {
      try row.setValue(value, forAttribute: linkName)
    }
    try save(row, options: options)
  }

  private func deleteLink(_ link: LinkTable, of object: DatabaseObject, to key: [DatabaseValue])
    throws
  {
    var conditions = try ownerConditions(link, of: object)
    for ((linkName, _), value) in zip(link.destinationColumns, key) {
      let column = try attribute(linkName, of: link.entity)
      conditions.append(
        .compare(
          .identifier(column.columnName), .equal, .bind(adaptor.encode(value, for: column))))
    }
    let statement = adaptor.dialect.statement(
      SQLDelete(
        from: .table(link.entity.externalName, schema: link.entity.schema), where: conditions))
    let count = try adaptor.execute(statement)
    guard count == 1 else {
      throw DatabaseError(.conflict, "\(count) link rows matched; nothing was changed")
    }
  }
}
