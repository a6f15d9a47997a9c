import EnvKeys
import Synchronization

/// A database's rows statements kept by what they were made from: a list shown again (the
/// same entity, window, order and filter, whatever its user) runs the statement made the first
/// time, not the builder and serializer again (about 4% of a 50-row page).
///
/// A keyset window or a full-text search (whose bound positions and words change from page to
/// page) is made anew each time, and so is a large statement (a filter's value typed at
/// length, or a long list of values): see ``maximumBoundBytes``, ``maximumBindings`` and
/// ``maximumSQLBytes``. At most ``capacity`` are kept; the model a statement was made against
/// never changes for its database.
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
    guard specification.keyset == nil, specification.fullText == nil else { return nil }
    return Key(
      specification: specification, attributes: attributes?.map(ObjectIdentifier.init),
      paths: paths.map(\.keyPath), positions: positions, tallying: tallying)
  }

  /// The statement kept under `key`, or the one `make` makes (then kept, when small).
  func statement(
    _ key: Key, attributes: [Attribute]?,
    make: () throws -> (SQLStatement, [Attribute?])
  ) rethrows -> (SQLStatement, [Attribute?]) {
    if let entry = entries.withLock({ $0[key] }) { return (entry.statement, entry.columns) }
    let (statement, columns) = try make()
    guard Self.isSmall(statement) else { return (statement, columns) }
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
      && statement.bindings.reduce(0) { $0 + bytes(of: $1) } <= maximumBoundBytes
  }

  /// How many bytes of text and data `value` holds.
  private static func bytes(of value: DatabaseValue) -> Int {
    switch value {
    case .string(let text), .verbatim(let text): text.utf8.count
    case .data(let data), .textBytes(let data): data.count
    case .array(let texts): texts.reduce(0) { $0 + ($1?.utf8.count ?? 0) + 1 }
    case .list(let values): values.reduce(0) { $0 + bytes(of: $1) + 1 }
    default: 0
    }
  }

  /// How many statements are kept (for tests).
  var count: Int { entries.withLock { $0.count } }
}
