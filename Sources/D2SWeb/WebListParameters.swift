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
    let orderings = self.orderings
    let width = orderings.count + entity.primaryKeyAttributes.count
    let types =
      try orderings.map { try names.valueType(of: $0.keyPath, from: entity) }
      + entity.primaryKeyAttributes.map { Optional($0.valueType) }
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
      for (value, type) in zip(values, types) where !Self.fits(value, type) {
        throw WebError(.badRequest, "\(name): a value of the position does not fit its column")
      }
      return values
    }
    after = try position("after")
    before = try position("before")
    if after != nil, before != nil {
      throw WebError(.badRequest, "after and before cannot be given together")
    }
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
    if let after {
      return WebWindow(
        list: ListRequest(
          qualifier: qualifier, sortOrderings: orderings, limit: limit, offset: offset,
          keyset: .after(after)), offset: offset, positioned: true)
    }
    guard let before else {
      return WebWindow(
        list: ListRequest(
          qualifier: qualifier, sortOrderings: orderings, limit: limit, offset: offset),
        offset: offset, positioned: false)
    }
    let parts = [qualifier, auxiliary].compactMap { $0 }
    let specification = FetchSpecification(
      entityName: entity.name, qualifier: parts.isEmpty ? nil : .all(parts),
      sortOrderings: orderings, limit: limit, keyset: .before(before))
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
      return WebWindow(
        list: ListRequest(qualifier: qualifier, sortOrderings: orderings, limit: limit),
        offset: 0, positioned: false)
    }
    let start = max(0, offset)
    return WebWindow(
      list: ListRequest(
        qualifier: qualifier, sortOrderings: orderings, limit: limit, offset: start,
        keyset: .from(anchor)), offset: start, positioned: true)
  }

  /// The parameters the page's links keep.
  func query(path: String, window: WebWindow) -> WebListQuery {
    WebListQuery(
      path: path, whereText: whereText, orderText: orderText, orderings: orderings,
      limit: limitGiven ? limit : nil, window: limit, offset: window.offset,
      positioned: window.positioned, positions: window.list.positions)
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
}
