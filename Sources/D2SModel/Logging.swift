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

/// Logs a statement at `info` and its bindings at `trace`; adaptors call it before running one.
public func logStatement(_ statement: SQLStatement) {
  modelLogger.info("\(statement.sql)")
  if modelLogger.logLevel <= .trace, !statement.bindings.isEmpty {
    modelLogger.trace(
      "  bindings: \(statement.bindings.map(\.description).joined(separator: ", "))")
  }
}
