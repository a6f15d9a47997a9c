import Components
import NIOCore

/// A page written straight into the buffer the server sends: text and a list's row bytes are
/// appended alike, with no copy between the renderer and the socket.
final class ByteBufferOutput: TextOutput {
  /// What has been written.
  private(set) var buffer: ByteBuffer

  /// An empty output with room for a typical page.
  init(capacity: Int = 16 * 1024) {
    buffer = ByteBufferAllocator().buffer(capacity: capacity)
  }

  /// Appends `text`'s UTF-8 bytes.
  func write(_ text: String) { buffer.writeString(text) }

  /// Appends `bytes` as they are.
  func write(bytes: [UInt8]) { buffer.writeBytes(bytes) }

  /// What has been written, as text (a page sent with an error status).
  var text: String { String(buffer: buffer) }
}
