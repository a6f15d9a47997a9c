import Foundation
import Testing

@testable import Components

/// Our SHA-256 and HMAC-SHA256 (d2s-serve's session ids, cookies and CSRF tokens): the
/// published vectors, then Python's `hashlib` and `hmac` as an oracle over every length
/// around the block and padding boundaries, with keys shorter and longer than a block.
@Suite struct SHA256Tests {
  /// FIPS 180-4's examples (and the empty message).
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
    ),
  ])
  func publishedVectors(text: String, digest: String) {
    #expect(LegacyDigest.hex(SHA256.hash(text)) == digest)
    #expect(LegacyDigest.hex(SHA256.hash(Array(text.utf8))) == digest)
  }

  @Test func aMillionBytes() {
    let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(
      LegacyDigest.hex(SHA256.hash(bytes))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  /// RFC 4231's test cases 1 to 4, 6 and 7 (5 truncates the code).
  @Test(arguments: [
    (
      String(repeating: "0b", count: 20), Array("Hi There".utf8),
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"
    ),
    (
      LegacyDigest.hex(Array("Jefe".utf8)), Array("what do ya want for nothing?".utf8),
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
    ),
    (
      String(repeating: "aa", count: 20), [UInt8](repeating: 0xdd, count: 50),
      "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"
    ),
    (
      "0102030405060708090a0b0c0d0e0f10111213141516171819", [UInt8](repeating: 0xcd, count: 50),
      "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"
    ),
    (
      String(repeating: "aa", count: 131),
      Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8),
      "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
    ),
    (
      String(repeating: "aa", count: 131),
      Array(
        "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
          .utf8),
      "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"
    ),
  ])
  func rfc4231(keyHex: String, message: [UInt8], code: String) throws {
    let key = try #require(Self.bytes(hex: keyHex))
    let signer = HMACSHA256(key: key)
    #expect(LegacyDigest.hex(signer.code(message)) == code)
    let expected = try #require(Self.bytes(hex: code))
    #expect(signer.isCode(expected, of: message))
  }

  @Test func agreesWithPythonAtEveryLengthToThreeBlocks() throws {
    let messages = PythonDigests.randomMessages(maximumLength: 200)
    let expected = try PythonDigests.digests(of: messages)
    try #require(expected.count == messages.count)
    for ((key, message), digests) in zip(messages, expected) {
      #expect(LegacyDigest.hex(SHA256.hash(message)) == digests.sha256, "\(message.count) bytes")
      #expect(
        LegacyDigest.hex(HMACSHA256(key: key).code(message)) == digests.hmacSHA256,
        "\(message.count) bytes under a key of \(key.count)")
    }
  }

  /// A code is refused when any one of its bits is wrong, when it is cut short or made
  /// longer, and under another key.
  @Test func aCodeIsRefusedWhenAnyBitIsWrong() {
    let signer = HMACSHA256(key: Array("the server's key".utf8))
    let message = Array("session\u{0}id".utf8)
    let code = signer.code(message)
    #expect(signer.isCode(code, of: message))
    for bit in 0..<(code.count * 8) {
      var wrong = code
      wrong[bit / 8] ^= 1 << UInt8(bit % 8)
      #expect(!signer.isCode(wrong, of: message), "bit \(bit)")
    }
    #expect(!signer.isCode(Array(code.dropLast()), of: message))
    #expect(!signer.isCode(code + [0], of: message))
    #expect(!signer.isCode([], of: message))
    #expect(!HMACSHA256(key: Array("another key".utf8)).isCode(code, of: message))
  }

  @Test func randomBytesAreAsManyAsAskedAndDiffer() {
    for count in [0, 1, 7, 8, 9, 16, 32, 33] {
      #expect(RandomBytes.make(count).count == count)
    }
    #expect(RandomBytes.make(32) != RandomBytes.make(32))
  }

  /// The bytes `hex` spells, two digits each.
  static func bytes(hex: String) -> [UInt8]? {
    PositionToken.hexData(Substring(hex)).map { Array($0) }
  }
}
