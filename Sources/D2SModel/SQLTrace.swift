import Foundation
import Synchronization

/// The statements the adaptors run while an ``SQLRecording`` is open: what d2s-repl's
/// `timing` and `trace` report.
///
/// Process-wide, so that a command's statements on other connections and threads (a list
/// page's concurrent count) are recorded too: every recording open sees every statement the
/// process runs while it is open. With none open, an adaptor pays one relaxed atomic load per
/// statement (``SQLTimer/init()``).
///
/// An adaptor times each statement with an ``SQLTimer``: from before it is prepared or sent
/// to its last row or result, without the time the caller spends on each row.
public enum SQLTrace {
  /// One statement as it ran.
  public struct Statement: Sendable, Equatable {
    /// Its SQL text, with `?` or `$n` placeholders: bound values are never kept.
    public var sql: String
    /// How many values were bound to it.
    public var bound: Int
    /// Its time inside the adaptor.
    public var duration: Duration
    /// Whether it ran on the thread that opened the recording (false: on another thread the
    /// command started, concurrently with it).
    public var onRecordingThread: Bool

    /// A statement record.
    public init(sql: String, bound: Int, duration: Duration, onRecordingThread: Bool = true) {
      self.sql = sql
      self.bound = bound
      self.duration = duration
      self.onRecordingThread = onRecordingThread
    }
  }

  /// How many recordings are open.
  @usableFromInline static let openCount = Atomic<Int>(0)
  /// The open recordings.
  private static let open = Mutex<[SQLRecording]>([])

  /// Whether any recording is open: one relaxed atomic load.
  @inlinable public static var isRecording: Bool { openCount.load(ordering: .relaxed) > 0 }

  /// Hands a statement that ran for `duration` to every open recording.
  public static func record(sql: String, bound: Int, duration: Duration) {
    let recordings = open.withLock { $0 }
    guard !recordings.isEmpty else { return }
    let thread = currentThread()
    for recording in recordings {
      recording.append(
        Statement(
          sql: sql, bound: bound, duration: duration,
          onRecordingThread: recording.thread == thread))
    }
  }

  static func add(_ recording: SQLRecording) {
    open.withLock { $0.append(recording) }
    openCount.wrappingAdd(1, ordering: .relaxed)
  }

  static func remove(_ recording: SQLRecording) {
    let removed = open.withLock { recordings -> Bool in
      guard let index = recordings.firstIndex(where: { $0 === recording }) else { return false }
      recordings.remove(at: index)
      return true
    }
    if removed { openCount.wrappingSubtract(1, ordering: .relaxed) }
  }

  /// An identifier of the calling thread.
  static func currentThread() -> UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }
}

/// The statements run, on any thread of the process, between its creation and ``stop()``.
///
/// ```swift
/// let recording = SQLRecording()
/// try database.fetch(specification)
/// for statement in recording.stop() { print(statement.sql, statement.bound) }
/// ```
public final class SQLRecording: Sendable {
  private let statements = Mutex<[SQLTrace.Statement]>([])
  /// The thread that opened it.
  let thread = SQLTrace.currentThread()

  /// Opens a recording; ``stop()`` must close it (the open ones are kept process-wide).
  public init() { SQLTrace.add(self) }

  func append(_ statement: SQLTrace.Statement) { statements.withLock { $0.append(statement) } }

  /// Closes the recording and returns its statements in the order they ended.
  public func stop() -> [SQLTrace.Statement] {
    SQLTrace.remove(self)
    return statements.withLock { $0 }
  }
}

/// Times one statement inside an adaptor, only while an ``SQLRecording`` is open.
///
/// ```swift
/// var timer = SQLTimer()
/// defer { timer.finish(statement) }
/// while step() {
///   timer.pause()  // the caller's work on a row is not the statement's
///   try row()
///   timer.resume()
/// }
/// ```
public struct SQLTimer {
  /// Whether a recording was open when the statement started.
  @usableFromInline let isOn: Bool
  /// Where the running stretch started; nil while paused (or off).
  @usableFromInline var mark: ContinuousClock.Instant?
  /// The time of the stretches that ended.
  @usableFromInline var spent: Duration = .zero

  /// Starts timing when a recording is open (one atomic load otherwise).
  @inlinable public init() {
    isOn = SQLTrace.isRecording
    mark = isOn ? .now : nil
  }

  /// Stops the clock (before the caller handles a row).
  @inlinable public mutating func pause() {
    guard let mark else { return }
    spent += mark.duration(to: .now)
    self.mark = nil
  }

  /// Starts the clock again.
  @inlinable public mutating func resume() {
    if isOn { mark = .now }
  }

  /// Records `statement` with the time measured (nothing when off).
  @inlinable public mutating func finish(_ statement: SQLStatement) {
    guard isOn else { return }
    pause()
    SQLTrace.record(sql: statement.sql, bound: statement.bindings.count, duration: spent)
  }
}
