import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

/// A list's data in one place, as upstream's display group: the fetch specification, the
/// window, the objects and the total. Any look's list page renders the same rows from it,
/// without building a fetch of its own.
///
/// The total never holds the page up: a table below `exactCountRowLimit` rows (by the
/// database's estimate) is counted exactly; an unfiltered list of a larger one shows the
/// estimate; a filtered one is counted on a second connection while the rows are read, and
/// the page waits for that count only as long as its rows took (at least 20 ms, or
/// `countTimeBudget` milliseconds), then shows the rows it reached as a lower bound.
public final class DisplayGroup: @unchecked Sendable {
  /// The database fetched from.
  public let database: Database
  /// What is listed.
  public let entity: Entity
  /// The fetch: the user's qualifier with the page's auxiliary one, orderings, window (an
  /// offset, or a keyset position) and the key paths the columns show (prefetched).
  public let specification: FetchSpecification
  /// The window's first row, as numbered for the footer.
  public let offset: Int
  /// What was asked for: the user's qualifier, orderings and window.
  public let request: ListRequest
  /// Where the rows are read (for ``next()`` and ``previous()``).
  public let rows: Rows
  /// Where the window the rows were read into began and ended; nil before they are read, and
  /// for a window without positions (no primary key, no limit) or without rows. Like the rest
  /// of a group, it belongs to the thread that renders the page (the one reading the rows,
  /// and then the footer); read it once the page is rendered.
  public private(set) var shown: ListWindow?
  /// Whether rows followed the window read last (its one row more was there); nil before the
  /// rows are read. Known for every window, positioned or not: a window moved by offset
  /// (a view, a ranked search) has its Next link only when rows follow.
  public private(set) var hasMore: Bool?

  private let exactCountRowLimit: Int
  private let countTimeBudget: Int?
  private var plan: CountPlan?
  private var backgroundCount: BackgroundCount?
  /// The total, counted in the rows' round trip or by their sort (see
  /// ``forEachRow(attributes:paths:objects:prefetch:queries:_:)``).
  private var countedWithRows: Int?
  private var rowsStarted = ContinuousClock.now

  /// How the total is found.
  private enum CountPlan {
    /// The list has no window: its rows are the total.
    case shown
    /// Counted after the rows, on the same connection (a small table), or with them.
    case exact
    /// The database's estimate (an unfiltered list of a large table).
    case estimate(Int)
    /// Counted on the second connection, beside the rows (or from their first one on), and
    /// waited for only so long.
    case background
    /// Not counted (`countTimeBudget = 0`): the rows up to the window's end.
    case lowerBound
  }

  /// The list `request` asks for in `context` (its `entity`, `auxiliaryQualifier`,
  /// `displayPropertyKeys`, `exactCountRowLimit` and `countTimeBudget`).
  public init(context: RuleContext, request: ListRequest) throws {
    guard let entity = context.entity else {
      throw DatabaseError(.invalidValue, "no entity to list")
    }
    guard let database = context.database else {
      throw DatabaseError(.invalidValue, "no database is open")
    }
    // Without a primary key rows have no positions: such a list pages by offset; so does a
    // list ranked by a full-text search (its rank is no column).
    let ranked = request.fullText != nil && request.sortOrderings.isEmpty
    let keyset = entity.primaryKeyAttributes.isEmpty || ranked ? nil : request.keyset
    self.database = database
    self.entity = entity
    self.offset = request.offset
    self.request = request
    let auxiliary = context.auxiliaryQualifier
    self.rows = Rows(database: database, entity: entity, auxiliary: auxiliary)
    self.exactCountRowLimit = context.exactCountRowLimit
    self.countTimeBudget = context.countTimeBudget
    var specification = request.rows(of: entity, auxiliary: auxiliary)
    specification.limit = request.limit
    specification.offset = keyset != nil || request.offset == 0 ? nil : request.offset
    specification.prefetchKeyPaths = context.displayPropertyKeys
    specification.keyset = keyset
    self.specification = specification
  }

  deinit { backgroundCount?.cancel() }

  /// Stops a background count still running (its page is rendered: no footer waits for it),
  /// so that a group kept for `next` holds no connection busy.
  func stopCounting() { backgroundCount?.cancel() }

  /// The window's size, if any.
  public var limit: Int? { specification.limit }

  /// The objects in the window, fetched with the columns' relationships.
  public func objects() throws -> [DatabaseObject] {
    try database.fetch(specification)
  }

  /// Streams the window's rows: the entity's `attributes` (all, when nil or when rows come with
  /// objects), then the values at `paths` (joined in the same statement), then, when the
  /// entity has a primary key, the row's position; with an object per row when `objects` is
  /// true (their `prefetch` relationships fetched a chunk at a time). Nothing is held beyond a
  /// chunk. The window's first and last positions are recorded (``shown``) for ``next()`` and
  /// ``previous()``.
  ///
  /// `queries` says whether `body` may query the database: then rows are never read ahead.
  public func forEachRow(
    attributes: [Attribute]? = nil, paths: [PropertyPath], objects: Bool, prefetch: [String],
    queries: Bool = false, _ body: ([DatabaseValue], DatabaseObject?) throws -> Void
  ) throws {
    shown = nil
    hasMore = nil
    try startCounting()
    let width = specification.sortOrderings.count + entity.primaryKeyAttributes.count
    // Positions serve `next` and `prev`, which move windows: a whole list has none to read.
    let positioned =
      !entity.primaryKeyAttributes.isEmpty && specification.limit != nil
      && !(specification.fullText != nil && specification.sortOrderings.isEmpty)
    // One row more than the window, not shown, says whether `next` has a window to go to.
    var fetch = specification
    fetch.limit = specification.limit.map { $0 + 1 }
    var first: [DatabaseValue]?
    var last: [DatabaseValue] = []
    var rows = 0
    var more = false
    // A whole list (script mode) whose rows need no objects is read a few batches ahead on
    // a second thread: no count starts while it streams, and nothing here queries.
    var readAhead = false
    if !objects, !queries, specification.limit == nil, case .shown? = plan { readAhead = true }
    // A small table's unfiltered count goes with the rows when the database can send both at
    // once (PostgreSQL's pipeline): one wait for the server, not two. Unfiltered only: a
    // filtered window that is not full needs no count, and its count would scan again.
    let counting: FetchSpecification? =
      if case .exact? = plan, specification.qualifier == nil, specification.fullText == nil {
        countSpecification
      } else {
        nil
      }
    // A filtered list of a large table whose statement sorts every row it selects (SQLite:
    // no index gives its order) counts them as its sort takes them in: one scan, not a
    // second one beside it. Not for a keyset window, whose statement selects only the rows
    // past its bound.
    var tallying = false
    if case .background? = plan, specification.keyset == nil, !readAhead {
      tallying = try database.sortsEverySelectedRow(
        fetch, attributes: objects ? nil : attributes, paths: paths, positions: positioned)
    }
    if !tallying, case .background? = plan, database.adaptor.countsBesideStatements {
      try startBackgroundCount()
    }
    rowsStarted = .now
    // An earlier window's count never answers for this one, even when this read fails.
    countedWithRows = nil
    countedWithRows = try database.fetchRows(
      fetch, attributes: objects ? nil : attributes, paths: paths,
      positions: positioned, objects: objects, prefetch: prefetch, readAhead: readAhead,
      counting: counting, tallying: tallying
    ) { values, object in
      if let limit = specification.limit, rows == limit {
        more = true
        return
      }
      if rows == 0 {
        if positioned { first = Array(values.suffix(width)) }
        if !tallying { try startBackgroundCount() }
      }
      // The last row's positions copied into an array of their own: holding the row's values
      // would make the adaptor allocate the next row's anew. Written over the row before's
      // in place, not removed and appended again through the array's generic code.
      if positioned {
        let kept = min(width, values.count)
        let start = values.count - kept
        if last.count == kept {
          for place in last.indices { last[place] = values[start + place] }
        } else {
          last = Array(values[start...])
        }
      }
      rows += 1
      try body(values, object)
    }
    if tallying, countedWithRows == nil { try startBackgroundCount() }
    hasMore = more
    guard positioned, let first else { return }
    shown = ListWindow(first: first, last: last, rows: rows, more: more)
  }

  /// The total, given that `shown` rows were read: exact, estimated or a lower bound.
  public func total(shown: Int) throws -> ListTotal {
    try startCounting()
    let seen = offset + shown
    // A window that is not full, reached by offset, ends the list.
    if specification.keyset == nil, shown > 0, let limit, shown < limit {
      return ListTotal(seen)
    }
    switch plan {
    case .shown: return ListTotal(shown)
    case .estimate(let estimate): return ListTotal(max(estimate, seen), .estimate)
    case .background:
      // Tallied by the rows' own sort.
      if let countedWithRows {
        backgroundCount?.cancel()
        return ListTotal(countedWithRows)
      }
      try startBackgroundCount()
      guard let count = backgroundCount else {
        return ListTotal(try database.count(countSpecification))
      }
      if let total = wait(for: count) { return ListTotal(total) }
      count.cancel()
      return ListTotal(max(count.reached, seen), .atLeast)
    case .lowerBound: return ListTotal(seen, .atLeast)
    case .exact, nil: return ListTotal(try countedWithRows ?? database.count(countSpecification))
    }
  }

  /// What the total counts: the qualified rows, without window or order.
  private var countSpecification: FetchSpecification {
    var count = FetchSpecification(entityName: entity.name, qualifier: specification.qualifier)
    count.fullText = specification.fullText
    return count
  }

  /// Chooses how to find the total. A background count is started by the rows (before them, or
  /// at their first, unless their sort counts them) or by ``total(shown:)``.
  private func startCounting() throws {
    guard plan == nil else { return }
    if specification.limit == nil, specification.offset == nil, specification.keyset == nil {
      plan = .shown
      return
    }
    let estimate = try database.estimatedCount(of: entity.name)
    if let estimate, estimate < exactCountRowLimit {
      plan = .exact
    } else if let estimate, specification.qualifier == nil, specification.fullText == nil {
      plan = .estimate(estimate)
    } else if countTimeBudget == 0 {
      plan = .lowerBound
    } else {
      plan = .background
    }
  }

  /// Starts the background count, once, when the plan is to count in the background (on
  /// the first connection, later, when the database has no second one).
  private func startBackgroundCount() throws {
    guard case .background = plan, backgroundCount == nil else { return }
    backgroundCount = try database.startCount(countSpecification)
    if backgroundCount == nil { plan = .exact }
  }

  /// Waits for `count`: `countTimeBudget` when set; else at least 20 ms, and then on as long
  /// as the rows took while the count, as far as it has gone, looks like ending within that
  /// time. Its total, or nil.
  private func wait(for count: BackgroundCount) -> Int? {
    if let budget = countTimeBudget { return count.wait(upTo: .milliseconds(budget)) }
    let floor = Duration.milliseconds(20)
    let budget = max(rowsStarted.duration(to: .now), floor)
    let start = ContinuousClock.now
    if let total = count.wait(upTo: floor) { return total }
    while true {
      let waited = start.duration(to: .now)
      guard waited < budget else { return nil }
      if let remaining = count.remaining, remaining > budget - waited { return nil }
      if let total = count.wait(upTo: min(.milliseconds(10), budget - waited)) { return total }
    }
  }
}
