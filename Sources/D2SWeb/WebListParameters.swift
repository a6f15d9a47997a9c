import Components
import D2SModel
import EnvKeys
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
  /// `after=` and `before=`, as given: read against the list's identity, which needs the
  /// page's own qualifier (``request(database:auxiliary:)``).
  let afterToken: String?
  let beforeToken: String?
  /// How the URL's names are matched against the model.
  private let names: WebNames

  /// The largest `offset=`: far beyond any list, and far from overflowing a row number.
  static let maximumOffset = 1_000_000_000

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
    self.names = names
  }

  /// The position `name=` holds, read for `identity`: a position of this list whose values
  /// fit its columns.
  private func position(_ name: String, _ token: String?, in identity: ListIdentity) throws
    -> [DatabaseValue]?
  {
    guard let token else { return nil }
    guard !entity.primaryKeyAttributes.isEmpty else {
      throw WebError(.badRequest, "\(name): \(entity.name) has no key to page by")
    }
    let values: [DatabaseValue]
    do {
      values = try ListPosition(token: token, in: identity).values
    } catch let error as PositionTokenError {
      throw WebError(.badRequest, "\(name): \(error.message)")
    }
    let width = orderings.count + entity.primaryKeyAttributes.count
    guard values.count == width else {
      throw WebError(
        .badRequest, "\(name): a position of this list has \(width) values, not \(values.count)")
    }
    let types =
      try orderings.map { try names.valueType(of: $0.keyPath, from: entity) }
      + entity.primaryKeyAttributes.map { Optional($0.valueType) }
    for (value, type) in zip(values, types) where !Self.fits(value, type) {
      throw WebError(.badRequest, "\(name): a value of the position does not fit its column")
    }
    return values
  }

  /// Whether a position's `value` can be compared with a column of `type` (nil: any).
  static func fits(_ value: DatabaseValue, _ type: Attribute.ValueType?) -> Bool {
    guard let type else { return true }
    switch (type, value) {
    case (_, .null), (_, .verbatim): return true
    // Positions read back from a database may come as text, which it converts to the column's
    // type when it compares; such text must read as that type.
    case (.int, .string(let text)): return Int(text) != nil
    case (.double, .string(let text)), (.decimal, .string(let text)): return Double(text) != nil
    case (.bool, .string(let text)):
      return ["t", "f", "true", "false", "0", "1"].contains(text.lowercased())
    case (.date, .string), (.data, .string), (.array, .string): return true
    case (.int, .int), (.string, .string), (.bool, .bool), (.date, .date), (.data, .data):
      return true
    case (.double, .double), (.double, .int), (.double, .decimal): return true
    case (.decimal, .decimal), (.decimal, .int), (.decimal, .double): return true
    case (.bool, .int): return true
    default: return false
    }
  }

  /// The list request: the window after `after=`, or the `limit` rows before `before=`
  /// (found by reading them backwards), or at `offset=`; with the window's real start (the
  /// first window, when fewer than `limit` rows come before the position).
  func request(database: Database, auxiliary: Qualifier?) throws -> WebWindow {
    let start = ListRequest(qualifier: qualifier, sortOrderings: orderings, limit: limit)
    let identity = start.identity(of: entity, auxiliary: auxiliary)
    if let after = try position("after", afterToken, in: identity) {
      var window = start
      window.keyset = .after(after)
      window.offset = offset
      return WebWindow(list: window, offset: offset, positioned: true, identity: identity)
    }
    if let before = try position("before", beforeToken, in: identity) {
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
      path: path, whereText: whereText, orderText: orderText, orderings: orderings,
      limit: limitGiven ? limit : nil, window: limit, offset: window.offset,
      positioned: window.positioned, identity: window.identity)
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
