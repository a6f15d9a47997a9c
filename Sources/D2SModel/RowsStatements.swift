import EnvKeys
import Qualifiers
import Synchronization

/// A database's rows statements (and the statements counting those rows) kept by what they
/// were made from: a list shown again (the
/// same entity, window, order and filter, whatever its user) runs the statement made the first
/// time, not the builder and serializer again (about 4% of a 50-row page).
///
/// A keyset window or a full-text search (whose bound positions and words change from page to
/// page) is made anew each time, and so is a large statement (a filter's value typed at
/// length, or a long list of values): see ``maximumBoundBytes``, ``maximumBindings`` and
/// ``maximumSQLBytes``. At most ``capacity`` are kept (all let go past it: a list's windows
/// each have their own). A statement is kept only once its entity's catalog was read whole;
/// the model does not change after that for its database.
final class RowsStatements: Sendable {
  /// What a rows statement is made from.
  struct Key: Hashable {
    let specification: FetchSpecification
    /// The selected attributes by identity: the kept entry holds them, so no identity is reused
    /// while it is kept.
    let attributes: [ObjectIdentifier]?
    let paths: [String]
    let positions: Bool
    let tallying: Bool
    /// Whether the statement counts the rows (`SELECT COUNT(*)`) rather than selects them.
    var counts = false
  }

  /// A kept statement, the attributes of its columns, and the attributes it selects (held, so
  /// that the key's identities stay theirs).
  private struct Entry: @unchecked Sendable {
    let statement: SQLStatement
    let columns: [Attribute?]
    let selected: [Attribute]?
  }

  /// At most this many statements are kept; past it, all are let go.
  static let capacity = 256
  /// The most bytes of text and data a kept statement binds.
  static let maximumBoundBytes = 1_024
  /// The most values a kept statement binds.
  static let maximumBindings = 64
  /// The most bytes of SQL a kept statement has.
  static let maximumSQLBytes = 16_384

  private let entries = Mutex<[Key: Entry]>([:])

  /// The key of a statement worth keeping, nil for one made anew each time.
  static func key(
    _ specification: FetchSpecification, attributes: [Attribute]?, paths: [PropertyPath],
    positions: Bool, tallying: Bool
  ) -> Key? {
    guard specification.keyset == nil, specification.fullText == nil,
      specification.qualifier.map(isKeyable) ?? true
    else { return nil }
    return Key(
      specification: specification, attributes: attributes?.map(ObjectIdentifier.init),
      paths: paths.map(\.keyPath), positions: positions, tallying: tallying)
  }

  /// The key of the statement counting the rows `specification` selects, nil for one made
  /// anew each time.
  static func countKey(_ specification: FetchSpecification) -> Key? {
    guard
      var key = key(specification, attributes: nil, paths: [], positions: false, tallying: false)
    else { return nil }
    key.counts = true
    return key
  }

  /// Whether every value `qualifier` compares with is equal only to itself, byte for byte:
  /// strings compare equal when canonically equivalent (`é` composed or not, `K` and the
  /// Kelvin sign), where the database compares their bytes, and NaN is equal to nothing.
  /// Text that is not ASCII, and NaN, are never in a key.
  static func isKeyable(_ qualifier: Qualifier) -> Bool {
    switch qualifier {
    case .constant, .keyComparison: true
    case .comparison(_, _, let value): isKeyable(value)
    case .and(let parts), .or(let parts): parts.allSatisfy(isKeyable)
    case .not(let inner): isKeyable(inner)
    }
  }

  /// ``isKeyable(_:)-(Qualifier)`` of one value.
  private static func isKeyable(_ value: DatabaseValue) -> Bool {
    func isASCII(_ text: String) -> Bool { text.utf8.allSatisfy { $0 < 0x80 } }
    switch value {
    case .string(let text), .verbatim(let text): return isASCII(text)
    case .array(let texts): return texts.allSatisfy { $0.map(isASCII) ?? true }
    case .list(let values): return values.allSatisfy(isKeyable)
    case .double(let number): return !number.isNaN
    default: return true
    }
  }

  /// The statement kept under `key`, or the one `make` makes: then kept when it is small and
  /// `keeps` says what it was made from was whole (an entity whose catalog could not be read
  /// has no attributes until it is read again).
  func statement(
    _ key: Key, attributes: [Attribute]?,
    make: () throws -> (SQLStatement, [Attribute?]), keeps: () -> Bool
  ) rethrows -> (SQLStatement, [Attribute?]) {
    if let entry = entries.withLock({ $0[key] }) { return (entry.statement, entry.columns) }
    let (statement, columns) = try make()
    guard Self.isSmall(statement), keeps() else { return (statement, columns) }
    entries.withLock { entries in
      if entries.count >= Self.capacity { entries.removeAll() }
      entries[key] = Entry(statement: statement, columns: columns, selected: attributes)
    }
    return (statement, columns)
  }

  /// Whether `statement` is small enough to keep: at most ``maximumBindings`` values bound,
  /// ``maximumBoundBytes`` of them text or data, and ``maximumSQLBytes`` of SQL (a filter's
  /// long list of values is in its key as well as in its statement).
  private static func isSmall(_ statement: SQLStatement) -> Bool {
    statement.bindings.count <= maximumBindings && statement.sql.utf8.count <= maximumSQLBytes
      && statement.bindings.reduce(0) { $0 + $1.heldByteCount } <= maximumBoundBytes
  }

  /// How many statements are kept (for tests).
  var count: Int { entries.withLock { $0.count } }
}
