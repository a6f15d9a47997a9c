import Components
import D2SModel
import RuleCore

/// The recordings of one command (or a web request) while it runs: its statements
/// (process-wide), its engine's rule look-ups, the rows its tables show (bind ``rows`` as
/// ``RowTally/current``), and the wall time.
public final class CommandMeasurement: Sendable {
  package let started = ContinuousClock.now
  package let statements = SQLRecording()
  package let engine: RuleEngine
  /// The rows the command's tables show.
  public let rows = RowTally()

  /// Starts recording (look-ups of `engine`, which nothing else may record meanwhile).
  public init(engine: RuleEngine) {
    self.engine = engine
    engine.lookups.start()
  }

  /// Stops recording and reports.
  public func stop() -> CommandReport {
    let total = started.duration(to: .now)
    return CommandReport(
      total: total, statements: statements.stop(), lookups: engine.lookups.stop(),
      rows: rows.count)
  }
}
