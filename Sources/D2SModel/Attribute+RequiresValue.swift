extension Attribute {
  /// Whether a new row must be given a value for the column: NOT NULL (a primary key
  /// always), without a default, not made by the database (an auto-increment key, a
  /// generated column, a rowid), and not a date/time (a save stamps those with now).
  package var requiresValue: Bool {
    !allowsNull && defaultValue == nil && !isAutoIncrement && !isGenerated && !isRowID
      && valueType != .date
  }
}
