import EnvKeys
import Foundation
import Qualifiers
import Synchronization

/// A row of an entity: its fetched values (the snapshot), pending changes, and the related
/// objects reached through relationships. Key-value coding reads through relationships
/// (`address.phone`); rules see a change counter, so answers about it are never stale.
/// Properties read as dynamic members too: `object.lastName`, `object.address?.phone`.
@dynamicMemberLookup
public final class DatabaseObject: KeyValueCoding, RuleCacheFingerprinting, QualifierComparable,
  CustomStringConvertible, @unchecked Sendable
{
  public let entity: Entity
  /// The database the object lives in (nil for detached objects).
  public let database: Database?

  /// Everything that changes, behind one lock (no allocation per object for it).
  private struct State {
    var snapshot: [DatabaseValue]
    var changes: [Int: DatabaseValue] = [:]
    /// Cached to-one destinations by relationship position (allocated on first use); the
    /// outer optional is "not loaded yet".
    var toOne: [DatabaseObject??] = []
    var toMany: [String: [DatabaseObject]] = [:]
    var changeCounter = 0
    var newObject: Bool
  }
  private let state: Mutex<State>
  /// The object's identity for rule caches (never reused, unlike its address).
  public let ruleCacheIdentity = RuleCacheIdentity.next()
  /// Set on the placeholder the Swift rule DSL reads key paths with.
  let recorder: KeyPathRecorder?

  /// A fetched object (`values` in attribute order), or a new one with nil values.
  public convenience init(entity: Entity, database: Database?, values: [DatabaseValue]? = nil) {
    self.init(entity: entity, database: database, values: values, recorder: nil)
  }

  init(entity: Entity, database: Database?, values: [DatabaseValue]?, recorder: KeyPathRecorder?) {
    self.entity = entity
    self.database = database
    self.recorder = recorder
    self.state = Mutex(
      State(
        snapshot: values ?? Array(repeating: .null, count: entity.attributes.count),
        newObject: values == nil))
  }

  /// Not yet inserted.
  public var isNew: Bool { state.withLock { $0.newObject } }

  /// Changes whenever a value or a related object changes.
  public var ruleCacheVersion: Int { state.withLock { $0.changeCounter } }

  // MARK: - Values

  /// The current value of the attribute named `name` (pending change, else fetched).
  public func databaseValue(forAttribute name: String) -> DatabaseValue? {
    guard let index = entity.attributeIndex(named: name) else { return nil }
    return state.withLock { $0.changes[index] ?? $0.snapshot[index] }
  }

  /// The current value of the attribute at `index` in the entity's attributes.
  public func databaseValue(at index: Int) -> DatabaseValue {
    state.withLock {
      $0.changes.isEmpty ? $0.snapshot[index] : ($0.changes[index] ?? $0.snapshot[index])
    }
  }

  /// The fetched value of the attribute named `name`, ignoring pending changes.
  public func snapshotValue(forAttribute name: String) -> DatabaseValue? {
    guard let index = entity.attributeIndex(named: name) else { return nil }
    return state.withLock { $0.snapshot[index] }
  }

  /// Sets an attribute (pending until saved). Setting a foreign key forgets the cached
  /// related object.
  public func setValue(_ value: DatabaseValue, forAttribute name: String) throws {
    guard let index = entity.attributeIndex(named: name) else {
      throw DatabaseError(.invalidValue, "\(entity.name) has no attribute '\(name)'")
    }
    let entity = self.entity
    state.withLock { state in
      if value == state.snapshot[index] {
        state.changes[index] = nil
      } else {
        state.changes[index] = value
      }
      if !state.toOne.isEmpty {
        for (position, relationship) in entity.relationships.enumerated()
        where !relationship.isToMany && relationship.joins.contains(where: { $0.source == name }) {
          state.toOne[position] = nil
        }
      }
      state.changeCounter += 1
    }
  }

  /// Points a to-one relationship at `destination` (or nil) by setting its foreign key.
  public func setRelated(_ destination: DatabaseObject?, forRelationship name: String) throws {
    guard let relationship = entity.relationship(named: name), !relationship.isToMany else {
      throw DatabaseError(.invalidValue, "\(entity.name) has no to-one relationship '\(name)'")
    }
    for join in relationship.joins {
      let value = destination?.databaseValue(forAttribute: join.destination) ?? .null
      try setValue(value, forAttribute: join.source)
    }
    cacheRelated(destination, for: name)
  }

  /// The names of attributes with pending changes, in attribute order.
  public var changedKeys: [String] {
    let attributes = entity.attributes
    return state.withLock { $0.changes.keys.sorted().map { attributes[$0].name } }
  }

  public var hasChanges: Bool { state.withLock { !$0.changes.isEmpty } }

  /// Drops pending changes.
  public func revert() {
    state.withLock { state in
      state.changes.removeAll()
      state.toOne.removeAll()
      state.changeCounter += 1
    }
  }

  /// Pending changes by attribute.
  var pendingChanges: [(Attribute, DatabaseValue)] {
    let attributes = entity.attributes
    return state.withLock { state in
      state.changes.keys.sorted().compactMap { index in
        state.changes[index].map { (attributes[index], $0) }
      }
    }
  }

  /// The fetched values, in attribute order.
  var snapshotValues: [DatabaseValue] { state.withLock { $0.snapshot } }

  /// After a save: the refetched row becomes the snapshot, with no pending changes.
  func reset(to values: [DatabaseValue]) {
    state.withLock { state in
      state.snapshot = values
      state.changes.removeAll()
      state.toOne.removeAll()
      state.toMany.removeAll()
      state.newObject = false
      state.changeCounter += 1
    }
  }

  /// Takes `values` as the fetched row; pending changes equal to the new values are dropped,
  /// the others stay. Returns the names of the attributes of both kinds.
  func refetch(_ values: [DatabaseValue]) -> (dropped: [String], pending: [String]) {
    state.withLock { state in
      let matching = state.changes.filter { index, value in
        index < values.count && values[index] == value
      }
      for index in matching.keys { state.changes[index] = nil }
      state.snapshot = values
      state.toOne.removeAll()
      state.toMany.removeAll()
      state.changeCounter += 1
      let names = { (indexes: Dictionary<Int, DatabaseValue>.Keys) in
        indexes.sorted().map { self.entity.attributes[$0].name }
      }
      return (names(matching.keys), names(state.changes.keys))
    }
  }

  /// The primary key values (current), in key order.
  public var primaryKeyValues: [DatabaseValue] {
    entity.primaryKeyAttributeNames.map { databaseValue(forAttribute: $0) ?? .null }
  }

  /// The fetched primary key values.
  var snapshotPrimaryKeyValues: [DatabaseValue] {
    entity.primaryKeyAttributeNames.map { snapshotValue(forAttribute: $0) ?? .null }
  }

  /// `1` or `1,23`: the primary key as commands write it.
  public var primaryKeyDescription: String {
    primaryKeyValues.map { value in
      if case .string(let s) = value { return s }
      return value.description
    }.joined(separator: ",")
  }

  // MARK: - Relationships

  func cachedRelated(_ name: String) -> DatabaseObject?? {
    guard let position = entity.relationshipIndex(named: name) else { return nil }
    return state.withLock { $0.toOne.isEmpty ? nil : $0.toOne[position] }
  }

  func cacheRelated(_ object: DatabaseObject?, for name: String) {
    guard let position = entity.relationshipIndex(named: name) else { return }
    let count = entity.relationships.count
    state.withLock { state in
      if state.toOne.isEmpty { state.toOne = Array(repeating: nil, count: count) }
      state.toOne[position] = .some(object)
    }
  }

  /// The object a to-one relationship points at (fetched when not prefetched).
  public func related(_ name: String) throws -> DatabaseObject? {
    if let cached = cachedRelated(name) { return cached }
    guard let relationship = entity.relationship(named: name), !relationship.isToMany else {
      return nil
    }
    guard let database else { return nil }
    let object = try database.fetchDestination(of: relationship, from: self)
    cacheRelated(object, for: name)
    return object
  }

  /// The objects of a to-many relationship (fetched on first use).
  public func relatedObjects(_ name: String) throws -> [DatabaseObject] {
    if let cached = state.withLock({ $0.toMany[name] }) { return cached }
    guard let relationship = entity.relationship(named: name), relationship.isToMany, let database
    else { return [] }
    let objects = try database.fetchToMany(relationship, of: self)
    state.withLock { $0.toMany[name] = objects }
    return objects
  }

  // MARK: - KeyValueCoding

  public func value(forKey key: String) -> Any? {
    if let value = databaseValue(forAttribute: key) { return value.anyValue }
    if key == "id", entity.primaryKeyAttributeNames.count == 1 {
      return databaseValue(forAttribute: entity.primaryKeyAttributeNames[0])?.anyValue
    }
    guard let relationship = entity.relationship(named: key) else { return nil }
    do {
      return relationship.isToMany ? try relatedObjects(key) : try related(key)
    } catch {
      modelLogger.error("reading \(entity.name).\(key): \(error)")
      return nil
    }
  }

  /// Walks a dotted key path without splitting it into an array first (list pages read
  /// key paths for every cell).
  public func value(forKeyPath keyPath: String) -> Any? {
    guard let dot = keyPath.firstIndex(of: ".") else { return value(forKey: keyPath) }
    let head = String(keyPath[..<dot])
    let rest = String(keyPath[keyPath.index(after: dot)...])
    let next = value(forKey: head)
    if let object = next as? DatabaseObject { return object.value(forKeyPath: rest) }
    return KVC.value(forKeyPath: rest.split(separator: ".").map(String.init), of: next)
  }

  public var qualifierComparisonValue: Any? {
    primaryKeyValues.count == 1 ? primaryKeyValues[0].anyValue : primaryKeyDescription
  }

  public var description: String { "\(entity.name)(\(primaryKeyDescription))" }
}

extension DatabaseObject {
  /// The object's default title: the first of its entity's title choices (``TitleAttributes``)
  /// with a value that is not blank, the parts of a choice joined by a space ("PENELOPE
  /// GUINESS"); else `Entity: pk`.
  public var defaultTitle: String {
    for choice in entity.titleAttributeIndexes {
      let parts = choice.compactMap { index -> String? in
        guard case .string(let s) = databaseValue(at: index),
          !s.trimmingCharacters(in: .whitespaces).isEmpty
        else { return nil }
        return s
      }
      if !parts.isEmpty { return parts.joined(separator: " ") }
    }
    return isNew ? "new \(entity.name)" : "\(entity.name): \(primaryKeyDescription)"
  }

  /// `Staff(1) 'Mike'`: entity, primary key and title, as `show` prints objects.
  public var displayDescription: String {
    "\(entity.name)(\(primaryKeyDescription)) \(Literal.quote(defaultTitle))"
  }
}

extension DatabaseObject {
  /// A detached copy with the fetched values only (no pending changes): what rules see when
  /// they judge the object as it is in the database.
  public func fetchedCopy() -> DatabaseObject {
    DatabaseObject(entity: entity, database: database, values: snapshotValues)
  }
}
