import Components
import D2SModel
import Foundation
import RuleCore

/// What one command cost, as `timing` and `trace` print it on stderr (Documentation/Tracing.md
/// gives the formats).
public struct CommandReport: Sendable {
  /// The command's wall time, from before it ran to after its output was written.
  package var total: Duration
  /// Every statement it ran, on any connection and thread, in the order they ended.
  package var statements: [SQLTrace.Statement]
  /// Its rule look-ups per key and answering rule, most asked-for key first.
  package var lookups: [RuleLookupCounter.Tally]
  /// The rows its tables showed.
  package var rows: Int

  /// A report of what a command cost.
  package init(
    total: Duration, statements: [SQLTrace.Statement], lookups: [RuleLookupCounter.Tally],
    rows: Int
  ) {
    self.total = total
    self.statements = statements
    self.lookups = lookups
    self.rows = rows
  }

  /// The statements' time, summed.
  package var sqlTime: Duration { statements.reduce(.zero) { $0 + $1.duration } }

  /// The time not spent in statements on the command's own thread (statements on other
  /// threads ran beside it).
  package var renderTime: Duration {
    let own = statements.filter(\.onRecordingThread).reduce(Duration.zero) { $0 + $1.duration }
    return max(.zero, total - own)
  }

  /// How many look-ups, and how many of them the cache answered.
  package var lookupCount: Int { lookups.reduce(0) { $0 + $1.count } }
  package var cachedCount: Int { lookups.reduce(0) { $0 + $1.cached } }

  // MARK: - timing

  /// The figures of the timing line as an HTTP `Server-Timing` value (d2s-serve `--timing`):
  /// `total;dur=15.3, sql;dur=12.1;desc="3 statements", rules;desc="412 look-ups, 97% cached",
  /// render;dur=3.2`. Only the statements on the recording's own thread count, as a server runs
  /// other requests' statements meanwhile.
  public var serverTiming: String {
    let own = statements.filter(\.onRecordingThread)
    let sql = own.reduce(Duration.zero) { $0 + $1.duration }
    var rules = Self.counted(lookupCount, "look-up")
    if lookupCount > 0 { rules += ", \(cachedCount * 100 / lookupCount)% cached" }
    return [
      "total;dur=\(Self.milliseconds(total, digits: 1))",
      "sql;dur=\(Self.milliseconds(sql, digits: 1));desc=\"\(Self.counted(own.count, "statement"))\"",
      "rules;desc=\"\(rules)\"",
      "render;dur=\(Self.milliseconds(renderTime, digits: 1))",
    ].joined(separator: ", ")
  }

  /// `15.3 ms · 3 statements 12.1 ms · 412 rule look-ups, 97% cached · render 3.2 ms · 20 rows`
  /// (` · N rows` only when rows were shown; `, P% cached` only when there were look-ups).
  package var timingLine: String {
    var lookupPart = Self.counted(lookupCount, "rule look-up")
    if lookupCount > 0 { lookupPart += ", \(cachedCount * 100 / lookupCount)% cached" }
    var parts = [
      "\(Self.milliseconds(total, digits: 1)) ms",
      Self.counted(statements.count, "statement") + " \(Self.milliseconds(sqlTime, digits: 1)) ms",
      lookupPart,
      "render \(Self.milliseconds(renderTime, digits: 1)) ms",
    ]
    if rows > 0 { parts.append(Self.counted(rows, "row")) }
    return parts.joined(separator: " · ")
  }

  /// `{"timing":{"ms":…,"statements":…,"sqlMs":…,"lookups":…,"cachedLookups":…,"renderMs":…,"rows":…}}`
  /// (`rows` only when rows were shown).
  package var timingJSON: String {
    var fields = [
      ("ms", Self.milliseconds(total)), ("statements", "\(statements.count)"),
      ("sqlMs", Self.milliseconds(sqlTime)), ("lookups", "\(lookupCount)"),
      ("cachedLookups", "\(cachedCount)"), ("renderMs", Self.milliseconds(renderTime)),
    ]
    if rows > 0 { fields.append(("rows", "\(rows)")) }
    return JSONText.object([("timing", JSONText.object(fields))])
  }

  // MARK: - trace

  /// A line per statement, then the look-ups: a line of totals, a line per key, and under
  /// each key a line per answering rule.
  package var traceLines: [String] {
    var lines = statements.map { statement in
      let flat = statement.sql.split(whereSeparator: \.isNewline).joined(separator: " ")
      return "sql \(Self.milliseconds(statement.duration)) ms, \(statement.bound) bound"
        + (statement.onRecordingThread ? "" : ", concurrent") + ": \(flat)"
    }
    lines.append(
      "rule look-ups: \(lookupCount)" + (lookupCount > 0 ? ", \(cachedCount) cached" : ""))
    for (key, tallies) in groupedLookups {
      let count = tallies.reduce(0) { $0 + $1.count }
      let cached = tallies.reduce(0) { $0 + $1.cached }
      lines.append("  \(key): \(count), \(cached) cached")
      lines += tallies.map { "    \($0.count), \($0.cached) cached: \($0.source)" }
    }
    return lines
  }

  /// A `{"sql":…,"ms":…,"bound":…}` object per statement (`"concurrent":true` for one run on
  /// another thread), then `{"lookups":[{"key":…,"count":…,"cached":…,"rules":[{"rule":…,
  /// "count":…,"cached":…}]}]}`.
  package var traceJSON: [String] {
    var lines = statements.map { statement in
      var fields = [
        ("sql", JSONText.string(statement.sql)), ("ms", Self.milliseconds(statement.duration)),
        ("bound", "\(statement.bound)"),
      ]
      if !statement.onRecordingThread { fields.append(("concurrent", "true")) }
      return JSONText.object(fields)
    }
    let keys = groupedLookups.map { key, tallies in
      JSONText.object([
        ("key", JSONText.string(key)), ("count", "\(tallies.reduce(0) { $0 + $1.count })"),
        ("cached", "\(tallies.reduce(0) { $0 + $1.cached })"),
        (
          "rules",
          JSONText.array(
            tallies.map {
              JSONText.object([
                ("rule", JSONText.string($0.source)), ("count", "\($0.count)"),
                ("cached", "\($0.cached)"),
              ])
            })
        ),
      ])
    }
    lines.append(JSONText.object([("lookups", JSONText.array(keys))]))
    return lines
  }

  /// The look-ups per key, in the counter's order (most asked-for key first).
  package var groupedLookups: [(key: String, tallies: [RuleLookupCounter.Tally])] {
    var groups: [(key: String, tallies: [RuleLookupCounter.Tally])] = []
    for tally in lookups {
      if groups.last?.key == tally.key {
        groups[groups.count - 1].tallies.append(tally)
      } else {
        groups.append((tally.key, [tally]))
      }
    }
    return groups
  }

  // MARK: - Words and numbers

  /// `1 row`, `20 rows`.
  package static func counted(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }

  /// A duration in milliseconds with `digits` decimals (`12.1`, `0.052`).
  package static func milliseconds(_ duration: Duration, digits: Int = 3) -> String {
    let (seconds, attoseconds) = duration.components
    let value = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
    return String(format: "%.\(digits)f", value)
  }
}
