import Components
import Dispatch
import Hummingbird
import NIOCore
import Synchronization

/// How a streamed page's rendering began: the whole page (it was short), its first chunk (it
/// is being streamed), or the error that stopped it before anything was sent.
enum StreamStart: Sendable {
  /// The page, whole: sent as any other.
  case whole(ByteBuffer)
  /// The first chunk: the page is being streamed.
  case streaming(ByteBuffer)
  /// What stopped the page before anything was sent (its error page is sent instead).
  case failed(any Error)
}

/// A page's text as a renderer writes it on a pool thread, sent to the client 64 KB at a time.
/// The first chunk starts the response; each further one waits until the one before it was
/// written, so a slow reader slows the rendering, not the server's memory. A reader that
/// stops reading for `patience` is abandoned: the rest of the page is dropped, and the
/// connection's statement deadline ends the rendering.
final class ChunkedOutput: TextOutput, @unchecked Sendable {
  /// The bytes sent at a time.
  static let chunkBytes = 64 * 1024

  private var buffer: [UInt8] = []
  private var started = false
  private let begin: @Sendable (StreamStart) -> Void
  private let chunks: AsyncStream<ByteBuffer>.Continuation
  private let written = DispatchSemaphore(value: 0)
  private let patience: Duration
  /// Whether the client went away or stopped reading.
  private let abandoned = Atomic<Bool>(false)
  private let cutShort = Atomic<Bool>(false)

  /// Whether the page failed after part of it was sent: the response must end as broken (the
  /// connection closed without the last chunk), never as a complete page or download.
  var wasCutShort: Bool { cutShort.load(ordering: .relaxed) }

  /// An output that starts the response with `begin` (called once) and sends later chunks
  /// through `chunks`.
  init(
    begin: @escaping @Sendable (StreamStart) -> Void,
    chunks: AsyncStream<ByteBuffer>.Continuation, patience: Duration
  ) {
    self.begin = begin
    self.chunks = chunks
    self.patience = patience
  }

  func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= Self.chunkBytes { send() }
  }

  func write(bytes: [UInt8]) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= Self.chunkBytes { send() }
  }

  /// Sends what is buffered as a chunk now (the list before its facets).
  func flush() {
    if !buffer.isEmpty { send() }
  }

  private func send() {
    defer { buffer.removeAll(keepingCapacity: true) }
    guard !abandoned.load(ordering: .relaxed) else { return }
    let chunk = ByteBuffer(bytes: buffer)
    if started {
      chunks.yield(chunk)
    } else {
      started = true
      begin(.streaming(chunk))
    }
    let (seconds, attoseconds) = patience.components
    let start = DispatchTime.now()
    let wait = start + .milliseconds(Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    if written.wait(timeout: wait) == .timedOut { abandoned.store(true, ordering: .relaxed) }
    // Waiting for the client is not the statement's time: its deadline moves on as long.
    Reader.current?.extendDeadline(
      by: DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds)
  }

  /// The page is complete: the whole of it when nothing was sent yet, else its last chunk.
  func finish() {
    if !started {
      started = true
      begin(.whole(ByteBuffer(bytes: buffer)))
    } else if !buffer.isEmpty, !abandoned.load(ordering: .relaxed) {
      chunks.yield(ByteBuffer(bytes: buffer))
    }
    buffer.removeAll()
    chunks.finish()
  }

  /// The rendering failed: its error page, when nothing was sent yet; else the response ends
  /// where it is.
  /// Returns whether part of the page had been sent (then the failure cuts it short, and
  /// only the log can say why).
  @discardableResult
  func fail(_ error: any Error) -> Bool {
    let sent = started
    if sent { cutShort.store(true, ordering: .relaxed) }
    if !started {
      started = true
      begin(.failed(error))
    }
    chunks.finish()
    return sent
  }

  /// The client took a chunk: the rendering goes on.
  func chunkWritten() { written.signal() }

  /// The client went away: what follows is dropped, and the rendering is not kept waiting.
  func abandon() {
    abandoned.store(true, ordering: .relaxed)
    written.signal()
  }
}

/// Resumes a continuation once, whoever calls first.
final class ResumeOnce<Value: Sendable>: Sendable {
  private let continuation: Mutex<CheckedContinuation<Value, Never>?>

  init(_ continuation: CheckedContinuation<Value, Never>) {
    self.continuation = Mutex(continuation)
  }

  func resume(_ value: Value) {
    continuation.withLock { pending in
      pending?.resume(returning: value)
      pending = nil
    }
  }
}
