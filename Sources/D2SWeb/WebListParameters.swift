import Components
import D2SApplication
import D2SHTML
import D2SModel
import EnvKeys
import Qualifiers

/// A list URL's parameters: `where=` (the REPL's qualifier text), `order=`, `limit=`, and
/// the window's start: `after=` / `before=` a row's position (keyset paging), with `offset=`
/// numbering its rows (or, alone, moving by offset).
struct WebListParameters {
  let entity: Entity
  let whereText: String
  /// `q=`: the search box's words.
  let searchText: String
  let orderText: String
  /// `where=`, parsed and matched to the entity's properties.
  let typedQualifier: Qualifier?
  let qualifier: Qualifier?
  let orderings: [SortOrdering]
  let limit: Int
  let limitGiven: Bool
  let offset: Int
  /// `after=` and `before=`, as given: read against the list's identity, which needs the
  /// page's own qualifier (``request(database:auxiliary:)``).
  let afterToken: String?
  let beforeToken: String?
  /// The search through the entity's full-text index, when it has one for the searched
  /// properties (then `q=` is not in ``qualifier``).
  let fullText: FullTextSearch?
  /// `facet=`: the properties whose facets are asked for, beside the rules' (matched names).
  let facetKeys: [String]
  /// `where.KEY=LITERAL`: the facet values chosen, each narrowing the list (`where.rating='PG'`).
  let chosenFacets: [(key: String, literal: String)]

  /// The conditions of the facet values `chosen` (`where.KEY=LITERAL`), once the facets
  /// `asked` for (`facet=`) and chosen are checked against the list's facets (the rules' and
  /// those asked for); none, and no facet worked out, when neither is in the request.
  /// - Throws: a 400 naming a facet that cannot be counted, too many facets, or a value that
  ///   is not a facet's.
  static func narrowing(
    asked: [String], chosen: [(key: String, literal: String)], entity: Entity, names: ModelNames
  ) throws -> [Qualifier] {
    guard !asked.isEmpty || !chosen.isEmpty else { return [] }
    var listContext = names.context
    listContext.entity = entity
    listContext.task = "list"
    let plan = FacetPlan(
      keys: listContext.facetPropertyKeys + asked + chosen.map(\.key), context: listContext)
    for key in asked where !plan.keys.contains(key) {
      guard plan.keys.count < FacetPlan.facetLimit else {
        throw WebError(
          .badRequest,
          "facet: at most \(FacetPlan.facetLimit) facets at once, the rules' included (\(plan.keys.joined(separator: ", ")))"
        )
      }
      throw WebError(
        .badRequest,
        "facet: \(key) cannot be counted (an attribute, or a to-one whose key is one column)")
    }
    var narrowing: [Qualifier] = []
    for (key, literal) in chosen {
      guard let facet = plan.qualifier(key: key, literal: literal) else {
        throw WebError(.badRequest, "where.\(key): not a facet's value of \(entity.name)")
      }
      narrowing.append(facet)
    }
    return narrowing
  }

  /// The largest `offset=`: far beyond any list, and far from overflowing a row number.
  static let maximumOffset = 1_000_000_000

  init(
    _ parameters: [(String, String)], entity: Entity, names: ModelNames,
    configuration: WebApplication.Configuration
  ) throws {
    func value(_ name: String) -> String? {
      parameters.last { $0.0 == name }.flatMap { $0.1.isEmpty ? nil : $0.1 }
    }
    self.entity = entity
    whereText = value("where")?.trimmingWhitespace ?? ""
    searchText = value("q")?.trimmingWhitespace ?? ""
    orderText = value("order")?.trimmingWhitespace ?? ""
    let typed =
      whereText.isEmpty
      ? nil : try names.qualifier(try QualifierParser.parse(whereText), from: entity)
    if let typed { try names.requireBoundedWork(typed, from: entity) }
    typedQualifier = typed
    // The search looks only in what the pages show (never a password).
    var search: Qualifier?
    var fullText: FullTextSearch?
    if !searchText.isEmpty {
      var searchContext = names.context
      searchContext.entity = entity
      searchContext.task = "list"
      let keys = searchContext.searchKeys.compactMap {
        try? names.path(KVCPath($0), from: entity, toAttribute: true).description
      }
      // Through the entity's full-text index when it holds the searched columns, ranked.
      (search, fullText) = SearchText(searchText).conditions(keys: keys, of: entity)
      // Bounded as a typed filter is: searched keys across a to-many make subqueries.
      if let search { try names.requireBoundedWork(search, from: entity) }
    }
    self.fullText = fullText
    // Facets: asked for by `facet=` (repeated, or names separated by commas), and chosen
    // values by `where.KEY=LITERAL`, counted and narrowed as the rules' facets are.
    var asked: [String] = []
    for text in parameters.filter({ $0.0 == "facet" }).flatMap({ $0.1.split(separator: ",") }) {
      let key = String(text).trimmingWhitespace
      guard !key.isEmpty else { continue }
      let matched: KVCPath
      do {
        matched = try names.path(KVCPath(key), from: entity, for: .order)
      } catch {
        throw WebError(.badRequest, "facet: \(error.message)")
      }
      if !asked.contains(matched.description) { asked.append(matched.description) }
    }
    guard asked.count <= FacetPlan.facetLimit else {
      throw WebError(
        .badRequest, "facet: at most \(FacetPlan.facetLimit) facets can be asked for at once")
    }
    var chosen: [(key: String, literal: String)] = []
    for (name, literal) in parameters where name.hasPrefix("where.") && !literal.isEmpty {
      let key: String
      do {
        key = try names.path(
          KVCPath(String(name.dropFirst("where.".count))), from: entity, for: .order
        )
        .description
      } catch {
        throw WebError(.badRequest, "\(name): \(error.message)")
      }
      chosen.removeAll { $0.key == key }
      chosen.append((key, literal))
    }
    facetKeys = asked
    chosenFacets = chosen
    let narrowing = try Self.narrowing(asked: asked, chosen: chosen, entity: entity, names: names)
    let parts = [typed, search].compactMap { $0 } + narrowing
    qualifier = parts.isEmpty ? nil : parts.count == 1 ? parts[0] : .and(parts)
    orderings = orderText.isEmpty ? [] : try names.orderings(orderText, from: entity)
    try Self.requireHops(
      (qualifier?.keyPaths.map(\.components) ?? [])
        + orderings.map {
          $0.keyPath.split(separator: ".").map(String.init)
        }, from: entity, model: names.model, limit: configuration.maximumToManyHops)
    if let text = value("limit") {
      guard let number = Int(text), (1...configuration.maximumLimit).contains(number) else {
        throw WebError(
          .badRequest, "limit: expected a number from 1 to \(configuration.maximumLimit)")
      }
      limit = number
      limitGiven = true
    } else {
      limit = configuration.defaultLimit
      limitGiven = false
    }
    if let text = value("offset") {
      guard let number = Int(text), (0...Self.maximumOffset).contains(number) else {
        throw WebError(
          .badRequest, "offset: expected a number from 0 to \(Self.maximumOffset)")
      }
      offset = number
    } else {
      offset = 0
    }
    afterToken = value("after")
    beforeToken = value("before")
    if afterToken != nil, beforeToken != nil {
      throw WebError(.badRequest, "after and before cannot be given together")
    }
  }

  /// Throws 400 when one of `paths` crosses more than `limit` to-many relationships: each
  /// hop can multiply the rows a statement looks at (`--max-to-many-hops`).
  static func requireHops(_ paths: [[String]], from entity: Entity, model: Model, limit: Int)
    throws
  {
    for path in paths where model.toManyHops(path, from: entity) > limit {
      throw WebError(
        .badRequest,
        "\(path.joined(separator: ".")) crosses \(model.toManyHops(path, from: entity)) to-many relationships; this server allows \(limit) (--max-to-many-hops)"
      )
    }
  }

  /// The position `name=` holds, read for `start`'s list: a position of this list whose values
  /// fit its columns.
  private func position(
    _ name: String, _ token: String?, of start: ListRequest, auxiliary: Qualifier?,
    model: Model
  ) throws -> [DatabaseValue]? {
    guard let token else { return nil }
    do {
      return try start.position(token, of: entity, auxiliary: auxiliary, in: model)
    } catch let error as PositionTokenError {
      throw WebError(.badRequest, "\(name): \(error.message)")
    }
  }

  /// The list request: the window after `after=`, or the `limit` rows before `before=`
  /// (found by reading them backwards), or at `offset=`; with the window's real start (the
  /// first window, when fewer than `limit` rows come before the position).
  func request(database: Database, auxiliary: Qualifier?) throws -> WebWindow {
    var start = ListRequest(qualifier: qualifier, sortOrderings: orderings, limit: limit)
    start.fullText = fullText
    let identity = start.identity(of: entity, auxiliary: auxiliary)
    if let after = try position(
      "after", afterToken, of: start, auxiliary: auxiliary, model: database.model)
    {
      var window = start
      window.keyset = .after(after)
      window.offset = offset
      return WebWindow(list: window, offset: offset, positioned: true, identity: identity)
    }
    if let before = try position(
      "before", beforeToken, of: start, auxiliary: auxiliary, model: database.model)
    {
      let rows = DisplayGroup.Rows(database: database, entity: entity, auxiliary: auxiliary)
      // No row before the position: the list's first window.
      let window =
        try DisplayGroup.window(endingBefore: before, of: start, numberedFrom: offset, in: rows)
        ?? start
      return WebWindow(
        list: window, offset: window.offset, positioned: window.keyset != nil, identity: identity)
    }
    var window = start
    window.offset = offset
    return WebWindow(list: window, offset: offset, positioned: false, identity: identity)
  }

  /// The parameters the page's links keep.
  func query(path: String, window: WebWindow) -> WebListQuery {
    WebListQuery(
      path: path, whereText: whereText, searchText: searchText, orderText: orderText,
      orderings: orderings,
      limit: limitGiven ? limit : nil, window: limit, offset: window.offset,
      positioned: window.positioned, identity: window.identity, facetKeys: facetKeys,
      chosenFacets: chosenFacets)
  }

}

extension String {
  /// The text without leading and trailing spaces, tabs and line breaks.
  var trimmingWhitespace: String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}

/// The window a list URL asks for, as it will be read: its request, the number of its first
/// row, and whether it starts at a row's position rather than the list's start.
struct WebWindow {
  let list: ListRequest
  let offset: Int
  let positioned: Bool
  /// The list's identity, which its positions are bound to.
  let identity: ListIdentity
}
