import Components
import D2SModel
import Qualifiers

/// A list URL's parameters: `where=` (the REPL's qualifier text), `order=`, `limit=`, and
/// the window's start: `after=` / `before=` a row's position (keyset paging), with `offset=`
/// numbering its rows (or, alone, moving by offset).
struct WebListParameters {
  let entity: Entity
  let whereText: String
  let orderText: String
  let qualifier: Qualifier?
  let orderings: [SortOrdering]
  let limit: Int
  let limitGiven: Bool
  let offset: Int
  let after: [DatabaseValue]?
  let before: [DatabaseValue]?

  init(
    _ parameters: [(String, String)], entity: Entity, names: WebNames,
    configuration: WebApplication.Configuration
  ) throws {
    func value(_ name: String) -> String? {
      parameters.last { $0.0 == name }.flatMap { $0.1.isEmpty ? nil : $0.1 }
    }
    self.entity = entity
    whereText = value("where")?.trimmingWhitespace ?? ""
    orderText = value("order")?.trimmingWhitespace ?? ""
    qualifier =
      whereText.isEmpty
      ? nil : try names.qualifier(try QualifierParser.parse(whereText), from: entity)
    orderings = orderText.isEmpty ? [] : try names.orderings(orderText, from: entity)
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
      guard let number = Int(text), number >= 0 else {
        throw WebError(.badRequest, "offset: expected a number of 0 or more")
      }
      offset = number
    } else {
      offset = 0
    }
    let width = orderings.count + entity.primaryKeyAttributes.count
    func position(_ name: String) throws -> [DatabaseValue]? {
      guard let text = value(name) else { return nil }
      guard !entity.primaryKeyAttributes.isEmpty else {
        throw WebError(.badRequest, "\(name): \(entity.name) has no key to page by")
      }
      let values = try PositionToken.decode(text)
      guard values.count == width else {
        throw WebError(
          .badRequest, "\(name): a position of this list has \(width) values, not \(values.count)")
      }
      return values
    }
    after = try position("after")
    before = try position("before")
    if after != nil, before != nil {
      throw WebError(.badRequest, "after and before cannot be given together")
    }
  }

  /// The list request: the window after `after=`, or the `limit` rows before `before=`
  /// (found by reading them backwards), or at `offset=`.
  func request(database: Database, auxiliary: Qualifier?) throws -> ListRequest {
    if let after {
      return ListRequest(
        qualifier: qualifier, sortOrderings: orderings, limit: limit, offset: offset,
        keyset: .after(after))
    }
    guard let before else {
      return ListRequest(
        qualifier: qualifier, sortOrderings: orderings, limit: limit, offset: offset)
    }
    let parts = [qualifier, auxiliary].compactMap { $0 }
    var specification = FetchSpecification(
      entityName: entity.name, qualifier: parts.isEmpty ? nil : .all(parts),
      sortOrderings: orderings, limit: limit, keyset: .before(before))
    specification.limit = limit
    var anchor: [DatabaseValue]?
    var rows = 0
    let keyCount = entity.primaryKeyAttributes.count
    try database.fetchRows(
      specification, attributes: entity.primaryKeyAttributes, paths: [], positions: true
    ) { values in
      anchor = Array(values.dropFirst(keyCount))
      rows += 1
    }
    // Fewer rows than a window before the position: the list's first window.
    guard rows == limit, let anchor else {
      return ListRequest(qualifier: qualifier, sortOrderings: orderings, limit: limit)
    }
    return ListRequest(
      qualifier: qualifier, sortOrderings: orderings, limit: limit, offset: offset,
      keyset: .from(anchor))
  }

  /// The parameters the page's links keep.
  func query(path: String, positions: ListPositions) -> WebListQuery {
    WebListQuery(
      path: path, whereText: whereText, orderText: orderText, orderings: orderings,
      limit: limitGiven ? limit : nil, window: limit, offset: offset,
      positioned: after != nil || before != nil,
      positions: positions)
  }
}

extension String {
  /// The text without leading and trailing spaces, tabs and line breaks.
  var trimmingWhitespace: String {
    String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
