import Dispatch
import EnvKeys
import Synchronization

/// Counts that never hold a page up: the database's own estimates, and counts run on a
/// second connection while the page's rows are read.
extension Database {
  /// The database's estimate of the rows in `entityName`'s table (see
  /// ``DatabaseAdaptor/estimatedRowCount(of:)``), or nil.
  public func estimatedCount(of entityName: String) throws -> Int? {
    try adaptor.estimatedRowCount(of: try entity(entityName))
  }

  /// Starts counting the rows `specification` selects on the second connection, a step at a
  /// time so that the rows reached so far are known; nil when the database has no second
  /// connection (then count here, with ``count(_:)``).
  public func startCount(_ specification: FetchSpecification) throws -> BackgroundCount? {
    let entity = try entity(specification.entityName)
    guard let reader = side.reader(opening: adaptor) else { return nil }
    let task = BackgroundCount()
    // The count's statements run with the caller's dependencies (its SQL logger).
    let dependencies = DependencyValues.current
    side.queue.async { [model] in
      reader.interrupt { task.isCancelled || Interruption.isRequested }
      DependencyValues.$current.withValue(dependencies) {
        do {
          try Self.count(specification, of: entity, in: model, on: reader, into: task)
        } catch {
          task.end(total: nil)
        }
      }
    }
    return task
  }

  /// Counts on `reader`: in steps along the primary key when it has one column (each step
  /// twice the last, up to a million rows), else in one statement.
  private static func count(
    _ specification: FetchSpecification, of entity: Entity, in model: Model,
    on reader: any DatabaseAdaptor, into task: BackgroundCount
  ) throws {
    func builder() -> SQLBuilder {
      SQLBuilder(
        dialect: reader.dialect, model: model, entity: entity,
        encode: { reader.encode($0, for: $1) })
    }
    guard entity.primaryKeyAttributes.count == 1 else {
      var count = 0
      var select = builder()
      try reader.query(try select.select(specification, count: true), columns: [nil]) {
        count = $0.first?.intValue ?? 0
      }
      task.add(count)
      return task.end(total: count)
    }
    // An integer key with more than one value is counted in ranges of keys, whose share of
    // the whole range says how much of the table each step has walked.
    var range: (low: Int, high: Int)?
    if let key = entity.primaryKeyAttributes.first, key.valueType == .int {
      let select = builder()
      try reader.query(try select.keyRange(), columns: [nil, nil]) { row in
        if let low = row.first?.intValue, let high = row.last?.intValue, high > low {
          range = (low, high)
        }
      }
    }
    if let range {
      return try countByKeyRange(specification, range, builder, on: reader, into: task)
    }
    var after: DatabaseValue?
    var step = 10_000
    while !task.isCancelled {
      var counted = 0
      var last: DatabaseValue = .null
      var select = builder()
      try reader.query(
        try select.countStep(specification, after: after, limit: step),
        columns: [nil, select.positionDecoding]
      ) { row in
        counted = row.first?.intValue ?? 0
        last = row.count > 1 ? row[1] : .null
      }
      task.add(counted)
      if counted < step || last.isNull { return task.end(total: task.reached) }
      after = last
      step = min(step * 2, 1_000_000)
    }
    task.end(total: nil)
  }

  /// Counts along an integer key whose least and greatest values are `range`: in ranges of
  /// keys, each twice as wide as the last (10,000 keys first), the last without an upper
  /// bound (rows added since the range was read count too). A plain count over a key range
  /// reads the table as fast as one count of it, where steps of so many selected rows each
  /// (a subquery with a limit) took about a quarter longer.
  private static func countByKeyRange(
    _ specification: FetchSpecification, _ range: (low: Int, high: Int),
    _ builder: () -> SQLBuilder, on reader: any DatabaseAdaptor, into task: BackgroundCount
  ) throws {
    var after: Int?
    var width = 10_000
    while !task.isCancelled {
      // The keys above `after` up to `upper` (from the least key, first); overflow is the end.
      let (upper, overflow) =
        after.map { $0.addingReportingOverflow(width) }
        ?? range.low.addingReportingOverflow(width - 1)
      let last = overflow || upper >= range.high
      var counted = 0
      var select = builder()
      try reader.query(
        try select.countRange(specification, after: after, through: last ? nil : upper),
        columns: [nil]
      ) { row in
        counted = row.first?.intValue ?? 0
      }
      task.add(counted)
      if last { return task.end(total: task.reached) }
      task.progressed(
        (Double(upper) - Double(range.low)) / (Double(range.high) - Double(range.low)))
      after = upper
      width = width.multipliedReportingOverflow(by: 2).overflow ? Int.max : width * 2
    }
    task.end(total: nil)
  }
}

/// The second connection a database counts on, opened on first use and kept, with the
/// queue its work runs on (one count at a time).
final class SideConnection: Sendable {
  /// Where counts run, one after another.
  let queue = DispatchQueue(label: "d2s.side-connection")
  private let state = Mutex<
    (opened: Bool, reader: (any DatabaseAdaptor)?, failed: ContinuousClock.Instant?)
  >((false, nil, nil))

  /// After an open that failed, how long until it is tried again.
  static let retryAfter = Duration.seconds(1)

  /// The reader, opened from `adaptor` the first time (nil when it has none, or could not
  /// open one now: then counts run on the first connection). An open that failed (a server
  /// at its connection limit, or restarting) is tried again after ``retryAfter``, never kept.
  func reader(opening adaptor: any DatabaseAdaptor) -> (any DatabaseAdaptor)? {
    state.withLock { state in
      if !state.opened {
        if let failed = state.failed, ContinuousClock.now < failed + Self.retryAfter {
          return nil
        }
        do {
          state.reader = try adaptor.openReader()
          state.opened = true
          state.failed = nil
        } catch {
          state.failed = .now
        }
      }
      return state.reader
    }
  }
}
