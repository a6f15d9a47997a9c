import EnvKeys
import Qualifiers
import Synchronization

/// A table or view, with friendly names for it and its properties.
public final class Entity: Sendable, Hashable, KeyValueCoding, QualifierComparable,
  CustomStringConvertible, RuleCacheFingerprinting
{
  /// This entity's identity for rule caches (answers computed from it stay valid while it
  /// lives, once its columns are read).
  public let ruleCacheIdentity = RuleCacheIdentity.next()
  /// 0 while the attributes, relationships and key were never asked for, or were read; after
  /// a catalog read that failed (another program held the database past the busy timeout),
  /// a new version for each failed read, so that an answer computed without them is not
  /// taken once they are read. Reads nothing: it is asked for under the rule caches' locks
  /// (the columns are asked for again where they are used, ``requireDetails()``).
  public var ruleCacheVersion: Int {
    guard let failedReads, !details.hasValue else { return 0 }
    return -failedReads.count.load(ordering: .relaxed)
  }

  /// The friendly name (`FilmActor`).
  public let name: String
  /// The table name in SQL (`film_actor`).
  public let externalName: String
  /// The schema, when the database has schemas.
  public let schema: String?
  /// Attributes in column order.
  public var attributes: [Attribute] { details.value.attributes }
  /// To-one relationships (in foreign key order), then to-many ones.
  public var relationships: [Relationship] { details.value.relationships }
  /// The primary key's attribute names, in key order (empty for views without one).
  public var primaryKeyAttributeNames: [String] { details.value.primaryKeyAttributeNames }
  /// A view, or a table that cannot be written (no primary key).
  public var isReadOnly: Bool { isView || primaryKeyAttributeNames.isEmpty }
  /// A view, not a table.
  public let isView: Bool
  /// The database's own bookkeeping (`sqlite_sequence`, full-text and R-tree shadow tables):
  /// not among the visible entities unless asked for (`entities --all`).
  public let isInternal: Bool
  /// A full-text index over the table's text (an SQLite FTS5 table, a PostgreSQL `tsvector`
  /// column), which a search uses.
  public var fullTextIndex: FullTextIndex? { details.value.fullTextIndex }
  /// `schema.table`, where the entity's name does not say it: a table outside the first
  /// schema of the search path, or renamed because another schema has a table of its name.
  public let sourceLabel: String?
  /// The attributes that title its objects, best first (see ``TitleAttributes``): each
  /// choice one attribute, or two shown together (first and last name).
  public var titleAttributeChoices: [[String]] { details.value.titles.value.choices }
  /// ``titleAttributeChoices`` as attribute positions.
  var titleAttributeIndexes: [[Int]] { details.value.titles.value.indexes }

  /// The attributes, relationships and key: a model read from a catalog works them out when
  /// one of its entities is first asked for them (listing the entities never needs them).
  private let details: ComputedOnce<Details>
  /// How many times they could not be read from the catalog (nil when they were given).
  private let failedReads: ReadFailures?

  /// A count of the catalog reads that failed, shared with the closure that reads.
  private final class ReadFailures: Sendable {
    let count = Atomic<Int>(0)
  }

  /// Whether the attributes, relationships and key have been worked out (false after a
  /// catalog read that failed: they are read again at the next ask).
  package var hasDetails: Bool { details.hasValue }

  /// Throws when the attributes, relationships and key cannot be read from the catalog now
  /// (asking for them again): a statement or a page made without them would have no columns
  /// and find no row. The reader has said why in the SQL log.
  package func requireDetails() throws {
    guard !details.hasValue else { return }
    _ = details.value
    guard details.hasValue else {
      throw DatabaseError(
        .locked,
        "the columns of \(externalName) cannot be read now (another program holds the database); try again"
      )
    }
  }

  /// What an entity's columns and foreign keys give it.
  struct Parts: Sendable {
    let attributes: [Attribute]
    let relationships: [Relationship]
    let primaryKeyAttributeNames: [String]
    var fullTextIndex: FullTextIndex? = nil
    /// False when the catalog could not be read (``Catalog/details``): worked out again at
    /// the next ask.
    var isComplete = true

    /// No attributes, relationships, key or full-text index.
    static let none = Parts(attributes: [], relationships: [], primaryKeyAttributeNames: [])
    /// None for now: the catalog could not be read, and is read again at the next ask.
    static let incomplete = Parts(
      attributes: [], relationships: [], primaryKeyAttributeNames: [], isComplete: false)
  }

  /// ``Parts`` with the look-ups made from them.
  private final class Details: Sendable {
    let attributes: [Attribute]
    let relationships: [Relationship]
    let primaryKeyAttributeNames: [String]
    /// The primary key's attributes, in key order (asked for on every list page).
    let primaryKeyAttributes: [Attribute]
    let fullTextIndex: FullTextIndex?
    let isComplete: Bool
    let attributesByName: [String: Attribute]
    let attributeIndexes: [String: Int]
    let relationshipsByName: [String: Relationship]
    let relationshipIndexes: [String: Int]
    /// Worked out when first asked for: a list page without to-ones never needs them.
    let titles: ComputedOnce<Titles>

    init(_ parts: Parts, entityName: String) {
      let attributes = parts.attributes
      self.attributes = attributes
      relationships = parts.relationships
      primaryKeyAttributeNames = parts.primaryKeyAttributeNames
      fullTextIndex = parts.fullTextIndex
      isComplete = parts.isComplete
      let attributesByName = Dictionary(
        attributes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
      self.attributesByName = attributesByName
      primaryKeyAttributes = parts.primaryKeyAttributeNames.compactMap { attributesByName[$0] }
      let attributeIndexes = Dictionary(
        attributes.enumerated().map { ($0.element.name, $0.offset) },
        uniquingKeysWith: { a, _ in a })
      self.attributeIndexes = attributeIndexes
      relationshipsByName = Dictionary(
        relationships.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
      relationshipIndexes = Dictionary(
        relationships.enumerated().map { ($0.element.name, $0.offset) },
        uniquingKeysWith: { a, _ in a })
      let keys = Set(primaryKeyAttributeNames).union(
        relationships.filter { !$0.isToMany }.flatMap { $0.joins.map(\.source) })
      titles = ComputedOnce {
        let choices = TitleAttributes.choices(
          attributes: attributes, entityName: entityName, keys: keys)
        return Titles(
          choices: choices, indexes: choices.map { $0.compactMap { attributeIndexes[$0] } })
      }
    }
  }

  /// The title attributes by name and by position.
  private struct Titles: Sendable {
    let choices: [[String]]
    let indexes: [[Int]]
  }

  /// An entity with its attributes, relationships and primary key.
  public convenience init(
    name: String, externalName: String, schema: String? = nil, attributes: [Attribute],
    relationships: [Relationship], primaryKeyAttributeNames: [String], isView: Bool,
    isInternal: Bool = false, sourceLabel: String? = nil, fullTextIndex: FullTextIndex? = nil
  ) {
    let parts = Parts(
      attributes: attributes, relationships: relationships,
      primaryKeyAttributeNames: primaryKeyAttributeNames, fullTextIndex: fullTextIndex)
    self.init(
      name: name, externalName: externalName, schema: schema, isView: isView,
      isInternal: isInternal, sourceLabel: sourceLabel,
      details: ComputedOnce(computed: Details(parts, entityName: name)), failedReads: nil)
  }

  /// An entity whose attributes, relationships, key and full-text index `parts` works out
  /// when they are first asked for.
  convenience init(
    name: String, externalName: String, schema: String?, isView: Bool, isInternal: Bool,
    sourceLabel: String?, parts: @escaping @Sendable () -> Parts
  ) {
    let failedReads = ReadFailures()
    self.init(
      name: name, externalName: externalName, schema: schema, isView: isView,
      isInternal: isInternal, sourceLabel: sourceLabel,
      details: ComputedOnce(keepingIf: \.isComplete) {
        let details = Details(parts(), entityName: name)
        if !details.isComplete { failedReads.count.add(1, ordering: .relaxed) }
        return details
      }, failedReads: failedReads)
  }

  private init(
    name: String, externalName: String, schema: String?, isView: Bool, isInternal: Bool,
    sourceLabel: String?, details: ComputedOnce<Details>, failedReads: ReadFailures?
  ) {
    self.name = name
    self.externalName = externalName
    self.schema = schema
    self.isView = isView
    self.isInternal = isInternal
    self.sourceLabel = sourceLabel
    self.details = details
    self.failedReads = failedReads
  }

  /// The attribute named `name`.
  public func attribute(named name: String) -> Attribute? {
    details.value.attributesByName[name]
  }
  /// The relationship named `name`.
  public func relationship(named name: String) -> Relationship? {
    details.value.relationshipsByName[name]
  }

  /// The position of the relationship named `name` in ``relationships``.
  public func relationshipIndex(named name: String) -> Int? {
    details.value.relationshipIndexes[name]
  }

  /// The position of the attribute named `name` in ``attributes``.
  public func attributeIndex(named name: String) -> Int? { details.value.attributeIndexes[name] }

  /// The attribute for a column name.
  public func attribute(column: String) -> Attribute? {
    attributes.first { $0.columnName == column }
  }

  /// The primary key's attributes, in key order.
  public var primaryKeyAttributes: [Attribute] { details.value.primaryKeyAttributes }

  /// Attributes that are the source of a to-one relationship (foreign keys).
  public var foreignKeyAttributeNames: Set<String> {
    Set(relationships.filter { !$0.isToMany }.flatMap { $0.joins.map(\.source) })
  }

  /// The to-one relationships, in foreign key order.
  public var toOneRelationships: [Relationship] { relationships.filter { !$0.isToMany } }
  /// The to-many relationships.
  public var toManyRelationships: [Relationship] { relationships.filter(\.isToMany) }

  /// The entity by name for rules: its name, table, kind, attributes and relationships.
  public func value(forKey key: String) -> Any? {
    switch key {
    case "name": name
    case "externalName": externalName
    case "schema": schema
    case "isReadOnly": isReadOnly
    case "isView": isView
    case "isInternal": isInternal
    case "attributes": attributes
    case "relationships": relationships
    case "primaryKeyAttributeNames": primaryKeyAttributeNames
    default: nil
    }
  }

  /// Compared in qualifiers by its name.
  public var qualifierComparisonValue: Any? { name }

  /// The same entity object.
  public static func == (a: Entity, b: Entity) -> Bool { a === b }
  /// Hashes its identity.
  public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

  /// Its name.
  public var description: String { name }
}
