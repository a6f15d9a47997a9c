import Logging
import Synchronization

/// A log a test reads back: each line its ``logger`` is given, as `level: message`, at `info`
/// and above (a server's request lines, an adaptor's SQL statements through
/// `DependencyValues.sqlLogger`).
public final class CapturedLog: Sendable {
  /// The lines logged so far, oldest first.
  public let lines = Mutex<[String]>([])

  /// An empty log.
  public init() {}

  /// A logger at `info` that writes to this log.
  public var logger: Logger {
    Logger(label: "test") { _ in Handler(log: self) }
  }

  struct Handler: LogHandler {
    let log: CapturedLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
      log.lines.withLock { $0.append("\(event.level): \(event.message)") }
    }
  }
}
