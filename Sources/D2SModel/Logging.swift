import EnvKeys
import Foundation
import Logging

/// The SQL and model logger. `D2S_LOGLEVEL=info` logs each statement, `trace` also the bound
/// values.
let modelLogger: Logger = {
  var logger = Logger(label: "d2s.sql")
  if let level = EnvironmentVariable.value("D2S_LOGLEVEL").flatMap({
    Logger.Level(rawValue: $0.lowercased())
  }) {
    logger.logLevel = level
  } else {
    logger.logLevel = .warning
  }
  return logger
}()

/// The key of ``EnvKeys/DependencyValues/sqlLogger``.
public enum SQLLoggerKey: DependencyKey {
  /// `d2s.sql`, at the level `D2S_LOGLEVEL` sets (else `warning`).
  public static var liveValue: Logger { modelLogger }
}

extension DependencyValues {
  /// The logger of SQL statements (`d2s.sql`, at the level `D2S_LOGLEVEL` sets).
  public var sqlLogger: Logger {
    get { self[SQLLoggerKey.self] }
    set { self[SQLLoggerKey.self] = newValue }
  }
}

/// Logs a statement at `info` and its bindings at `trace`, to the scope's
/// ``EnvKeys/DependencyValues/sqlLogger``; adaptors call it before running one.
public func logStatement(_ statement: SQLStatement) {
  let logger = DependencyValues.current.sqlLogger
  guard logger.logLevel <= .info else { return }
  logger.info("\(statement.sql)")
  if logger.logLevel <= .trace, !statement.bindings.isEmpty {
    logger.trace(
      "  bindings: \(statement.bindings.map(\.description).joined(separator: ", "))")
  }
}
