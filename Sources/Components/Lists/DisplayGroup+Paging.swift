import D2SModel
import EnvKeys
import Qualifiers

/// Moving a list's window: after the last row shown or before the first, by the rows'
/// positions (keyset paging), so page k costs what page 1 costs and rows inserted or deleted
/// meanwhile neither repeat nor skip others. A list whose window recorded no positions (no
/// primary key, a look's own fetch) moves by offset. The REPL's `next` and `prev` (through the
/// last page's display group) and the web's `before=` links go through here.
extension DisplayGroup {
  /// Where a list is read: its database, entity and page's own qualifier (a to-many's).
  public struct Rows: Sendable {
    /// The database the rows are in.
    public let database: Database
    /// The listed entity.
    public let entity: Entity
    /// The page's own qualifier, combined with the user's (``ListRequest/rows(of:auxiliary:)``).
    public let auxiliary: Qualifier?

    /// The rows of `entity` in `database`, filtered also by `auxiliary`.
    public init(database: Database, entity: Entity, auxiliary: Qualifier?) {
      self.database = database
      self.entity = entity
      self.auxiliary = auxiliary
    }
  }

  /// The window after the one the rows were read into; nil at the list's end (looking again
  /// for rows inserted since, when the window said none followed).
  public func next() throws -> ListRequest? {
    try Self.window(after: request, shown: shown, in: rows)
  }

  /// The window before the one the rows were read into; nil at the list's start.
  public func previous() throws -> ListRequest? {
    try Self.window(before: request, shown: shown, in: rows)
  }

  /// The window after `request`'s, which was `shown`; nil at the list's end (looking again
  /// for rows inserted since, when the window said none followed). Without a shown window's
  /// positions, by offset.
  public static func window(after request: ListRequest, shown: ListWindow?, in rows: Rows)
    throws -> ListRequest?
  {
    guard let limit = request.limit, limit > 0 else { return nil }
    var next = request
    if let shown {
      guard try shown.more || hasRows(request, in: rows, .after(shown.last)) else { return nil }
      next.keyset = .after(shown.last)
      next.offset += shown.rows
    } else {
      guard request.keyset == nil,
        try hasRows(request, in: rows, nil, offset: request.offset + limit)
      else { return nil }
      next.offset += limit
    }
    return next
  }

  /// The window before `request`'s, which was `shown`; nil at the list's start. Without a
  /// shown window's positions, by offset.
  public static func window(before request: ListRequest, shown: ListWindow?, in rows: Rows)
    throws -> ListRequest?
  {
    guard let limit = request.limit, limit > 0, request.offset > 0 || request.keyset != nil
    else { return nil }
    if let shown {
      return try window(
        endingBefore: shown.first, of: request, numberedFrom: max(0, request.offset - limit),
        in: rows)
    }
    var previous = request
    previous.keyset = nil
    previous.offset = max(0, request.offset - limit)
    return previous
  }

  /// The window of `request.limit` rows that ends just before `position`, its first row
  /// numbered `offset`: the list's first window when no more rows precede the position; nil
  /// when none do.
  public static func window(
    endingBefore position: [DatabaseValue], of request: ListRequest, numberedFrom offset: Int,
    in rows: Rows
  ) throws -> ListRequest? {
    guard let limit = request.limit, limit > 0 else { return nil }
    var specification = request.rows(of: rows.entity, auxiliary: rows.auxiliary)
    specification.keyset = .before(position)
    // One row more than the window: whether any row precedes it, so that a window with
    // nothing before it is the list's first (no Previous link back to itself).
    specification.limit = limit + 1
    let keyCount = rows.entity.primaryKeyAttributes.count
    var anchor: [DatabaseValue]?
    var count = 0
    try rows.database.fetchRows(
      specification, attributes: rows.entity.primaryKeyAttributes, paths: [], positions: true
    ) { values in
      count += 1
      if count == limit { anchor = Array(values.dropFirst(keyCount)) }
    }
    guard count > 0 else { return nil }
    var window = request
    guard count > limit, let anchor else {
      window.keyset = nil
      window.offset = 0
      return window
    }
    window.keyset = .from(anchor)
    window.offset = max(0, offset)
    return window
  }

  /// Whether the list has a row after `keyset` (or at `offset`).
  private static func hasRows(
    _ request: ListRequest, in rows: Rows, _ keyset: KeysetBound?, offset: Int = 0
  ) throws -> Bool {
    var specification = request.rows(of: rows.entity, auxiliary: rows.auxiliary)
    specification.keyset = keyset
    specification.limit = 1
    specification.offset = offset == 0 ? nil : offset
    var found = false
    try rows.database.fetchRows(
      specification, attributes: Array(rows.entity.attributes.prefix(1)), paths: []
    ) { _ in found = true }
    return found
  }
}
