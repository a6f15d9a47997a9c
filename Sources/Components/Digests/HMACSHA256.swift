/// HMAC with SHA-256 (RFC 2104, checked against RFC 4231's vectors): d2s-serve's session
/// cookies and CSRF tokens are signed with it, under the server's key.
package struct HMACSHA256: Sendable {
  /// The key XORed with the inner pad, then with the outer pad (one block each).
  private let innerPad: [UInt8]
  private let outerPad: [UInt8]

  /// A signer with `key`: a key longer than a block is hashed first, a shorter one padded
  /// with zeros.
  package init(key: [UInt8]) {
    var block = key.count > SHA256.blockByteCount ? SHA256.hash(key) : key
    block += [UInt8](repeating: 0, count: SHA256.blockByteCount - block.count)
    innerPad = block.map { $0 ^ 0x36 }
    outerPad = block.map { $0 ^ 0x5c }
  }

  /// The authentication code of `message`'s bytes (32 bytes).
  package func code(_ message: UnsafeRawBufferPointer) -> [UInt8] {
    var inner = innerPad
    inner.append(contentsOf: message)
    return SHA256.hash(outerPad + SHA256.hash(inner))
  }

  /// The authentication code of `message` (32 bytes).
  package func code(_ message: [UInt8]) -> [UInt8] {
    message.withUnsafeBytes { code($0) }
  }

  /// The authentication code of `text`'s UTF-8 bytes (32 bytes).
  package func code(_ text: String) -> [UInt8] {
    var text = text
    return text.withUTF8 { code(UnsafeRawBufferPointer($0)) }
  }

  /// Whether `candidate` is `message`'s code, compared in time that depends only on the
  /// lengths, never on where the first wrong byte is.
  package func isCode(_ candidate: [UInt8], of message: [UInt8]) -> Bool {
    Self.equalInConstantTime(candidate, code(message))
  }

  /// Whether `left` and `right` hold the same bytes: every byte is compared, whatever the
  /// others are.
  package static func equalInConstantTime(_ left: [UInt8], _ right: [UInt8]) -> Bool {
    guard left.count == right.count else { return false }
    var difference: UInt8 = 0
    for index in left.indices { difference |= left[index] ^ right[index] }
    return difference == 0
  }
}
