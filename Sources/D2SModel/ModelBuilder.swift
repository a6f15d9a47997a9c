/// Builds a ``Model`` from a ``Catalog`` with friendly names.
///
/// - Entity names are UpperCamelCase; when two schemas hold tables of one name, the table of
///   the schema first in the search path keeps it and the other is prefixed with its schema
///   (`BillingInvoices`).
/// - A single-column surrogate primary key (`id`, `film_id` in `film`) is `id`; a natural
///   key keeps its name (`sku`); other columns are lowerCamelCase, from any column name (dots,
///   spaces and symbols separate words).
/// - A single-column foreign key `address_id` gives the attribute `addressId` and the to-one
///   `address` (if taken: `toAddress`); one without an id suffix (`ReportsTo`) gives its name
///   to the relationship and its attribute gets `Id` appended. A multi-column key's to-one is
///   named after its destination.
/// - Every to-one gets an inverse to-many on its destination, named by the plural of the
///   source (`Address.customers`), made unique on the destination (`filmsAsOriginalLanguage`,
///   then a number). Foreign keys are processed in source-column order, tables by name.
/// - A pure link table (its primary key is exactly its two foreign keys, its other columns at
///   most timestamps) gives each end a flattened to-many named by the plural of the other
///   end (`Film.actors`, `Actor.films`), made unique the same way.
/// - Integer columns named `is_…`/`can_…` are booleans.
public enum ModelBuilder {
  /// The model of `catalog`: its entities at once, their attributes and relationships when
  /// one is first asked for.
  public static func model(from catalog: Catalog) -> Model {
    // The search path's schemas first, in its order; then the others by name.
    func rank(_ schema: String?) -> Int {
      schema.flatMap { catalog.searchPath.firstIndex(of: $0) } ?? catalog.searchPath.count
    }
    let tables = catalog.tables.sorted {
      (rank($0.schema), $0.schema ?? "", $0.name) < (rank($1.schema), $1.schema ?? "", $1.name)
    }

    // Entity names, unique: a clash takes the schema as a prefix.
    var entityNames: [String: String] = [:]  // table key → entity name
    var sourceLabels: [String: String] = [:]  // table key → `schema.table`
    var takenEntityNames = Set<String>()
    for table in tables {
      var name = Fancyfier.entityName(table.name)
      let outside = table.schema != nil && table.schema != catalog.searchPath.first
      if takenEntityNames.contains(name), let schema = table.schema {
        name = Fancyfier.entityName(schema + "_" + table.name)
      }
      name = Fancyfier.unique(name, in: takenEntityNames)
      takenEntityNames.insert(name)
      entityNames[key(table.schema, table.name)] = name
      if let schema = table.schema, outside || name != Fancyfier.entityName(table.name) {
        sourceLabels[key(table.schema, table.name)] = "\(schema).\(table.name)"
      }
    }

    // The entities now, their attributes and relationships when one is first asked for: a
    // start that lists the entities never needs them. Worked out for all at once, since an
    // entity's to-manys come from the other tables' foreign keys; a catalog whose tables'
    // columns and keys are read later (``Catalog/details``, SQLite's) reads them then.
    // A view whose columns are read later (SQLite's) has no foreign keys: its attributes are
    // worked out on their own, when it is first asked for; unless a table's foreign key names
    // it (SQLite accepts that), which makes it part of the others' relationships.
    let names = entityNames
    let viewColumns = catalog.viewColumns
    let named = tables
    let details = catalog.details
    // Nil, and read again at the next ask, when the catalog or a view cannot be read now.
    let read = ComputedOnce(
      keepingIf: { $0 != nil }, { Read(named, details: details, viewsLater: viewColumns != nil) })
    // A view with the columns read for it (a view SQLite cannot compile has none); nil when
    // they cannot be read now.
    let withColumns = { @Sendable (table: Catalog.Table) -> Catalog.Table? in
      guard table.isView, let viewColumns else { return table }
      guard let columns = viewColumns(table.name) else { return nil }
      var read = table
      read.columns = columns
      return read
    }
    let parts = ComputedOnce(
      keepingIf: { $0 != nil },
      { () -> [String: Entity.Parts]? in
        guard let related = read.value?.related.map(withColumns),
          !related.contains(where: { $0 == nil })
        else { return nil }
        return Self.parts(of: related.compactMap { $0 }, entityNames: names)
      })
    let entities = tables.compactMap { table -> Entity? in
      let tableKey = key(table.schema, table.name)
      guard let name = entityNames[tableKey] else { return nil }
      return Entity(
        name: name, externalName: table.name, schema: table.schema, isView: table.isView,
        isInternal: table.isInternal, sourceLabel: sourceLabels[tableKey]
      ) {
        guard let read = read.value else { return .incomplete }
        if let later = read.later[tableKey] {
          guard let view = withColumns(later) else { return .incomplete }
          return Self.parts(of: [view], entityNames: names)[tableKey] ?? .none
        }
        guard let parts = parts.value else { return .incomplete }
        return parts[tableKey] ?? .none
      }
    }
    return Model(entities: entities)
  }

  /// A catalog's tables with their columns and keys, as read (``Catalog/details``), parted.
  private struct Read: Sendable {
    /// The tables and views whose entities are worked out together.
    var related: [Catalog.Table] = []
    /// The views whose entities are worked out each on its own, by table key.
    var later: [String: Catalog.Table] = [:]

    /// `named` (the catalog's tables, in order), or the tables `details` reads in their
    /// stead; with `viewsLater`, a view no table's foreign key names is worked out later. Nil
    /// when `details` cannot read them now.
    init?(
      _ named: [Catalog.Table], details: (@Sendable () -> [Catalog.Table]?)?, viewsLater: Bool
    ) {
      var tables = named
      if let details {
        guard let detailed = details() else { return nil }
        let read = Dictionary(
          detailed.map { (ModelBuilder.key($0.schema, $0.name), $0) },
          uniquingKeysWith: { a, _ in a })
        // In the order of the entities; a table gone since it was named has no columns.
        tables = named.map { read[ModelBuilder.key($0.schema, $0.name)] ?? $0 }
      }
      let referenced = Set(
        tables.flatMap { table in
          table.foreignKeys.flatMap {
            [
              ModelBuilder.key($0.destinationSchema ?? table.schema, $0.destinationTable),
              ModelBuilder.key(nil, $0.destinationTable),
            ]
          }
        })
      for table in tables {
        let tableKey = ModelBuilder.key(table.schema, table.name)
        if table.isView, viewsLater, !referenced.contains(tableKey) {
          later[tableKey] = table
        } else {
          related.append(table)
        }
      }
    }
  }

  /// The attributes, relationships and primary key of each table's entity, by table key.
  static func parts(of tables: [Catalog.Table], entityNames: [String: String]) -> [String:
    Entity.Parts]
  {
    // Foreign keys that name the natural key they refer to (`product_sku` → `sku`): they keep
    // their column's name (`productSku`), their relationship drops the key (`product`). Found
    // once, through tables by key, for both uses below.
    let tablesByKey = Dictionary(
      tables.map { (key($0.schema, $0.name), $0) }, uniquingKeysWith: { a, _ in a })
    var naturalKeyNames: [String: String] = [:]  // table key + column → relationship name
    for table in tables {
      for foreignKey in table.foreignKeys where foreignKey.columns.count == 1 {
        guard
          let destination = tablesByKey[
            key(foreignKey.destinationSchema ?? table.schema, foreignKey.destinationTable)]
            ?? tablesByKey[key(nil, foreignKey.destinationTable)],
          let name = namesNaturalKey(foreignKey, of: destination)
        else { continue }
        naturalKeyNames[key(table.schema, table.name) + "\u{2}" + foreignKey.columns[0]] = name
      }
    }

    var drafts: [Draft] = []

    // Attributes and to-ones.
    for table in tables {
      guard let entityName = entityNames[key(table.schema, table.name)] else { continue }
      var draft = Draft(table: table, entityName: entityName)
      let singleForeignKeyColumns = Set(
        table.foreignKeys.filter { $0.columns.count == 1 }.map { $0.columns[0] })
      let tableKey = key(table.schema, table.name) + "\u{2}"
      for column in table.columns {
        var name: String
        if table.primaryKey.count == 1, table.primaryKey[0] == column.name,
          Self.isSurrogateKey(column.name, of: table.name)
        {
          name = "id"
        } else {
          name = Fancyfier.propertyName(column.name)
          if singleForeignKeyColumns.contains(column.name),
            naturalKeyNames[tableKey + column.name] == nil,
            Fancyfier.strippingIDSuffix(column.name) == nil
          {
            name += "Id"  // `ReportsTo` → attribute `reportsToId`, relationship `reportsTo`
          }
        }
        name = Fancyfier.unique(name, in: draft.taken)
        draft.taken.insert(name)
        draft.columnToAttribute[column.name] = name
        var column = column
        let lower = column.name.lowercased()
        if column.valueType == .int, lower.hasPrefix("is_") || lower.hasPrefix("can_") {
          column.valueType = .bool
        }
        draft.attributes.append(Attribute(name: name, column: column))
      }
      drafts.append(draft)
    }

    let draftIndex = Dictionary(
      drafts.enumerated().map { (key($0.element.table.schema, $0.element.table.name), $0.offset) },
      uniquingKeysWith: { a, _ in a })

    struct Inverse {
      let source: Int
      let destination: Int
      let sourceEntity: String
      let toOneName: String
      let joins: [Relationship.Join]
    }
    var inverses: [Inverse] = []

    for index in drafts.indices {
      let table = drafts[index].table
      let positions = Dictionary(
        table.columns.enumerated().map { ($0.element.name, $0.offset) },
        uniquingKeysWith: { a, _ in a })
      let foreignKeys = table.foreignKeys.sorted {
        (positions[$0.columns.first ?? ""] ?? 0) < (positions[$1.columns.first ?? ""] ?? 0)
      }
      for foreignKey in foreignKeys {
        let destinationKey = key(
          foreignKey.destinationSchema ?? table.schema, foreignKey.destinationTable)
        guard
          let destinationIndex = draftIndex[destinationKey]
            ?? draftIndex[key(nil, foreignKey.destinationTable)]
        else { continue }
        let destination = drafts[destinationIndex]
        let joins = zip(foreignKey.columns, foreignKey.destinationColumns).compactMap {
          source, target -> Relationship.Join? in
          guard let s = drafts[index].columnToAttribute[source],
            let d = destination.columnToAttribute[target]
          else { return nil }
          return Relationship.Join(source: s, destination: d)
        }
        guard joins.count == foreignKey.columns.count, !joins.isEmpty else { continue }
        var base: String
        if foreignKey.columns.count == 1 {
          let column = foreignKey.columns[0]
          base = Fancyfier.propertyName(
            naturalKeyNames[key(table.schema, table.name) + "\u{2}" + column]
              ?? Fancyfier.strippingIDSuffix(column) ?? column)
        } else {
          base = Fancyfier.lowerFirst(destination.entityName)
        }
        if drafts[index].taken.contains(base) {
          base = "to" + Fancyfier.capitalized(base)
        }
        let name = Fancyfier.unique(base, in: drafts[index].taken)
        drafts[index].taken.insert(name)
        let mandatory = foreignKey.columns.allSatisfy { column in
          table.columns.first { $0.name == column }.map { !$0.allowsNull } ?? false
        }
        drafts[index].relationships.append(
          Relationship(
            name: name, destinationName: destination.entityName, joins: joins, isToMany: false,
            isMandatory: mandatory))
        inverses.append(
          Inverse(
            source: index, destination: destinationIndex, sourceEntity: drafts[index].entityName,
            toOneName: name, joins: joins))
      }
    }

    // Inverse to-manys, unique on the destination.
    var linkEnds: [Int: [LinkEnd]] = [:]  // by source draft
    for inverse in inverses {
      let plural = Fancyfier.plural(Fancyfier.lowerFirst(inverse.sourceEntity))
      var name = plural
      if drafts[inverse.destination].taken.contains(name) {
        name = Fancyfier.unique(
          plural + "As" + Fancyfier.capitalized(inverse.toOneName),
          in: drafts[inverse.destination].taken)
      }
      drafts[inverse.destination].taken.insert(name)
      let joins = inverse.joins.map {
        Relationship.Join(source: $0.destination, destination: $0.source)
      }
      drafts[inverse.destination].relationships.append(
        Relationship(
          name: name, destinationName: inverse.sourceEntity, joins: joins, isToMany: true,
          isMandatory: false))
      linkEnds[inverse.source, default: []].append(
        LinkEnd(
          destination: inverse.destination, toOneName: inverse.toOneName,
          columns: inverse.joins.map(\.source), inverseName: name))
    }
    addFlattenedRelationships(linkEnds, to: &drafts)

    return Dictionary(
      drafts.map { draft in
        (
          key(draft.table.schema, draft.table.name),
          Entity.Parts(
            attributes: draft.attributes, relationships: draft.orderedRelationships,
            primaryKeyAttributeNames: draft.table.primaryKey.compactMap {
              draft.columnToAttribute[$0]
            }, fullTextIndex: draft.table.fullTextIndex)
        )
      }, uniquingKeysWith: { a, _ in a })
  }

  /// Whether a one-column primary key is a surrogate, renamed `id`: a column named `id`, or
  /// the table's name (as it is, singular or plural, in any case, ignoring `_` and spaces)
  /// followed by `_id`, `Id` or `ID` (`film_id` in `film`, `EmployeeID` in `Employees`). Any
  /// other key is natural and keeps its name (`tag`, `sku`, `invoiceNo`).
  static func isSurrogateKey(_ column: String, of table: String) -> Bool {
    func normal(_ name: String) -> String { TitleAttributes.normalized(name) }
    if normal(column) == "id" { return true }
    guard let stripped = Fancyfier.strippingIDSuffix(column) else { return false }
    let stem = normal(stripped)
    // The table's own name first: the plural and singulars only when it is not that.
    if normal(table) == stem || normal(Inflection.plural(table)) == stem { return true }
    return Inflection.singularCandidates(table).contains { normal($0) == stem }
  }

  /// For a one-column foreign key to a natural key whose column name ends with that key's
  /// name (`product_sku` to `product.sku`): the name less the key (`product_`, trimmed to
  /// `product`), or the table's name when it is the key's name. Nil otherwise.
  static func namesNaturalKey(_ foreignKey: Catalog.ForeignKey, of destination: Catalog.Table)
    -> String?
  {
    guard foreignKey.columns.count == 1, let target = foreignKey.destinationColumns.first,
      destination.primaryKey == [target], !isSurrogateKey(target, of: destination.name)
    else { return nil }
    let column = foreignKey.columns[0]
    // The key's own name (`invoice_no` to `invoice.invoice_no`): the relationship is named
    // for the table.
    if column.lowercased() == target.lowercased() { return destination.name }
    guard column.count > target.count, column.lowercased().hasSuffix(target.lowercased()) else {
      return nil
    }
    var head = column.dropLast(target.count)
    while let last = head.last, last == "_" || last == " " || last == "-" { head = head.dropLast() }
    return head.isEmpty ? nil : String(head)
  }

  private static func key(_ schema: String?, _ name: String) -> String {
    "\(schema ?? "")\u{1}\(name)"
  }

  /// An entity while it is built.
  struct Draft {
    var table: Catalog.Table
    var entityName: String
    var attributes: [Attribute] = []
    var columnToAttribute: [String: String] = [:]
    var relationships: [Relationship] = []
    var taken: Set<String> = []

    /// To-ones (in foreign key order), then to-manys, each flattened many-to-many right
    /// after the link table's to-many it goes through.
    var orderedRelationships: [Relationship] {
      let flattened = relationships.filter(\.isFlattened)
      var ordered = relationships.filter { !$0.isToMany }
      for toMany in relationships where toMany.isToMany && !toMany.isFlattened {
        ordered.append(toMany)
        ordered += flattened.filter { $0.definition.first == toMany.name }
      }
      return ordered
    }
  }
}
