import D2SModel
import PostgreSQLAdaptor
import SQLiteAdaptor

/// Where a database is, as a person gives it on a command line or in `open`: an SQLite file
/// (a path, or `sqlite:PATH`), or a PostgreSQL URL (`postgresql://…`, `postgres://…`) or
/// conninfo string (`host=… dbname=…`). The one place a target's kind is read.
public enum DatabaseLocation: Sendable, Equatable {
  /// An SQLite file: its path, or `sqlite:PATH` with `mode=` and `vfs=` parameters, as given.
  case sqlite(String)
  /// A PostgreSQL server: a URL or a conninfo string.
  case postgreSQL(String)

  /// The location `target` names.
  public init(_ target: String) {
    if target.hasPrefix("sqlite:") {
      self = .sqlite(target)
    } else if target.hasPrefix("postgresql://") || target.hasPrefix("postgres://")
      || target.utf8.contains(UInt8(ascii: "="))
    {
      self = .postgreSQL(target)
    } else {
      self = .sqlite(target)
    }
  }

  /// Whether the database is PostgreSQL.
  public var isPostgreSQL: Bool {
    if case .postgreSQL = self { return true }
    return false
  }

  /// A new connection to the database; with `readOnly`, one that refuses every write.
  public func connect(readOnly: Bool = false) throws -> any DatabaseAdaptor {
    switch self {
    case .sqlite(let target): try SQLiteAdaptor(path: target, readOnly: readOnly)
    case .postgreSQL(let url): try PostgreSQLAdaptor(url: url, readOnly: readOnly)
    }
  }
}
