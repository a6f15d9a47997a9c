import EnvKeys

/// SQL text with its bound values: every value is a parameter, never spliced into the text.
///
/// D2S's own statements come from ``SQLSerializer``; ``init(raw:_:)`` is for fixed text (a
/// catalog query, a test's setup) whose author vouches for it.
public struct SQLStatement: Sendable, CustomStringConvertible {
  /// The text, with a placeholder for each bound value.
  public var sql: String
  /// The values bound to the placeholders, in order.
  public var bindings: [DatabaseValue]
  /// At most how many rows the statement returns, when its outermost `LIMIT` says so (a
  /// page's window); nil when unknown. An adaptor may then read its rows whole rather than
  /// one by one.
  public var rowBound: Int?
  /// A statement of raw SQL text: nothing in it is quoted or checked.
  public init(raw sql: String, _ bindings: [DatabaseValue] = []) {
    self.sql = sql
    self.bindings = bindings
  }
  /// The SQL only (bound values stay out of descriptions and logs below `trace`).
  public var description: String { sql }
}

/// How one database spells what the SQL builder needs.
public struct SQLDialect: Sendable {
  /// `?` (SQLite) or `$1` (PostgreSQL) for the parameter at 1-based `index`.
  public let placeholder: @Sendable (Int) -> String
  /// The null-safe equality operator (`IS` or `IS NOT DISTINCT FROM`).
  public let nullSafeEqual: String
  /// The null-safe inequality operator (`IS NOT` or `IS DISTINCT FROM`).
  public let nullSafeNotEqual: String
  /// Builds a case-sensitive / case-insensitive pattern match of `lhs` against a bound
  /// pattern (already translated with ``translateLike``).
  public let like:
    @Sendable (_ lhs: String, _ placeholder: String, _ caseInsensitive: Bool) -> String
  /// Translates a D2S `like` pattern (`*`, `?`, `\*`, `\?`) into the database's form.
  public let translateLike: @Sendable (String) -> String
  /// A column expression as text, for enums and other non-text types in pattern matches.
  public let castToText: @Sendable (String) -> String
  /// The bound `LIMIT` value meaning "no limit" (for an `OFFSET` without a limit).
  public let noLimit: DatabaseValue
  /// Whether a keyset page reads its rows' positions as text (bound back untyped, so the
  /// server parses them exactly as the column's type), rather than as the values themselves.
  public let readsPositionsAsText: Bool
  /// What ends a SELECT that locks the rows it reads until the transaction ends (PostgreSQL's
  /// ` FOR UPDATE`); empty where the transaction already holds the write lock (SQLite's
  /// `BEGIN IMMEDIATE`).
  public let rowLock: String
  /// What starts a transaction (SQLite's `BEGIN IMMEDIATE` takes the write lock at once).
  public let beginTransaction: String
  /// Whether a `SELECT`'s `LIMIT` is written as a number rather than bound. PostgreSQL plans
  /// a prepared statement whose `LIMIT` is a parameter anew on every run (its generic plan,
  /// for an unknown limit, costs more than one made for the value), where a number lets it
  /// keep one plan; the number is D2S's own, never text from a request.
  public let writesLimitsAsNumbers: Bool
  /// Whether an equality across a to-many is written as `source IN (SELECT target …)`, the
  /// few destinations' keys gathered first, rather than as a correlated `EXISTS`. SQLite runs
  /// an `EXISTS` for every row of the outer table (a film's actors: all the actors), where
  /// PostgreSQL plans both as the same semi-join.
  public let gathersToManyKeys: Bool

  /// A dialect spelling each of these as given.
  public init(
    placeholder: @escaping @Sendable (Int) -> String, nullSafeEqual: String,
    nullSafeNotEqual: String,
    like: @escaping @Sendable (String, String, Bool) -> String,
    translateLike: @escaping @Sendable (String) -> String,
    castToText: @escaping @Sendable (String) -> String, noLimit: DatabaseValue,
    readsPositionsAsText: Bool = false, rowLock: String = "", beginTransaction: String = "BEGIN",
    writesLimitsAsNumbers: Bool = false, gathersToManyKeys: Bool = false
  ) {
    self.writesLimitsAsNumbers = writesLimitsAsNumbers
    self.gathersToManyKeys = gathersToManyKeys
    self.beginTransaction = beginTransaction
    self.rowLock = rowLock
    self.noLimit = noLimit
    self.readsPositionsAsText = readsPositionsAsText
    self.placeholder = placeholder
    self.nullSafeEqual = nullSafeEqual
    self.nullSafeNotEqual = nullSafeNotEqual
    self.like = like
    self.translateLike = translateLike
    self.castToText = castToText
  }

  /// `"name"` with embedded quotes doubled.
  public func quote(_ identifier: String) -> String {
    // Foundation's replacing goes through NSString: skipped for the usual name without quotes.
    guard identifier.utf8.contains(UInt8(ascii: "\"")) else { return "\"" + identifier + "\"" }
    return "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// `"schema"."table"` or `"table"`.
  public func quote(table: String, schema: String?) -> String {
    schema.map { quote($0) + "." + quote(table) } ?? quote(table)
  }
}
