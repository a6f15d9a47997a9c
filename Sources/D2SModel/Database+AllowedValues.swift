extension Database {
  /// The values `attribute`'s column allows (a `CHECK (column IN (…))` list in SQLite, an
  /// enum type's labels in PostgreSQL), or nil when it names none: read from the catalog once
  /// per connection, as the model is, not on every form that shows the column.
  ///
  /// - Throws: the adaptor's error when the catalog cannot be read (nothing is kept then).
  public func allowedValues(of attribute: Attribute, in entity: Entity) throws -> [String]? {
    let key = entity.name + "\u{1F}" + attribute.name
    if let known = allowed.withLock({ $0[key] }) { return known }
    let values = try adaptor.allowedValues(of: attribute, in: entity)
    allowed.withLock { $0[key] = .some(values) }
    return values
  }
}
