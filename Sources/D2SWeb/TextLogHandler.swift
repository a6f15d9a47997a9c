import Components
import Foundation
import Logging
import Synchronization

/// `d2s-serve`'s log lines on standard error, made for a line per request: as swift-log's
/// `StreamLogHandler` writes them (`2026-11-28T00:01:17+0000 notice d2s-serve: [D2SWeb] GET
/// /Film 200 …`), or with `--log-format json` one JSON object a line
/// (`{"time":…,"level":"notice","label":"d2s-serve","message":…, …metadata}`). The time is
/// UTC, formatted once a second (`localtime` looks at the zone file on every call), and each
/// line is one `write(2)`, never interleaved with another's.
struct TextLogHandler: LogHandler {
  /// How lines are written.
  enum Format: Sendable {
    case text, json
  }

  let label: String
  var format = Format.text
  var logLevel: Logger.Level = .info
  var metadata: Logger.Metadata = [:]

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    // A request's line has no metadata: nothing to merge or sort.
    let fields =
      metadata.isEmpty && event.metadata?.isEmpty != false
      ? [] : metadata.merging(event.metadata ?? [:]) { $1 }.sorted { $0.key < $1.key }
    let line: String
    switch format {
    case .text:
      var text = Self.clock.now()
      text.reserveCapacity(160)
      text.append(" ")
      text.append(event.level.rawValue)
      text.append(" ")
      text.append(label)
      text.append(":")
      for (key, value) in fields { text += " \(key)=\(value)" }
      text.append(" [")
      text.append(event.source)
      text.append("] ")
      text.append(event.message.description)
      text.append("\n")
      line = text
    case .json:
      let members =
        [
          ("time", JSONText.string(Self.clock.now())),
          ("level", JSONText.string(event.level.rawValue)), ("label", JSONText.string(label)),
          ("message", JSONText.string(event.message.description)),
        ] + fields.map { ($0.key, JSONText.string("\($0.value)")) }
      line = JSONText.object(members) + "\n"
    }
    var bytes = line
    bytes.withUTF8 { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(2, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
        if written <= 0 { break }
        offset += written
      }
    }
  }

  /// The time of log lines, formatted anew only when the second changes.
  static let clock = SecondClock()
}

/// The current time as `2026-11-28T00:01:17+0000` (UTC), kept for the second it names.
final class SecondClock: Sendable {
  private let last = Mutex<(second: Int, text: String)>((-1, ""))

  /// The current second's text.
  func now() -> String {
    let second = Int(Date().timeIntervalSince1970)
    return last.withLock { last in
      if last.second == second { return last.text }
      var time = time_t(second)
      var parts = tm()
      gmtime_r(&time, &parts)
      let text = String(
        format: "%04d-%02d-%02dT%02d:%02d:%02d+0000", Int(parts.tm_year) + 1900,
        Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min),
        Int(parts.tm_sec))
      last = (second, text)
      return text
    }
  }
}
