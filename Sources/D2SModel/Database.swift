import EnvKeys
import Foundation
import Qualifiers
import Synchronization

/// An open database: its adaptor and the model read from its catalog. Fetches objects (with
/// batched prefetching of to-one key paths), follows relationships, and saves changes in
/// transactions with optimistic locking.
public final class Database: KeyValueCoding, CustomStringConvertible, RuleCacheFingerprinting,
  @unchecked Sendable
{
  /// The connection statements run on.
  public let adaptor: any DatabaseAdaptor
  /// This connection, for rule caches: answers that read the database (its name, its model,
  /// whether it is read-only) are kept per connection.
  public let ruleCacheIdentity = RuleCacheIdentity.next()
  /// Whether the database may be written: an adaptor whose ``readOnlyReason`` changes makes
  /// the answers read before the change stale.
  public var ruleCacheVersion: Int { readOnlyReason == nil ? 0 : 1 }
  /// The database's entities, read from its catalog once.
  public let model: Model
  /// The database's name (`sakila`).
  public var name: String { adaptor.databaseName }

  /// The second connection counts run on.
  let side = SideConnection()

  /// The values each column allows, by entity and attribute name, as read
  /// (``allowedValues(of:in:)``).
  let allowed = Mutex<[String: [String]?]>([:])

  /// The rows statements made for lists, kept by what they were made from.
  let rowsStatements = RowsStatements()

  /// The statements fetching objects by key, kept by entity and key attributes.
  let keyedStatements = KeyedStatements()

  /// What pages on this connection keep for the next page (a list's columns).
  public let keptObjects = KeptObjects()

  /// The first relationship read through key-value coding that the database could not
  /// answer since it was last thrown (``throwFailedRead()``).
  let failedRead = Mutex<DatabaseError?>(nil)

  /// The most values bound in one batched prefetch statement.
  static let batchSize = 5_000

  /// Opens the database behind `adaptor` and reads its model.
  public init(adaptor: any DatabaseAdaptor) throws {
    Self.declareConformances()
    self.adaptor = adaptor
    self.model = ModelBuilder.model(from: try adaptor.readCatalog())
  }

  /// Another connection to a database already open with `model`: its catalog is not read
  /// again, and rule answers about its entities are shared (a server's pool of readers).
  public init(adaptor: any DatabaseAdaptor, model: Model) {
    Self.declareConformances()
    self.adaptor = adaptor
    self.model = model
  }

  /// What rules need to know of the model's types, said so that no search of the runtime's
  /// conformance tables finds it out: the database, entities, objects and the model are read
  /// by key and fingerprinted by identity.
  private static func declareConformances() {
    DeclaredConformances.declare(Database.self)
    DeclaredConformances.declare(Entity.self)
    DeclaredConformances.declare(DatabaseObject.self)
    DeclaredConformances.declare(Model.self)
  }

  /// The database by name for rules: `name` and `model`.
  public func value(forKey key: String) -> Any? {
    switch key {
    case "name": name
    case "model": model
    default: nil
    }
  }

  /// The database's name.
  public var description: String { name }

  /// Why this database cannot be written (see ``DatabaseAdaptor/readOnlyReason``), or nil.
  public var readOnlyReason: String? { adaptor.readOnlyReason }

  /// Throws a `readOnly` error naming the reason when the database cannot be written.
  public func requireWritable(_ what: String) throws {
    if let reason = readOnlyReason {
      throw DatabaseError(.readOnly, "\(name) is read-only (\(reason)): \(what)")
    }
  }

  /// The entity named `name`, with its columns: a statement is never made without them (they
  /// cannot be read while another program holds the database past the busy timeout).
  func entity(_ name: String) throws -> Entity {
    guard let entity = model.lookupEntity(name) else {
      throw DatabaseError(.invalidValue, "no entity named \(name)")
    }
    try entity.requireDetails()
    return entity
  }

  /// Throws what making `qualifier`'s SQL for `entityName` throws, running nothing: a value
  /// that does not fit its column (`length >= 1.5`), an operator that does not apply to it
  /// (``DatabaseError/Code/invalidValue``, ``DatabaseError/Code/unsupported``).
  public func check(_ qualifier: Qualifier, of entityName: String) throws {
    var builder = builder(for: try entity(entityName))
    _ = try builder.sql(for: qualifier)
  }

  func builder(for entity: Entity) -> SQLBuilder {
    let adaptor = self.adaptor
    return SQLBuilder(
      dialect: adaptor.dialect, model: model, entity: entity,
      encode: { adaptor.encode($0, for: $1) })
  }

  // MARK: - Fetching

  /// The objects `specification` selects, with its prefetch key paths' objects attached.
  public func fetch(_ specification: FetchSpecification) throws -> [DatabaseObject] {
    let entity = try entity(specification.entityName)
    var builder = builder(for: entity)
    let objects = try self.objects(of: entity, from: try builder.select(specification))
    try prefetch(specification.prefetchKeyPaths, for: objects)
    return objects
  }

  /// The objects of `entity` a statement selecting its attributes returns.
  func objects(of entity: Entity, from statement: SQLStatement) throws -> [DatabaseObject] {
    var objects: [DatabaseObject] = []
    try adaptor.query(statement, columns: entity.attributes) { row in
      try Interruption.check()
      objects.append(DatabaseObject(entity: entity, database: self, values: row))
    }
    return objects
  }

  /// The number of objects `specification` selects (ignoring limit and offset).
  public func count(_ specification: FetchSpecification) throws -> Int {
    var count = 0
    try adaptor.query(try countStatement(specification), columns: [nil]) { row in
      count = row.first?.intValue ?? 0
    }
    return count
  }

  /// The statement ``count(_:)`` runs.
  func countStatement(_ specification: FetchSpecification) throws -> SQLStatement {
    guard let key = RowsStatements.countKey(specification) else {
      return try makeCountStatement(specification)
    }
    return try rowsStatements.statement(
      key, attributes: nil, make: { (try makeCountStatement(specification), []) },
      keeps: { (try? entity(specification.entityName))?.hasDetails == true }
    ).0
  }

  /// ``countStatement(_:)`` made anew.
  func makeCountStatement(_ specification: FetchSpecification) throws -> SQLStatement {
    var builder = builder(for: try entity(specification.entityName))
    return try builder.select(specification, count: true)
  }

  /// The object with primary key `values` (in key order), or nil.
  public func fetchObject(_ entityName: String, primaryKey values: [DatabaseValue]) throws
    -> DatabaseObject?
  {
    let entity = try entity(entityName)
    let keys = entity.primaryKeyAttributeNames
    guard !keys.isEmpty else {
      throw DatabaseError(
        .unsupported, "\(entity.name) has no primary key, so single objects cannot be fetched")
    }
    guard keys.count == values.count else {
      throw DatabaseError(
        .invalidValue,
        "\(entity.name) has a primary key of \(keys.count) values (\(keys.joined(separator: ", "))), not \(values.count)"
      )
    }
    return try fetch(entity, where: keys, equal: values).first
  }

  func qualifier(_ keys: [String], _ values: [DatabaseValue], in entity: Entity) throws -> Qualifier
  {
    .all(
      zip(keys, values).map { key, value in
        .comparison(KVCPath(key), .equal, value)
      })
  }

  /// Fetches the to-one relationship prefixes of `keyPaths` for `objects`: one statement per
  /// relationship (per batch of keys), never one per row.
  public func prefetch(_ keyPaths: [String], for objects: [DatabaseObject]) throws {
    guard let first = objects.first else { return }
    var chains = Set<[String]>()
    for keyPath in keyPaths {
      let walk = KeyPathWalk(
        keyPath.split(separator: ".").map(String.init), from: first.entity, in: model)
      var chain: [String] = []
      for step in walk.steps {
        chain.append(step.name)
        chains.insert(chain)
      }
    }
    // Shorter chains first, so `inventory` is loaded before `inventory.film`.
    var levels: [[String]: [DatabaseObject]] = [[]: objects]
    for chain in chains.sorted(by: {
      $0.count < $1.count || ($0.count == $1.count && $0.lexicographicallyPrecedes($1))
    }) {
      guard let parents = levels[Array(chain.dropLast())], let name = chain.last else { continue }
      levels[chain] = try prefetch(name, for: parents)
    }
  }

  /// The objects of `entity` whose `attributes` hold one of `keys` (each key one value per
  /// attribute), by those values: one statement per batch of keys, never one per key.
  public func objects(
    of entity: Entity, matching attributes: [String], in keys: [[DatabaseValue]]
  ) throws -> [[DatabaseValue]: DatabaseObject] {
    let indexes = attributes.compactMap { entity.attributeIndex(named: $0) }
    guard !attributes.isEmpty, indexes.count == attributes.count else { return [:] }
    var found: [[DatabaseValue]: DatabaseObject] = [:]
    found.reserveCapacity(keys.count)
    let perStatement = max(1, Database.batchSize / attributes.count)
    for start in stride(from: 0, to: keys.count, by: perStatement) {
      let batch = keys[start..<min(keys.count, start + perStatement)]
      let qualifier: Qualifier
      if attributes.count == 1 {
        qualifier = .comparison(KVCPath(attributes[0]), .in, .list(batch.map { $0[0] }))
      } else {
        qualifier = .any(
          batch.map { key in
            .all(
              zip(attributes, key).map { name, value in
                .comparison(KVCPath(name), .equal, value)
              })
          })
      }
      for object in try fetch(FetchSpecification(entityName: entity.name, qualifier: qualifier)) {
        found[indexes.map { object.databaseValue(at: $0) }] = object
      }
    }
    return found
  }

  /// Loads relationship `name` for `objects`, returning the distinct destinations.
  private func prefetch(_ name: String, for objects: [DatabaseObject]) throws -> [DatabaseObject] {
    guard let entity = objects.first?.entity, let relationship = entity.relationship(named: name),
      let destination = model.entity(named: relationship.destinationName)
    else { return [] }
    let sourceIndexes = relationship.joins.compactMap { entity.attributeIndex(named: $0.source) }
    guard sourceIndexes.count == relationship.joins.count else { return [] }
    func key(_ object: DatabaseObject) -> [DatabaseValue] {
      sourceIndexes.map { object.databaseValue(at: $0) }
    }

    // Distinct keys of the objects that still need the relationship.
    var pending: [DatabaseObject] = []
    var keys = Set<[DatabaseValue]>()
    for object in objects where object.cachedRelated(name) == nil {
      let value = key(object)
      if value.contains(.null) {
        object.cacheRelated(nil, for: name)
      } else {
        pending.append(object)
        keys.insert(value)
      }
    }
    let found = try self.objects(
      of: destination, matching: relationship.joins.map(\.destination), in: Array(keys))
    for object in pending { object.cacheRelated(found[key(object)], for: name) }
    return Array(found.values)
  }

  /// The destination of a to-one relationship of one object.
  func fetchDestination(of relationship: Relationship, from object: DatabaseObject) throws
    -> DatabaseObject?
  {
    let key = relationship.joins.map { object.databaseValue(forAttribute: $0.source) ?? .null }
    if key.contains(.null) { return nil }
    return try fetch(
      try entity(relationship.destinationName), where: relationship.joins.map(\.destination),
      equal: key
    ).first
  }

  /// The qualifier selecting the destinations of a to-many relationship of `object`:
  /// `filmId = 1` for `Film.filmActors`, and across the other end's flattened relationship
  /// for a many-to-many (`films.id = 1` for `Film.actors`).
  /// A row whose key is NULL has none (never `fk IS NULL`).
  public func qualifier(for relationship: Relationship, of object: DatabaseObject) -> Qualifier {
    let sources =
      relationship.isFlattened
      ? object.entity.primaryKeyAttributeNames : relationship.joins.map(\.source)
    if sources.contains(where: { object.databaseValue(forAttribute: $0)?.isNull ?? true }) {
      return .constant(false)
    }
    if relationship.isFlattened, let inverse = relationship.inverseName {
      return .all(
        object.entity.primaryKeyAttributeNames.map { key in
          .comparison(
            KVCPath(components: [inverse, key]), .equal,
            object.databaseValue(forAttribute: key) ?? .null)
        })
    }
    return .all(
      relationship.joins.map { join in
        .comparison(
          KVCPath(join.destination), .equal,
          object.databaseValue(forAttribute: join.source) ?? .null)
      })
  }

  func fetchToMany(_ relationship: Relationship, of object: DatabaseObject) throws
    -> [DatabaseObject]
  {
    try fetch(
      FetchSpecification(
        entityName: relationship.destinationName,
        qualifier: qualifier(for: relationship, of: object)))
  }

  /// The number of objects of a to-many relationship, without fetching them.
  public func countToMany(_ relationshipName: String, of object: DatabaseObject) throws -> Int {
    try count(toManySpecification(relationshipName, of: object))
  }

  /// The numbers of objects of several to-many relationships of `object`, by name, in one
  /// statement (`SELECT (SELECT count(*) …), (SELECT count(*) …)`): an inspect page's counts
  /// in one round trip, not one each.
  ///
  /// - Throws: ``DatabaseError`` when a name is no to-many relationship of the object's
  ///   entity, or the statement fails.
  public func countToManys(_ relationshipNames: [String], of object: DatabaseObject) throws
    -> [String: Int]
  {
    let names = relationshipNames.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
    let specifications = try names.map { try toManySpecification($0, of: object) }
    guard !names.isEmpty else { return [:] }
    let statement = try keptStatement(
      counting: names, of: object,
      make: {
        let counts: [SQLExpression] = try specifications.map { specification in
          var builder = builder(for: try entity(specification.entityName))
          return .subquery(try builder.countSelect(specification))
        }
        return adaptor.dialect.statement(SQLSelect(counts, from: nil))
      })
    var found: [String: Int] = [:]
    try adaptor.query(statement, columns: Array(repeating: nil, count: names.count)) { row in
      for (name, value) in zip(names, row) { found[name] = value.intValue ?? 0 }
    }
    return found
  }

  /// What a to-many relationship of `object` selects.
  private func toManySpecification(_ relationshipName: String, of object: DatabaseObject) throws
    -> FetchSpecification
  {
    guard let relationship = object.entity.relationship(named: relationshipName),
      relationship.isToMany
    else {
      throw DatabaseError(
        .invalidValue, "\(object.entity.name) has no to-many relationship '\(relationshipName)'")
    }
    return FetchSpecification(
      entityName: relationship.destinationName,
      qualifier: qualifier(for: relationship, of: object))
  }

  /// A new, unsaved object of `entityName`.
  public func newObject(_ entityName: String) throws -> DatabaseObject {
    let entity = try entity(entityName)
    try requireWritable("no new objects")
    guard !entity.isReadOnly else {
      throw DatabaseError(
        .readOnly, "\(entity.name) is read-only (\(entity.isView ? "a view" : "no primary key"))")
    }
    return DatabaseObject(entity: entity, database: self)
  }
}
