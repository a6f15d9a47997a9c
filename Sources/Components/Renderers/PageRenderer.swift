#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// Where rendered text goes: a string, or standard output as it is written.
public protocol TextOutput: AnyObject {
  /// Appends `text`.
  func write(_ text: String)
  /// Appends UTF-8 `bytes` (renderers that build lines as bytes).
  func write(bytes: [UInt8])
  /// Sends what was written so far on its way, where the output is streamed (a list's rows
  /// before what is counted after them); an output kept whole does nothing.
  func flush()
}

extension TextOutput {
  /// Appends UTF-8 `bytes` as text.
  public func write(bytes: [UInt8]) { write(String(decoding: bytes, as: UTF8.self)) }
  /// Nothing to send: the output is kept whole.
  public func flush() {}
}

/// Collects rendered text in memory, as UTF-8 bytes: text and bytes (a list's rows) are
/// appended alike, without a string made per write.
public final class StringOutput: TextOutput {
  private var bytes: [UInt8] = []
  /// What has been written, made into a string each time it is read (read it once, at the
  /// end).
  public var text: String { String(decoding: bytes, as: UTF8.self) }
  /// An empty output.
  public init() {}
  /// Appends `text`'s UTF-8 bytes.
  public func write(_ text: String) { bytes.append(contentsOf: text.utf8) }
  /// Appends `bytes` as they are.
  public func write(bytes: [UInt8]) { self.bytes.append(contentsOf: bytes) }
}

/// Turns a view tree into text for one medium; chosen by the `platform` key from a
/// ``RendererRegistry``.
public protocol PageRenderer {
  /// Writes `node` (usually a ``ViewNode/page(_:)``) to `output`, ending with a line break.
  func render(_ node: ViewNode, to output: any TextOutput) throws
}

/// Standard output, written through a buffer of its own: a page's rows reach the terminal (or
/// pipe) as they are rendered, and are never held whole. ``flush()`` after each page.
public final class StandardOutput: TextOutput {
  private var buffer: [UInt8] = []
  private let capacity = 1 << 16
  /// Whether bytes reached standard output since the page being written began.
  private var flushedDuringPage = false

  /// An output to the process's standard output.
  public init() { buffer.reserveCapacity(capacity) }

  /// Appends `text`, writing the buffer out when it is full.
  public func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= capacity { flush() }
  }

  /// Appends `bytes`, writing the buffer out when it is full.
  public func write(bytes: [UInt8]) {
    buffer.append(contentsOf: bytes)
    if buffer.count >= capacity { flush() }
  }

  /// Runs `body`, which writes one page. When it throws before anything of the page reached
  /// standard output, what it wrote is dropped: an error is never preceded by half a page's
  /// heading.
  public func page(_ body: () throws -> Void) rethrows {
    let start = buffer.count
    flushedDuringPage = false
    do {
      try body()
    } catch {
      if !flushedDuringPage { buffer.removeSubrange(start...) }
      throw error
    }
  }

  /// Writes what is buffered.
  public func flush() {
    guard !buffer.isEmpty else { return }
    flushedDuringPage = true
    buffer.withUnsafeBufferPointer { bytes in _ = fwrite(bytes.baseAddress, 1, bytes.count, stdout)
    }
    buffer.removeAll(keepingCapacity: true)
    fflush(stdout)
  }

  deinit { flush() }
}
