import D2SModel

extension PostgreSQLAdaptor {
  /// An enum column's labels, in their order.
  public func allowedValues(of attribute: Attribute, in entity: Entity) throws -> [String]? {
    guard attribute.needsTextCast else { return nil }
    var labels: [String] = []
    try query(
      SQLStatement(
        raw:
          """
          SELECT e.enumlabel FROM pg_attribute a JOIN pg_enum e ON e.enumtypid = a.atttypid
          WHERE a.attrelid = to_regclass($1) AND a.attname = $2 ORDER BY e.enumsortorder
          """,
        [
          .string(dialect.quote(table: entity.externalName, schema: entity.schema)),
          .string(attribute.columnName),
        ]), columns: [nil]
    ) { row in row.first?.stringValue.map { labels.append($0) } }
    return labels.isEmpty ? nil : labels
  }

  /// `ON DELETE` of the foreign key, from `pg_constraint`.
  public func deleteAction(ofForeignKey columns: [String], in entity: Entity) throws
    -> DeleteAction?
  {
    var action: DeleteAction?
    try query(
      SQLStatement(
        raw:
          """
          SELECT c.confdeltype::text,
            (SELECT string_agg(a.attname, chr(31) ORDER BY k.n)
               FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, n)
               JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum)
          FROM pg_constraint c WHERE c.contype = 'f' AND c.conrelid = to_regclass($1)
          """,
        [.string(dialect.quote(table: entity.externalName, schema: entity.schema))]),
      columns: [nil, nil]
    ) { row in
      guard action == nil,
        row[1].stringValue?.split(separator: "\u{1F}").map(String.init) == columns
      else { return }
      switch row[0].stringValue {
      case "c": action = .cascade
      case "n": action = .setNull
      case "d": action = .setDefault
      default: action = .refuse
      }
    }
    return action
  }
}
