import Components
import D2SModel
import EnvKeys
import Qualifiers

/// The URLs of one page's links: objects, relationships, sorted and paged lists. Every link
/// is an absolute path, with names and keys percent-encoded.
public struct WebLinks: Sendable {
  /// The database's name, shown in every page's header.
  public var databaseName: String
  /// The model names resolve in.
  public var model: Model
  /// The page's entity.
  public var entity: Entity?
  /// The inspected object's key (inspect pages).
  public var objectKey: [DatabaseValue]?
  /// The list's parameters (list pages).
  public var list: WebListQuery?
  /// Whether the user may reach an entity (nil: every one): a to-one's cells link only into
  /// one they may.
  public var reaches: (@Sendable (String) -> Bool)?
  /// Those of the columns' keys the list may be sorted by (nil: every one): only those
  /// columns' headers are links. Asked once per table, with every column's key.
  public var sorts: (@Sendable ([String]) -> Set<String>)?
  /// The logged-in user, as shown in the header.
  package var userName: String?
  /// The session's CSRF token (the logout form's).
  package var csrf: String?
  /// Where the page's Log in link returns to (`next=`): a list as its links keep it (its
  /// search, filter, facets and order; never a filter that could not be used), else the
  /// object's page, else the entity's list, else the entity list.
  package var returnPath: String {
    if let list { return list.url([]) }
    if let entity, let objectKey, let path = Self.objectPath(entity.name, key: objectKey) {
      return path
    }
    return entity.map { Self.entityPath($0.name) } ?? "/"
  }
  /// The edit form the page is, when it is one.
  package var form: WebForm?
  /// The attributes the edit form has inputs for.
  package var editable: Set<String> = []
  /// The object's edit page, when the user may edit it.
  package var editPath: String?
  /// The object's delete confirm page, when the user may delete it.
  package var deletePath: String?
  /// The form for a new object of the list's entity, when the user may add one.
  package var newPath: String?
  /// The links page of the many-to-many a list shows, when the user may change its links.
  package var linksPath: String?
  /// A one-time message above the page (`Saved.` after a save led to it).
  package var notice: String?
  /// Whether the edit form offers "Save and continue editing" beside Save.
  package var continues = false
  /// The trail above the page's title: (label, path) of each page above this one, the entity
  /// list first (`Entities › Films › ACADEMY DINOSAUR`); empty on the entity list.
  package var breadcrumb: [(label: String, path: String)] = []
  /// What a list row's link adds to its object's path (`/-/edit` when `nextTask` is edit).
  package var rowSuffix = ""
  /// The page's own path when it shows "why?" links (`?explain=1`, for a user the rules let
  /// see explanations): each label's and the title's lead to `/-/why`.
  package var explainedPage: String?

  /// The explanation page of the property `key` of this page (nil: of the page itself), when
  /// the page shows explanations.
  package func whyPath(_ key: String?) -> String? {
    guard let page = explainedPage else { return nil }
    return "/-/why?" + HTML.query([("page", page)] + (key.map { [("property", $0)] } ?? []))
  }

  /// ` <a class="why" …>why?</a>` after a label, or nothing.
  package func whyLink(_ key: String?, label: String) -> String {
    guard let path = whyPath(key) else { return "" }
    return
      " <a class=\"why\" href=\"\(HTML.escape(path))\" aria-label=\"Why is \(HTML.escape(label)) as it is?\">why?</a>"
  }

  /// Links for a page.
  public init(
    databaseName: String, model: Model, entity: Entity? = nil, objectKey: [DatabaseValue]? = nil,
    list: WebListQuery? = nil, reaches: (@Sendable (String) -> Bool)? = nil
  ) {
    self.reaches = reaches
    self.databaseName = databaseName
    self.model = model
    self.entity = entity
    self.objectKey = objectKey
    self.list = list
  }

  /// `/ENTITY`.
  public static func entityPath(_ name: String) -> String { "/" + HTML.pathSegment(name) }

  /// `/ENTITY/K1,K2`: each key part percent-encoded, the parts joined by literal commas.
  public static func objectPath(_ entity: String, key: [DatabaseValue]) -> String? {
    guard !key.isEmpty, !key.contains(where: \.isNull) else { return nil }
    return entityPath(entity) + "/" + keySegment(encoded: key.map(keyPart).joined(separator: ","))
  }

  /// A key value as a part of a URL segment, percent-encoded: ``keyText(_:)``, or the bytes
  /// of text that is not UTF-8 (`%FFa`), which the server reads back as those bytes.
  public static func keyPart(_ value: DatabaseValue) -> String {
    if case .textBytes(let data) = value { return PercentEncoding.encode(bytes: Array(data)) }
    return HTML.pathSegment(keyText(value))
  }

  /// A key's values as one URL segment, each percent-encoded, joined by commas (`1,3402`,
  /// `INV%2F2024`). A segment a URL would read as something else (empty: the list; `-`: the
  /// entity's own pages; `.` and `..`: removed by browsers), or that starts with `~`, is
  /// written with a `~` first, which ``keyText(ofSegment:)`` takes off.
  public static func keySegment(_ texts: [String]) -> String {
    keySegment(encoded: texts.map(HTML.pathSegment).joined(separator: ","))
  }

  /// ``keySegment(_:)`` of values already percent-encoded and joined.
  static func keySegment(encoded segment: String) -> String {
    switch segment {
    case "", "-", ".", "..": return "~" + segment
    default: return segment.hasPrefix("~") ? "~" + segment : segment
    }
  }

  /// The key's values of a URL segment ``keySegment(_:)`` wrote, still percent-encoded.
  public static func keyText(ofSegment segment: Substring) -> Substring {
    segment.hasPrefix("~") ? segment.dropFirst() : segment
  }

  /// A key value as typed in a URL (`42`, `INV/2024/0001`).
  public static func keyText(_ value: DatabaseValue) -> String {
    switch value {
    case .string(let text), .verbatim(let text): text
    case .int(let number): "\(number)"
    case .decimal(let number): "\(number)"
    case .bool(let flag): flag ? "true" : "false"
    case .date(let date): ISODateText.format(date)
    default: value.storedText()
    }
  }

  /// The link of a to-one's destination, given the foreign key `value` shown in its cell.
  public func toOnePath(_ key: String, value: DatabaseValue) -> String? {
    guard !value.isNull, let destination = toOneDestination(key) else { return nil }
    return Self.objectPath(destination, key: [value])
  }

  /// The entity a column of `key` links its cells to, when it is a to-one whose foreign key
  /// is its destination's whole key, and the user may reach that entity.
  func toOneDestination(_ key: String) -> String? {
    guard let entity, let relationship = entity.relationship(named: key),
      !relationship.isToMany, relationship.joins.count == 1,
      let destination = model.entity(named: relationship.destinationName),
      reaches?(destination.name) ?? true,
      destination.primaryKeyAttributeNames == [relationship.joins[0].destination]
    else { return nil }
    return destination.name
  }

  /// The link of an action a page offers (an entity's list, a relationship followed), or nil
  /// when it has none on the web (the pager's and a form's have their own).
  public func path(of action: PageAction) -> String? {
    switch action {
    case .list(let entity):
      return Self.entityPath(entity)
    case .follow(let relationship):
      guard let entity, let key = objectKey, let base = Self.objectPath(entity.name, key: key),
        entity.relationship(named: relationship) != nil
      else { return nil }
      return base + "/" + HTML.pathSegment(relationship)
    case .choose, .set, .next, .previous:
      return nil
    }
  }
}

/// A list page's parameters as the URL gave them, for the links that keep them (sorting,
/// paging, the filter form).
public struct WebListQuery: Sendable {
  /// The path of the list (`/Film`, `/Film/1/actors`).
  public var path: String
  /// `where=`, as typed.
  public var whereText: String
  /// `q=`, the search box's words, as typed.
  public var searchText: String
  /// Why the filter typed (`whereText`) could not be used, shown beside it; the list is then
  /// shown without it.
  public var filterError: String?
  /// `order=`, as typed.
  public var orderText: String
  /// The orderings `order=` means, matched against the model.
  public var orderings: [SortOrdering]
  /// `limit=`, when given (links then keep it).
  public var limit: Int?
  /// The window's size (`limit=`, or the default).
  public var window: Int
  /// The first shown row's number, from 0.
  public var offset: Int
  /// Whether the window starts after a position (not at the list's start).
  public var positioned: Bool
  /// The list's identity, which the pager's positions are bound to.
  public var identity: ListIdentity
  /// `facet=`: the facets asked for besides the rules' (kept in links).
  public var facetKeys: [String]
  /// `where.KEY=LITERAL`: the facet values chosen (kept in links, each with a link that
  /// removes it).
  public var chosenFacets: [(key: String, literal: String)]

  /// The parameters of a list page.
  public init(
    path: String, whereText: String = "", searchText: String = "", orderText: String = "",
    orderings: [SortOrdering] = [],
    limit: Int? = nil, window: Int = 50, offset: Int = 0, positioned: Bool = false,
    identity: ListIdentity, facetKeys: [String] = [],
    chosenFacets: [(key: String, literal: String)] = []
  ) {
    self.facetKeys = facetKeys
    self.chosenFacets = chosenFacets
    self.identity = identity
    self.window = window
    self.path = path
    self.whereText = whereText
    self.searchText = searchText
    self.orderText = orderText
    self.orderings = orderings
    self.limit = limit
    self.offset = offset
    self.positioned = positioned
  }

  /// The list with `extra` parameters after `where` and `limit` (and `order`, unless `extra`
  /// sets it).
  func url(_ extra: [(String, String)], keepOrder: Bool = true) -> String {
    // Written as it goes, with no array of the parameters: a list page makes a link of each
    // sortable column and of its pager.
    var url = path
    var separator = "?"
    func add(_ name: String, _ value: String) {
      HTML.appendQueryParameter(name, value, after: separator, to: &url)
      separator = "&"
    }
    if !searchText.isEmpty { add("q", searchText) }
    // A filter that could not be used is only in the form, never in a link.
    if !whereText.isEmpty, filterError == nil { add("where", whereText) }
    for facet in chosenFacets { add("where." + facet.key, facet.literal) }
    if keepOrder, !orderText.isEmpty { add("order", orderText) }
    if let limit { add("limit", String(limit)) }
    if !facetKeys.isEmpty { add("facet", facetKeys.joined(separator: ",")) }
    for (name, value) in extra { add(name, value) }
    return url
  }

  /// The whole list as CSV, as searched, filtered and sorted (no window): the download link.
  public var csvURL: String {
    var copy = self
    copy.limit = nil
    return copy.url([("format", "csv")])
  }

  /// The list narrowed to the facet value `literal` of `key` (replacing a value of it chosen
  /// before), from its first window.
  func chooseURL(_ key: String, _ literal: String) -> String {
    var copy = self
    copy.chosenFacets.removeAll { $0.key == key }
    copy.chosenFacets.append((key, literal))
    return copy.url([])
  }

  /// The list without the chosen value of facet `key`.
  func unchooseURL(_ key: String) -> String {
    var copy = self
    copy.chosenFacets.removeAll { $0.key == key }
    return copy.url([])
  }

  /// The list without its search (`q=`), or without its filter (`where=`): a "Clear" link.
  func clearedURL(search: Bool) -> String {
    var copy = self
    if search { copy.searchText = "" } else { copy.whereText = "" }
    return copy.url([])
  }

  /// The list sorted by `key`: ascending, or descending when it is already sorted ascending
  /// by it.
  func sortURL(_ key: String) -> String {
    let descending = orderings.first.map { $0.keyPath == key && $0.ascending } ?? false
    return url([("order", descending ? "\(key) desc" : key)], keepOrder: false)
  }

  /// `ascending` or `descending` when the list is sorted by `key` first.
  func sortState(_ key: String) -> String? {
    guard let first = orderings.first, first.keyPath == key else { return nil }
    return first.ascending ? "ascending" : "descending"
  }

  /// The longest position a link carries; a longer one (a list sorted by long text) moves
  /// by offset, which a URL can always hold.
  static let maximumPositionBytes = 2_048

  /// The next window's link: after the last row shown (`rows`, its display group's `shown`
  /// window), when more follow (`more`, when the rows were read one past the window).
  func nextURL(shown: Int, rows: ListWindow?, more: Bool? = nil) -> String? {
    let limit = window
    guard shown > 0 else { return nil }
    if let rows {
      guard let next = rows.next(offset: offset, in: identity) else { return nil }
      // A position too long for a URL (a sort by long text): by offset.
      guard next.token.utf8.count <= Self.maximumPositionBytes else {
        return url([("offset", String(next.offset))])
      }
      return url([("after", next.token), ("offset", String(next.offset))])
    }
    guard shown == limit, more != false else { return nil }
    return url([("offset", String(offset + limit))])
  }

  /// The previous window's link: before the first row shown (of `rows`, the display group's
  /// `shown` window), when the window is not the first.
  func previousURL(rows: ListWindow?) -> String? {
    let limit = window
    guard offset > 0 || positioned else { return nil }
    if let previous = rows?.previous(
      offset: offset, limit: limit, positioned: positioned, in: identity),
      previous.token.utf8.count <= Self.maximumPositionBytes
    {
      return url([("before", previous.token), ("offset", "\(previous.offset)")])
    }
    let previous = max(0, offset - limit)
    return previous == 0 ? url([]) : url([("offset", "\(previous)")])
  }
}
