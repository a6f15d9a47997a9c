import EnvKeys
import Foundation

extension Database {
  /// Options for a save: further columns to stamp with the current time.
  public struct SaveOptions: Sendable {
    /// Attribute set to now when the object is inserted.
    public var creationTimestampKey: String?
    /// Attribute set to now whenever the object is saved.
    public var updateTimestampKey: String?
    /// Attributes that must still hold their fetched values for an update to apply, besides
    /// the changed ones (an agent's `seen` values: the lock of what it read).
    public var lockedAttributes: [String]
    /// Options naming the timestamp properties a save sets (none by default), and the
    /// attributes it locks besides the changed ones.
    public init(
      creationTimestampKey: String? = nil, updateTimestampKey: String? = nil,
      lockedAttributes: [String] = []
    ) {
      self.creationTimestampKey = creationTimestampKey
      self.updateTimestampKey = updateTimestampKey
      self.lockedAttributes = lockedAttributes
    }
  }

  /// Inserts a new object or updates a fetched one, in one transaction, then refetches its row
  /// (triggers change values).
  ///
  /// Updates apply only while the changed columns still hold their fetched values (optimistic
  /// locking); otherwise a `conflict` error, and nothing changes. On any error the transaction
  /// rolls back and the object keeps its pending changes.
  public func save(_ object: DatabaseObject, options: SaveOptions = SaveOptions()) throws {
    do {
      try reportingNothingSaved { try saveChanges(object, options: options) }
    } catch let error as DatabaseError where error.code == .outcomeUnknown {
      throw refetchAfterUnknownOutcome(object, error)
    }
  }

  /// After a COMMIT whose outcome is unknown: the COMMIT is never sent again; the row is
  /// fetched again, pending changes it now holds are dropped and the others stay pending.
  /// Returns the error to report, which says which.
  func refetchAfterUnknownOutcome(_ object: DatabaseObject, _ error: DatabaseError) -> DatabaseError
  {
    var error = error
    let name = "\(object.entity.name) \(object.isNew ? "(new)" : object.primaryKeyDescription)"
    guard !object.isNew else {
      error.message += "; \(name) may have been inserted: look for it before saving again"
      return error
    }
    do {
      guard let row = try fetchRow(object.entity, primaryKey: object.snapshotPrimaryKeyValues)
      else {
        error.message += "; \(name) no longer exists"
        return error
      }
      let (applied, pending) = object.refetch(row)
      error.message +=
        "; \(name) was fetched again: "
        + (applied.isEmpty
          ? "no change is in the database"
          : "in the database now: \(applied.joined(separator: ", "))")
        + (pending.isEmpty
          ? ", nothing is pending"
          : ", still pending: \(pending.joined(separator: ", ")) (save again)")
    } catch let failure {
      error.message +=
        "; \(name) could not be fetched again (\(failure)): its changes are still pending"
    }
    return error
  }

  /// Adds "nothing was saved" to failures of the database itself (a lock held too long, a
  /// full disk, an I/O error): the transaction was rolled back.
  func reportingNothingSaved(_ body: () throws -> Void) throws {
    do {
      try body()
    } catch var error as DatabaseError
      where [.locked, .full, .io, .connection].contains(error.code)
    {
      error.message += "; nothing was saved"
      throw error
    }
  }

  private func saveChanges(_ object: DatabaseObject, options: SaveOptions) throws {
    let entity = object.entity
    guard !entity.isReadOnly else {
      throw DatabaseError(
        .readOnly,
        "\(entity.name) is read-only (\(entity.isView ? "a view" : "no primary key")); it cannot be saved"
      )
    }
    try requireWritable("nothing was saved")
    try throwFailedRead()
    for (attribute, value) in object.pendingChanges {
      if let reason = adaptor.refusal(of: adaptor.encode(value, for: attribute), for: attribute) {
        throw DatabaseError(.invalidValue, "\(attribute.name): \(reason); nothing was saved")
      }
    }
    @Dependency(\.clock) var clock
    let now = clock.now
    var changes = object.pendingChanges
    func stamp(_ key: String?) throws {
      guard let key else { return }
      guard let attribute = entity.attribute(named: key) else {
        throw DatabaseError(.invalidValue, "\(entity.name) has no attribute '\(key)' to stamp")
      }
      changes.removeAll { $0.0 === attribute }
      changes.append((attribute, .date(now)))
    }
    if object.isNew {
      try stamp(options.creationTimestampKey)
      try stamp(options.updateTimestampKey)
      // A NOT NULL date/time column with no default and no value gets now (Sakila's last_update).
      for attribute in entity.attributes
      where attribute.valueType == .date && !attribute.allowsNull && attribute.defaultValue == nil
        && !attribute.isGenerated && !changes.contains(where: { $0.0 === attribute })
      {
        changes.append((attribute, .date(now)))
      }
      let values = try adaptor.transaction { () throws -> [DatabaseValue] in
        let key = try insert(entity, changes)
        guard let row = try fetchRow(entity, primaryKey: key) else {
          throw DatabaseError(
            .notFound,
            "the new \(entity.name) row could not be read back by its key (a rule or trigger may have redirected it); nothing was saved"
          )
        }
        return row
      }
      object.reset(to: values)
    } else {
      guard !changes.isEmpty else { return }
      try stamp(options.updateTimestampKey)
      let values = try adaptor.transaction { () throws -> [DatabaseValue] in
        try update(object, changes, locking: options.lockedAttributes)
        guard let row = try fetchRow(entity, primaryKey: object.primaryKeyValues) else {
          throw DatabaseError(
            .notFound, "\(entity.name) \(object.primaryKeyDescription) could not be read back")
        }
        return row
      }
      object.reset(to: values)
    }
  }

  /// Deletes a fetched object, only if every column still holds its fetched value (compared
  /// in SQL, or as fetched on the row read under the delete's lock).
  public func delete(_ object: DatabaseObject) throws {
    let entity = object.entity
    guard !entity.isReadOnly else {
      throw DatabaseError(.readOnly, "\(entity.name) is read-only; its rows cannot be deleted")
    }
    try requireWritable("nothing was deleted")
    guard !object.isNew else { return }
    try throwFailedRead()
    let snapshot = object.snapshotValues
    let conditions = entity.attributes.enumerated().filter { $0.element.isComparable }.map {
      index, attribute in
      stillHolds(attribute, snapshot[index])
    }
    guard !conditions.isEmpty else {
      throw DatabaseError(
        .unsupported,
        "\(entity.name) has no column whose value can be compared in SQL; nothing was deleted")
    }
    let statement = adaptor.dialect.statement(SQLDelete(from: table(entity), where: conditions))
    do {
      try adaptor.transaction {
        try checkUncompared(object, entity.attributes.filter { !$0.isComparable && !$0.isRowID })
        let count = try adaptor.execute(statement)
        guard count == 1 else { throw conflict(object, count: count) }
      }
    } catch var error as DatabaseError where error.code == .foreignKey {
      error.message =
        "\(entity.name) \(object.primaryKeyDescription) cannot be deleted: other rows refer to it (\(error.message))"
      throw error
    }
  }

  private func conflict(_ object: DatabaseObject, count: Int) -> DatabaseError {
    count == 0
      ? DatabaseError(
        .conflict,
        "conflict: \(object.entity.name) \(object.primaryKeyDescription) was changed or deleted since it was fetched; nothing was saved (revert to fetch it again)"
      )
      : DatabaseError(
        .conflict,
        "\(object.entity.name) \(object.primaryKeyDescription) matched \(count) rows; nothing was saved"
      )
  }

  private func insert(_ entity: Entity, _ changes: [(Attribute, DatabaseValue)]) throws
    -> [DatabaseValue]
  {
    let values = changes.filter { !($0.0.isAutoIncrement && $0.1.isNull) }
    let encoded = values.map { ($0.0, adaptor.encode($0.1, for: $0.0)) }
    guard !entity.primaryKeyAttributes.isEmpty else {
      // A row without a key has none to read back.
      try adaptor.execute(adaptor.dialect.statement(SQLInsert(into: entity, values: encoded)))
      return []
    }
    let key = try adaptor.insert(into: entity, values: encoded)
    // Keys given explicitly win over what the database reports.
    return entity.primaryKeyAttributes.enumerated().map { index, attribute in
      values.first { $0.0 === attribute }?.1 ?? (index < key.count ? key[index] : .null)
    }
  }

  private func update(
    _ object: DatabaseObject, _ changes: [(Attribute, DatabaseValue)], locking locked: [String]
  ) throws {
    let entity = object.entity
    // A date is written in the form the row already stores it in (an epoch number, ISO with
    // `T` and `Z`, a day only), when D2S recognises that form.
    let assignments = changes.map { attribute, value in
      var value = value
      if case .date(let date) = value, attribute.valueType == .date {
        let stored = object.snapshotValue(forAttribute: attribute.name) ?? .null
        value = DateForms.value(date, in: DateForms.form(of: stored), kind: attribute.dateKind)
      }
      return (column: attribute.columnName, value: adaptor.encode(value, for: attribute))
    }
    var conditions = keyConditions(object)
    // A row addressed by its rowid (which VACUUM may renumber) must still hold every value
    // fetched, not only the changed ones.
    let byRowID = entity.primaryKeyAttributes.contains { $0.isRowID }
    let extra = locked.compactMap { name in
      entity.attribute(named: name).flatMap { attribute in
        changes.contains { $0.0 === attribute } ? nil : (attribute, DatabaseValue.null)
      }
    }
    let compared =
      byRowID
      ? entity.attributes.filter { !$0.isRowID }.map { ($0, DatabaseValue.null) }
      : changes + extra
    for (attribute, _) in compared where attribute.isComparable {
      let fetched = object.snapshotValue(forAttribute: attribute.name) ?? .null
      conditions.append(stillHolds(attribute, fetched))
    }
    try checkUncompared(object, compared.map(\.0).filter { !$0.isComparable })
    let count = try adaptor.execute(
      adaptor.dialect.statement(SQLUpdate(table(entity), set: assignments, where: conditions)))
    guard count == 1 else { throw conflict(object, count: count) }
  }

  /// Compares `attributes` (floating point, arrays: SQL cannot compare them exactly in a
  /// WHERE) with their fetched values on the row as it is now, read inside the save's
  /// transaction under its lock (SQLite's transaction holds the write lock; PostgreSQL's row
  /// is read `FOR UPDATE`), decoded as a fetch decodes it: a change made meanwhile is a
  /// conflict.
  private func checkUncompared(_ object: DatabaseObject, _ attributes: [Attribute]) throws {
    guard !attributes.isEmpty else { return }
    var select = SQLSelect(
      attributes.map { .identifier($0.columnName) }, from: SQLSource(table(object.entity)))
    select.conditions = keyConditions(object)
    // Without a key the row cannot be told apart (such an entity is read-only anyway).
    guard !select.conditions.isEmpty else { throw conflict(object, count: 0) }
    select.locksRows = true
    var current: [DatabaseValue]?
    try adaptor.query(adaptor.dialect.statement(select), columns: attributes) { current = $0 }
    guard let current else { throw conflict(object, count: 0) }
    for (attribute, now) in zip(attributes, current) {
      let fetched = object.snapshotValue(forAttribute: attribute.name) ?? .null
      guard Self.sameStoredValue(fetched, now) else { throw conflict(object, count: 0) }
    }
  }

  /// `entity`'s table.
  private func table(_ entity: Entity) -> SQLExpression {
    .table(entity.externalName, schema: entity.schema)
  }

  /// `"pk" = ?` for each primary key column, bound to the values `object` was fetched with.
  private func keyConditions(_ object: DatabaseObject) -> [SQLExpression] {
    zip(object.entity.primaryKeyAttributes, object.snapshotPrimaryKeyValues).map {
      attribute, value in
      .compare(
        .identifier(attribute.columnName), .equal, .bind(adaptor.encode(value, for: attribute)))
    }
  }

  /// `"column" IS ?` (null-safe): the column still holds `fetched`.
  private func stillHolds(_ attribute: Attribute, _ fetched: DatabaseValue) -> SQLExpression {
    .compare(
      .identifier(attribute.columnName), .nullSafeEqual,
      .bind(adaptor.encode(fetched, for: attribute)))
  }

  /// Whether two values read from the same column are the same stored value (a NaN is
  /// the same NaN).
  static func sameStoredValue(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
    if case .double(let x) = a, case .double(let y) = b { return x.bitPattern == y.bitPattern }
    return a == b
  }

  func fetchRow(_ entity: Entity, primaryKey: [DatabaseValue]) throws -> [DatabaseValue]? {
    try fetchObject(entity.name, primaryKey: primaryKey)?.snapshotValues
  }
}
