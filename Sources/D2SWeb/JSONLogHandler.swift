import Components
import Foundation
import Logging

/// `--log-format json`: each log line one JSON object on standard error, for machines:
/// `{"time":"…","level":"notice","label":"d2s-serve","message":"…", …metadata}`.
struct JSONLogHandler: LogHandler {
  let label: String
  var logLevel: Logger.Level = .info
  var metadata: Logger.Metadata = [:]

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let fields = metadata.merging(event.metadata ?? [:]) { $1 }
    let line = Self.line(
      time: Date(), level: event.level, label: label, message: event.message.description,
      metadata: fields)
    FileHandle.standardError.write(Data((line + "\n").utf8))
  }

  /// One log line's JSON object.
  static func line(
    time: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata
  ) -> String {
    let stamp = ISO8601DateFormatter.string(
      from: time, timeZone: TimeZone(identifier: "UTC") ?? .current,
      formatOptions: [.withInternetDateTime, .withFractionalSeconds])
    var fields = [
      ("time", JSONText.string(stamp)), ("level", JSONText.string(level.rawValue)),
      ("label", JSONText.string(label)), ("message", JSONText.string(message)),
    ]
    for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
      fields.append((key, JSONText.string("\(value)")))
    }
    return JSONText.object(fields)
  }
}
