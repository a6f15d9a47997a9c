import Foundation
import Testing

@testable import Components

/// MD5 and SHA-1 of our own (login compares stored digests with them): the published test
/// vectors, then Python's `hashlib` as an oracle over every length around the block and
/// padding boundaries.
@Suite struct LegacyDigestTests {
  @Test(arguments: [
    ("", "d41d8cd98f00b204e9800998ecf8427e", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
    ("a", "0cc175b9c0f1b6a831c399e269772661", "86f7e437faa5a7fce15d1ddcb9eaeaea377667b8"),
    ("abc", "900150983cd24fb0d6963f7d28e17f72", "a9993e364706816aba3e25717850c26c9cd0d89d"),
    (
      "message digest", "f96b697d7cb7938d525a2f31aaf161d0",
      "c12252ceda8be8994d5fa0290a47231c1d16aae3"
    ),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "8215ef0796a20bcaaae116d3876c664a", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
    ),
    (
      "12345678901234567890123456789012345678901234567890123456789012345678901234567890",
      "57edf4a22be3c955ac49da2e2107b67a", "50abf5706a150990a08b2c5ea40fa0e585554732"
    ),
    ("12345", "827ccb0eea8a706c4c34a16891f84e7b", "8cb2237d0679ca88db6464eac60da96345513964"),
  ])
  func publishedVectors(text: String, md5: String, sha1: String) {
    let bytes = Array(text.utf8)
    #expect(LegacyDigest.hex(LegacyDigest.md5(bytes)) == md5)
    #expect(LegacyDigest.hex(LegacyDigest.sha1(bytes)) == sha1)
  }

  @Test func agreesWithPythonAtEveryLengthToThreeBlocks() throws {
    let messages = PythonDigests.randomMessages(maximumLength: 200)
    let expected = try PythonDigests.digests(of: messages)
    try #require(expected.count == messages.count)
    for (message, digests) in zip(messages.map(\.message), expected) {
      #expect(
        LegacyDigest.hex(LegacyDigest.md5(message)) == digests.md5, "MD5 of \(message.count) bytes")
      #expect(
        LegacyDigest.hex(LegacyDigest.sha1(message)) == digests.sha1,
        "SHA-1 of \(message.count) bytes")
    }
  }

  @Test func aMillionBytes() {
    let bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(LegacyDigest.hex(LegacyDigest.md5(bytes)) == "7707d6ae4e027c70eea2a935c2296f21")
    #expect(
      LegacyDigest.hex(LegacyDigest.sha1(bytes)) == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
  }
}
