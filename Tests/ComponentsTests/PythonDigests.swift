import D2STesting
import Foundation

@testable import Components

/// Digests from Python's `hashlib` and `hmac` (Debian's `python3`), the oracle our own MD5,
/// SHA-1, SHA-256 and HMAC-SHA256 are checked against: one process for all the messages.
enum PythonDigests {
  /// One message's digests, each in lowercase hex.
  struct Digests: Equatable {
    var md5: String
    var sha1: String
    var sha256: String
    /// HMAC-SHA256 of the message under the key it was asked with.
    var hmacSHA256: String
  }

  /// The digests of each message, under its key for HMAC.
  static func digests(of messages: [(key: [UInt8], message: [UInt8])]) throws -> [Digests] {
    let folder = try TestFolders.make("d2s-digests")
    defer { try? FileManager.default.removeItem(at: folder) }
    let input = folder.appendingPathComponent("in.txt")
    let output = folder.appendingPathComponent("out.txt")
    let lines = messages.map { LegacyDigest.hex($0.key) + " " + LegacyDigest.hex($0.message) }
    try (lines.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
    let script = """
      import hashlib, hmac, sys
      for line in sys.stdin:
          key, message = (bytes.fromhex(part) for part in line.split(' '))
          print(hashlib.md5(message).hexdigest(), hashlib.sha1(message).hexdigest(),
                hashlib.sha256(message).hexdigest(),
                hmac.new(key, message, hashlib.sha256).hexdigest())
      """
    let status = try Spawn.run(
      "/usr/bin/python3", ["-c", script], inputPath: input.path, outputPath: output.path,
      timeout: 60)
    guard status == 0 else { throw OracleFailure(status: status) }
    return try String(contentsOf: output, encoding: .utf8).split(separator: "\n").map { line in
      let fields = line.split(separator: " ").map(String.init)
      return Digests(md5: fields[0], sha1: fields[1], sha256: fields[2], hmacSHA256: fields[3])
    }
  }

  /// The oracle's process did not end well.
  struct OracleFailure: Error {
    /// Its exit status.
    var status: Int32
  }

  /// Random messages of every length from 0 to `maximumLength`, each with a random key of a
  /// length that goes round the block size (keys longer than a block are hashed first).
  static func randomMessages(maximumLength: Int) -> [(key: [UInt8], message: [UInt8])] {
    var generator = SystemRandomNumberGenerator()
    return (0...maximumLength).map { length in
      let bytes = { (count: Int) in
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      }
      return (key: bytes(length % 131), message: bytes(length))
    }
  }
}
