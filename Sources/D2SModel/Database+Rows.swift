import EnvKeys
import Qualifiers

extension Database {
  /// Streams the rows `specification` selects without making objects (the fast path of list
  /// pages): each row holds the entity's `attributes` (all of them, in model order, when nil),
  /// then the value at each of `paths`, read in the same statement through LEFT JOINs. Paths
  /// must cross only to-one relationships and end at an attribute. With `positions`, each row
  /// ends with its position: the values of the orderings and the primary key, raw, as a
  /// ``KeysetBound`` takes them. Ctrl-C stops it at the next row. With `readAhead`, the rows
  /// are read on a second thread a few batches ahead of `row` (see `RowReadAhead`): the caller
  /// must not use this database until the call returns.
  ///
  /// With `counting`, the rows `counting` selects are counted in the same round trip when the
  /// adaptor can send two statements at once (PostgreSQL's pipeline): that count, or nil
  /// when it was not made (then ``count(_:)`` makes it). Never read ahead.
  ///
  /// With `tallying` (when ``sortsEverySelectedRow(_:attributes:paths:positions:)`` said so),
  /// the rows the statement selects are counted as its sort takes them in (SQLite's
  /// `d2s_tally()`): every row its qualifier selects, whatever its window; that count, or nil
  /// when the adaptor cannot. Never read ahead.
  @discardableResult
  public func fetchRows(
    _ specification: FetchSpecification, attributes: [Attribute]? = nil, paths: [PropertyPath],
    positions: Bool = false, readAhead: Bool = false, counting: FetchSpecification? = nil,
    tallying: Bool = false, row: ([DatabaseValue]) throws -> Void
  ) throws -> Int? {
    let (statement, columns) = try rowsStatement(
      specification, attributes: attributes, paths: paths, positions: positions,
      tallying: tallying)
    if tallying {
      return try adaptor.query(statement, columns: columns, tallying: true) { values in
        try Interruption.check()
        try row(values)
      }
    }
    if let counting {
      let count = try countStatement(counting)
      let each: ([DatabaseValue]) throws -> Void = { values in
        try Interruption.check()
        try row(values)
      }
      // A count of the whole table may be answered from an earlier one (see the adaptor's
      // `query(_:columns:countingRowsOf:with:row:)`); a qualified count is made every time.
      if counting.qualifier == nil, counting.fullText == nil {
        return try adaptor.query(
          statement, columns: columns, countingRowsOf: try entity(counting.entityName),
          with: count, row: each)
      }
      return try adaptor.query(statement, columns: columns, followedBy: count, row: each)?
        .first?.first?.intValue
    }
    guard readAhead else {
      try adaptor.query(statement, columns: columns) { values in
        try Interruption.check()
        try row(values)
      }
      return nil
    }
    if let adaptor = adaptor as? any SplitRowReading {
      try self.readAhead(statement, columns: columns, splittingWith: adaptor, row: row)
      return nil
    }
    let adaptor = self.adaptor
    try RowReadAhead.run(
      produce: { (queue: RowReadAhead.Queue<[[DatabaseValue]]>) in
        var batch: [[DatabaseValue]] = []
        batch.reserveCapacity(RowReadAhead.batchSize)
        try adaptor.query(statement, columns: columns) { values in
          try Interruption.check()
          try queue.checkCancelled()
          batch.append(values)
          if batch.count == RowReadAhead.batchSize {
            try queue.push(batch)
            batch.removeAll(keepingCapacity: true)
          }
        }
        if !batch.isEmpty { try queue.push(batch) }
      },
      consume: { (batch: [[DatabaseValue]]) in
        for values in batch { try row(values) }
      })
    return nil
  }

  /// Whether the rows' statement for `specification` (as ``fetchRows(_:attributes:paths:positions:readAhead:counting:tallying:row:)``
  /// makes it) sorts every row it selects, so that `tallying` counts them in the same scan.
  public func sortsEverySelectedRow(
    _ specification: FetchSpecification, attributes: [Attribute]? = nil, paths: [PropertyPath],
    positions: Bool = false
  ) throws -> Bool {
    let (statement, _) = try rowsStatement(
      specification, attributes: attributes, paths: paths, positions: positions, tallying: false)
    return try adaptor.sortsEverySelectedRow(statement)
  }

  /// The rows' statement of ``fetchRows(_:attributes:paths:positions:readAhead:counting:tallying:row:)``
  /// and its columns' attributes: kept (``RowsStatements``) when it is worth keeping.
  func rowsStatement(
    _ specification: FetchSpecification, attributes: [Attribute]?, paths: [PropertyPath],
    positions: Bool, tallying: Bool
  ) throws -> (SQLStatement, [Attribute?]) {
    guard
      let key = RowsStatements.key(
        specification, attributes: attributes, paths: paths, positions: positions,
        tallying: tallying)
    else {
      return try makeRowsStatement(
        specification, attributes: attributes, paths: paths, positions: positions,
        tallying: tallying)
    }
    return try rowsStatements.statement(
      key, attributes: attributes,
      make: {
        try makeRowsStatement(
          specification, attributes: attributes, paths: paths, positions: positions,
          tallying: tallying)
      },
      keeps: { (try? entity(specification.entityName))?.hasDetails == true })
  }

  /// ``rowsStatement(_:attributes:paths:positions:tallying:)`` made anew.
  func makeRowsStatement(
    _ specification: FetchSpecification, attributes: [Attribute]?, paths: [PropertyPath],
    positions: Bool, tallying: Bool
  ) throws -> (SQLStatement, [Attribute?]) {
    let entity = try entity(specification.entityName)
    var builder = builder(for: entity)
    var extra: [SQLExpression] = []
    // Mapped, not converted: `[Attribute]` as `[Attribute?]` casts each element dynamically.
    var columns: [Attribute?] = (attributes ?? entity.attributes).map { $0 }
    columns.reserveCapacity(columns.count + paths.count)
    for path in paths {
      let (column, attribute) = try builder.column(KVCPath(path.keyPath))
      extra.append(column)
      columns.append(attribute)
    }
    let statement = try builder.select(
      specification, attributes: attributes, extraColumns: extra, positions: positions,
      tallying: tallying)
    if positions {
      let keys = specification.sortOrderings.count + builder.entity.primaryKeyAttributes.count
      columns += Array(repeating: builder.positionDecoding, count: keys)
    }
    return (statement, columns)
  }

  /// Read-ahead where the reader steps and copies rows out, and decodes them only while this
  /// thread is behind: the decoding goes to whichever thread has time for it.
  private func readAhead<Adaptor: SplitRowReading>(
    _ statement: SQLStatement, columns: [Attribute?], splittingWith adaptor: Adaptor,
    row: ([DatabaseValue]) throws -> Void
  ) throws {
    try RowReadAhead.run(
      produce: { (queue: RowReadAhead.Queue<SplitBatch<Adaptor.RawRows>>) in
        try adaptor.readRaw(
          statement, columns: columns, batchSize: RowReadAhead.batchSize,
          eachRow: {
            try Interruption.check()
            try queue.checkCancelled()
          },
          emit: { rows in
            // A batch still waiting: the caller is behind, so decode this one here.
            guard queue.waiting > 0 else { return try queue.push(.raw(rows)) }
            var decoded: [[DatabaseValue]] = []
            decoded.reserveCapacity(RowReadAhead.batchSize)
            try adaptor.decode(rows, columns: columns) { decoded.append($0) }
            try queue.push(.decoded(decoded))
          })
      },
      consume: { batch in
        switch batch {
        case .raw(let rows): try adaptor.decode(rows, columns: columns, row: row)
        case .decoded(let rows): for values in rows { try row(values) }
        }
      })
  }

  /// ``fetchRows(_:attributes:paths:positions:readAhead:counting:tallying:row:)`` with an object for each row when `objects` is true
  /// (then `attributes` are ignored: an object has them all), made from the row's attributes, and handed on in chunks of `chunk` rows whose `prefetch` key paths
  /// are fetched together (one query per relationship per chunk, never per row).
  @discardableResult
  public func fetchRows(
    _ specification: FetchSpecification, attributes: [Attribute]? = nil, paths: [PropertyPath],
    positions: Bool = false, objects: Bool, prefetch: [String] = [], chunk: Int = 1000,
    readAhead: Bool = false, counting: FetchSpecification? = nil, tallying: Bool = false,
    row: ([DatabaseValue], DatabaseObject?) throws -> Void
  ) throws -> Int? {
    guard objects else {
      return try fetchRows(
        specification, attributes: attributes, paths: paths, positions: positions,
        readAhead: readAhead, counting: counting, tallying: tallying
      ) { try row($0, nil) }
    }
    let entity = try entity(specification.entityName)
    let count = entity.attributes.count
    var pending: [([DatabaseValue], DatabaseObject)] = []
    pending.reserveCapacity(chunk)
    func flush() throws {
      try self.prefetch(prefetch, for: pending.map(\.1))
      for (values, object) in pending { try row(values, object) }
      pending.removeAll(keepingCapacity: true)
    }
    let total = try fetchRows(
      specification, paths: paths, positions: positions, counting: counting, tallying: tallying
    ) { values in
      pending.append(
        (
          values,
          DatabaseObject(entity: entity, database: self, values: Array(values.prefix(count)))
        ))
      if pending.count == chunk { try flush() }
    }
    try flush()
    return total
  }
}

/// A batch of rows read ahead: raw, for the caller's thread to decode, or decoded already.
private enum SplitBatch<RawRows: Sendable>: Sendable {
  case raw(RawRows)
  case decoded([[DatabaseValue]])
}
