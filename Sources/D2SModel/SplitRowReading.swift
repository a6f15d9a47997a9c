import EnvKeys

/// An adaptor that can step a statement's rows on one thread and decode them on another, for
/// ``Database``'s read-ahead: the reader copies each row out raw, and the caller's thread
/// makes the values, so that the two threads share the work.
package protocol SplitRowReading: DatabaseAdaptor {
  /// Rows as the reader copies them out.
  associatedtype RawRows: Sendable
  /// Steps `statement`, handing its rows on raw, at most `batchSize` at a time. Calls
  /// `eachRow` (which throws to stop) before each row.
  func readRaw(
    _ statement: SQLStatement, columns: [Attribute?], batchSize: Int,
    eachRow: () throws -> Void, emit: (RawRows) throws -> Void
  ) throws
  /// Decodes `rows`, each column as `columns` say, and hands each row's values to `row`.
  func decode(_ rows: RawRows, columns: [Attribute?], row: ([DatabaseValue]) throws -> Void)
    throws
}
