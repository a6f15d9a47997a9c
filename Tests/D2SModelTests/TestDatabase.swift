import D2SModel
import D2STesting
import EnvKeys
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor
import Synchronization
import Testing

/// The databases the shared suites run against: SQLite always, PostgreSQL when
/// `D2S_TEST_POSTGRES_URL` names a server holding Sakila (`make test` starts one).
enum TestDatabase: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case sqlite
  case postgresql

  static var postgresURL: String? { ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] }

  static var available: [TestDatabase] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgresql] }

  var testDescription: String { rawValue }

  /// A private, writable copy of Sakila.
  func open() throws -> Database {
    switch self {
    case .sqlite: return try SakilaSQLite.open()
    case .postgresql:
      return try Database(adaptor: PostgreSQLAdaptor(url: try PostgresSakila.copy()))
    }
  }

  /// A new database made by `schema` (SQL both databases take): in memory for SQLite, a new
  /// PostgreSQL database named with `prefix`.
  func open(_ schema: String, prefix: String) throws -> Database {
    switch self {
    case .sqlite: return try TestDatabases.sqlite(schema)
    case .postgresql:
      return try Database(
        adaptor: PostgreSQLAdaptor(url: PostgresSakila.database(from: schema, prefix: prefix)))
    }
  }

  /// A second connection to the same database as `database`.
  func reopen(_ database: Database) throws -> Database {
    switch (self, database.adaptor) {
    case (.sqlite, let adaptor as SQLiteAdaptor):
      return try Database(adaptor: SQLiteAdaptor(path: adaptor.path))
    case (.postgresql, let adaptor as PostgreSQLAdaptor):
      return try Database(adaptor: PostgreSQLAdaptor(url: adaptor.url))
    default: throw DatabaseError(.other, "unexpected adaptor")
    }
  }
}

extension DatabaseAdaptor {
  /// The first value of the first row of `sql`.
  func scalar(_ sql: String) throws -> DatabaseValue? {
    var value: DatabaseValue?
    try query(SQLStatement(raw: sql), columns: [nil]) { row in value = value ?? row.first }
    return value
  }
}
