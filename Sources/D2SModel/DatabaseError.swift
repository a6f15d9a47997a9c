/// A database failure with the database's own message: a constraint violation, an
/// optimistic-locking conflict, a missing row, or another error of the adaptor.
///
/// The SQL is kept for diagnostics; bound values are never part of the description.
public struct DatabaseError: Error, Sendable, CustomStringConvertible {
  /// What kind of failure.
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public static let notNull = Code("notNull")
    public static let foreignKey = Code("foreignKey")
    public static let unique = Code("unique")
    public static let check = Code("check")
    /// The row changed or vanished since it was fetched (optimistic locking).
    public static let conflict = Code("conflict")
    public static let notFound = Code("notFound")
    public static let connection = Code("connection")
    public static let readOnly = Code("readOnly")
    /// The connection was lost while a COMMIT was on its way: it may or may not have been
    /// applied (it is never sent again).
    public static let outcomeUnknown = Code("outcomeUnknown")
    /// Another connection held a lock for longer than the busy timeout.
    public static let locked = Code("locked")
    /// The database (or the disk under it) has no room for the change.
    public static let full = Code("full")
    /// The operating system failed to read or write the database.
    public static let io = Code("io")
    public static let invalidValue = Code("invalidValue")
    public static let unsupported = Code("unsupported")
    /// Ctrl-C stopped the command (see ``Interruption``).
    public static let interrupted = Code("interrupted")
    public static let other = Code("other")
    public var description: String { rawValue }
  }

  public var code: Code
  /// The database's message (or ours).
  public var message: String
  /// The statement that failed, if any.
  public var sql: String?
  /// The database's own error code (PostgreSQL's SQLSTATE), when it has one.
  public var sqlState: String?

  public init(_ code: Code, _ message: String, sql: String? = nil) {
    self.code = code
    self.message = message
    self.sql = sql
  }

  public var description: String { message }
}
