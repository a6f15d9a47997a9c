import D2SModel
import EnvKeys
import Foundation
import PostgreSQLAdaptor
import Synchronization

/// A connection of its own to the PostgreSQL database that keeps what several servers share
/// besides sessions (schema `d2s`: agents' tokens, proposals), opened on first use with the
/// tables it needs (each statement safe to run again; the catalog never reads schema `d2s`,
/// so they are no entity). Calls are short and run one at a time; a lost connection is opened
/// again by the adaptor.
final class SharedRecords: Sendable {
  private let url: String
  private let setUp: [String]
  private let connection = Mutex<PostgreSQLAdaptor?>(nil)

  /// Records in the database at `url`, whose tables `setUp` makes.
  init(url: String, setUp: [String]) {
    self.url = url
    self.setUp = ["CREATE SCHEMA IF NOT EXISTS d2s"] + setUp
  }

  /// Runs `sql` with `bindings`; its rows, `columns` values each (none for a statement).
  @discardableResult
  func run(_ sql: String, _ bindings: [DatabaseValue], columns: Int = 0) throws
    -> [[DatabaseValue]]
  {
    try withConnection { try Self.run(sql, bindings, columns: columns, on: $0) }
  }

  /// `work` in one transaction, given a function that runs a statement as ``run(_:_:columns:)``
  /// does.
  func inTransaction<T>(
    _ work: ((String, [DatabaseValue], Int) throws -> [[DatabaseValue]]) throws -> T
  ) throws -> T {
    try withConnection { adaptor in
      try adaptor.transaction {
        try work { sql, bindings, columns in
          try Self.run(sql, bindings, columns: columns, on: adaptor)
        }
      }
    }
  }

  private static func run(
    _ sql: String, _ bindings: [DatabaseValue], columns: Int, on adaptor: PostgreSQLAdaptor
  ) throws -> [[DatabaseValue]] {
    var rows: [[DatabaseValue]] = []
    if columns == 0 {
      try adaptor.execute(SQLStatement(raw: sql, bindings))
    } else {
      try adaptor.query(
        SQLStatement(raw: sql, bindings), columns: Array(repeating: nil, count: columns)
      ) { rows.append($0) }
    }
    return rows
  }

  /// `work` on the connection, opened (with the tables) on first use.
  private func withConnection<T>(_ work: (PostgreSQLAdaptor) throws -> T) throws -> T {
    try connection.withLock { connection in
      let adaptor: PostgreSQLAdaptor
      if let open = connection {
        adaptor = open
      } else {
        adaptor = try PostgreSQLAdaptor(url: url)
        for statement in setUp {
          do {
            try adaptor.execute(SQLStatement(raw: statement))
          } catch {
            // Two servers making a table at once: one loses the race, and the statement, run
            // again, finds it made.
            try adaptor.execute(SQLStatement(raw: statement))
          }
        }
        connection = adaptor
      }
      return try work(adaptor)
    }
  }
}
