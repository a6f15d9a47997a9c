import Components
import D2SModel
import RuleCore

/// `timing on|off` and `trace on|off`: what each command cost, on stderr after it
/// (Documentation/Tracing.md).
extension REPLSession {
  /// `timing on|off`: a line after each command with its time, statements, rule look-ups,
  /// render time and rows.
  func setTiming(_ on: Bool) -> String {
    timing = on
    return ""
  }

  /// `trace on|off`: after each command, its statements (time and number of bound values)
  /// and its rule look-ups per key and answering rule.
  func setTracing(_ on: Bool) -> String {
    tracing = on
    return ""
  }

  /// Starts recording a command's cost when `timing` or `trace` is on; nil when both are off.
  func beginMeasurement() -> CommandMeasurement? {
    guard timing || tracing else { return nil }
    return CommandMeasurement(engine: context.engine)
  }

  /// Stops `measurement` and returns the lines to write to stderr: the trace, then the timing
  /// line, each only when still on (so `timing off` prints none), as JSON objects when the
  /// session prints JSON.
  func endMeasurement(_ measurement: CommandMeasurement) -> [String] {
    let report = measurement.stop()
    var lines: [String] = []
    if tracing { lines += printsJSON ? report.traceJSON : report.traceLines }
    if timing { lines.append(printsJSON ? report.timingJSON : report.timingLine) }
    return lines
  }
}
