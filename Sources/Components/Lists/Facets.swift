import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

/// One facet of a list: the values a property holds among the list's rows (its filter and
/// search, not its window), each with how many rows hold it, the most frequent first.
public struct Facet: Sendable {
  /// The property key (`rating`, `language`, `language.name`).
  public var key: String
  /// Its label (`Rating`).
  public var label: String
  /// The values counted, at most ``FacetPlan/valueLimit``; nil when they could not be
  /// counted within the page's time budget (`facetTimeBudget`).
  public var values: [FacetValue]?
  /// Whether the property holds more values than those shown.
  public var more: Bool

  /// A facet.
  public init(key: String, label: String, values: [FacetValue]?, more: Bool = false) {
    self.key = key
    self.label = label
    self.values = values
    self.more = more
  }
}

/// A value of a facet.
public struct FacetValue: Sendable, Equatable {
  /// The value as stored (a to-one's foreign key).
  public var value: DatabaseValue
  /// The value as the filter grammar writes it (`'PG'`, `2006`, `nil`): `KEY = LITERAL`
  /// narrows a list to it.
  public var literal: String
  /// The text a person sees (a to-one's title, through the property's formatter).
  public var text: String
  /// The rows that hold it.
  public var count: Int

  /// A value.
  public init(value: DatabaseValue, literal: String, text: String, count: Int) {
    self.value = value
    self.literal = literal
    self.text = text
    self.count = count
  }
}

/// What a list's facets count: for each key, the column grouped by (a to-one's foreign key,
/// or an attribute along to-ones) and how its values are shown.
public struct FacetPlan: Sendable {
  /// The most values a facet shows.
  public static let valueLimit = 10
  /// The most facets a list page counts.
  public static let facetLimit = 5

  struct Item: Sendable {
    let key: String
    let label: String
    /// The path grouped by, from the listed entity.
    let path: KVCPath
    /// The filter's key path for a value (a to-one's foreign key attribute).
    let filterKey: String
    /// The attribute compared with a value (the foreign key's, for a to-one).
    let attribute: Attribute
    /// The destination whose titles show a to-one's values.
    let destination: String?
    let context: RuleContext
  }

  let items: [Item]

  /// The facets of `keys` in `context` (a list's, its entity set): at most ``facetLimit``;
  /// a key that names no attribute (along to-ones) nor a to-one of one column, or a
  /// password, is left out.
  public init(keys: [String], context: RuleContext) {
    var items: [Item] = []
    var seen: Set<String> = []
    guard let entity = context.entity, let model = context.database?.model else {
      self.items = []
      return
    }
    for key in keys where seen.insert(key).inserted && items.count < Self.facetLimit {
      let property = context.with(\.propertyKey, key)
      if let relationship = entity.relationship(named: key), !relationship.isToMany,
        relationship.joins.count == 1, let source = relationship.joins.first?.source,
        let attribute = entity.attribute(named: source)
      {
        items.append(
          Item(
            key: key, label: property.displayNameForProperty, path: KVCPath(source),
            filterKey: source, attribute: attribute, destination: relationship.destinationName,
            context: property))
        continue
      }
      // An attribute, itself or along to-ones (a path across a to-many does not resolve).
      guard let path = try? PropertyPath(key, from: entity, in: model),
        let attribute = path.attribute, !attribute.isPassword
      else { continue }
      items.append(
        Item(
          key: key, label: property.displayNameForProperty, path: KVCPath(key), filterKey: key,
          attribute: attribute, destination: nil, context: property))
    }
    self.items = items
  }

  /// Whether there is nothing to count.
  public var isEmpty: Bool { items.isEmpty }

  /// The facets of the rows `qualifier` (and `fullText`) select from `entity`: counted on the database's
  /// second connection, waited for at most `budget` (then stopped, and the rest shown as not
  /// counted), or here when it has none.
  public func facets(
    of entity: Entity, qualifier: Qualifier?, fullText: FullTextSearch? = nil,
    in database: Database, budget: Duration, environment: RenderEnvironment
  ) throws -> [Facet] {
    guard !items.isEmpty else { return [] }
    var specification = FetchSpecification(entityName: entity.name, qualifier: qualifier)
    specification.fullText = fullText
    let paths = items.map(\.path)
    let counted: [[FacetCount]?]
    if let task = try database.startFacetCounts(
      specification, paths: paths, limit: Self.valueLimit + 1)
    {
      counted = task.wait(upTo: budget)
      task.cancel()
    } else {
      counted = try paths.map {
        try database.facetCounts(specification, path: $0, limit: Self.valueLimit + 1)
      }
    }
    return try zip(items, counted).map { item, counts in
      guard let counts else { return Facet(key: item.key, label: item.label, values: nil) }
      let shown = counts.prefix(Self.valueLimit)
      let values = try shown.map { count in
        FacetValue(
          value: count.value, literal: Self.literal(of: count.value, item),
          text: try text(of: count.value, item, database: database, environment: environment),
          count: count.count)
      }
      return Facet(
        key: item.key, label: item.label, values: values, more: counts.count > Self.valueLimit)
    }
  }

  /// How a value of `item` is shown: a to-one by its destination's title, else through the
  /// property's formatter; NULL as `displayStringForNil`.
  private func text(
    of value: DatabaseValue, _ item: Item, database: Database, environment: RenderEnvironment
  ) throws -> String {
    if value.isNull { return item.context.displayStringForNil }
    if let destination = item.destination,
      let object = try database.fetchObject(destination, primaryKey: [value])
    {
      return ValueText.title(of: object, item.context)
    }
    return ValueText.text(of: value, item.context, environment)
  }

  /// The filter that narrows a list to `literal` of the facet `key` (`rating = 'PG'`,
  /// `languageId = 1` for the to-one `language`, or a value as stored, `~` and its
  /// ``PositionToken``): nil for a key the plan does not count or a literal that does not
  /// parse.
  public func qualifier(key: String, literal: String) -> Qualifier? {
    guard let item = items.first(where: { $0.key == key }) else { return nil }
    if literal.hasPrefix(Self.asStoredMark) {
      guard let values = try? PositionToken.decode(String(literal.dropFirst())),
        values.count == 1, let value = values.first
      else { return nil }
      return .comparison(
        KVCPath(item.filterKey), .equal, DatabaseValue.asStored(value, for: item.attribute))
    }
    // A value, never another key path (`color = red` compares two columns).
    guard let parsed = try? QualifierParser.parse("\(item.filterKey) = \(literal)"),
      case .comparison = parsed
    else { return nil }
    return parsed
  }

  /// What starts a literal that is a value as stored (`~s%FF`), not filter grammar.
  static let asStoredMark = "~"

  /// `value` as a facet link writes it: as the filter grammar does when that reads back as
  /// the value for the item's column (`'PG'`, `2006`, `nil`, `'1e+308'`); else `~` and its
  /// ``PositionToken``, which ``qualifier(key:literal:)`` compares as stored (text in an
  /// INTEGER column, a blob, text that is not UTF-8, PostgreSQL's `infinity`).
  static func literal(of value: DatabaseValue, _ item: Item) -> String {
    let text = value.qualifierText
    if case .comparison(_, .equal, let parsed)? = try? QualifierParser.parse("x = \(text)"),
      (try? DatabaseValue.coerce(parsed, to: item.attribute)) == value
    {
      return text
    }
    return PositionToken.encode([value]).map { Self.asStoredMark + $0 } ?? text
  }

  /// The keys counted, in order.
  public var keys: [String] { items.map(\.key) }
}
