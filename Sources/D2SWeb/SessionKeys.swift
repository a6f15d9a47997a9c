import Components
import Foundation
import Synchronization

/// The server's signing key and what it signs: session cookies (a random session id, whose
/// record the server keeps: ``SessionStore``) and CSRF tokens bound to a session, or to a
/// pre-session cookie for the login form.
public struct SessionKeys: Sendable {
  /// The key's signer (HMAC-SHA256).
  private let signer: HMACSHA256
  /// Tokens verified and tokens made, kept: every logged-in request verifies its cookie and
  /// its page makes a CSRF token, the same ones again and again.
  private let answers = KeptAnswers()
  /// How long a session lasts.
  public static let sessionLifetime: TimeInterval = 12 * 3600
  /// How long a login form may wait before it is sent.
  public static let loginFormLifetime: TimeInterval = 3600

  /// Keys from `secret` (at least 32 bytes).
  public init(secret: Data) throws {
    guard secret.count >= 32 else {
      throw WebSetupError("the secret must be at least 32 bytes (it has \(secret.count))")
    }
    signer = HMACSHA256(key: Array(secret))
  }

  /// A fresh random key, kept in memory: sessions end when the server stops.
  public static func random() -> SessionKeys {
    SessionKeys(bytes: RandomBytes.make(32))
  }

  private init(bytes: [UInt8]) { signer = HMACSHA256(key: bytes) }

  /// Keys from `--secret-file`: its bytes, one trailing newline dropped; refused when shorter
  /// than 32 bytes or readable by others than its owner.
  public static func read(file path: String) throws -> SessionKeys {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    guard let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue else {
      throw WebSetupError("cannot read the mode of \(path)")
    }
    if mode & 0o077 != 0 {
      throw WebSetupError(
        "\(path) can be read by others (mode \(String(mode, radix: 8))): chmod 600 it")
    }
    var data = try Data(contentsOf: URL(fileURLWithPath: path))
    if data.last == UInt8(ascii: "\n") { data.removeLast() }
    return try SessionKeys(secret: data)
  }

  /// `payload` with its signature: `base64url(payload).base64url(mac)`.
  func sign(_ payload: String) -> String {
    Self.base64URL(Data(payload.utf8)) + "." + Self.base64URL(Data(signer.code(payload)))
  }

  /// The payload of `token` when its signature is right (compared in constant time).
  func verify(_ token: String) -> String? {
    answers.answer("verify\u{0}" + token) { verifyAnew(token) }
  }

  /// ``verify(_:)``'s answer, worked out.
  private func verifyAnew(_ token: String) -> String? {
    // One dot, found as a byte (every logged-in request reads its cookie).
    let utf8 = token.utf8
    guard let dot = utf8.firstIndex(of: UInt8(ascii: ".")),
      !utf8[utf8.index(after: dot)...].contains(UInt8(ascii: ".")),
      let payload = Self.data(base64URL: token[..<dot]),
      let mac = Self.data(base64URL: token[utf8.index(after: dot)...])
    else { return nil }
    guard signer.isCode(Array(mac), of: Array(payload)) else { return nil }
    return String(data: payload, encoding: .utf8)
  }

  /// A token for `purpose` (a CSRF token), bound to `binding` (a session or pre-session).
  func token(_ purpose: String, boundTo binding: String) -> String {
    let message = purpose + "\u{0}" + binding
    return answers.answer("token\u{0}" + message) {
      Self.base64URL(Data(signer.code(message)))
    }
  }

  /// Whether `token` is the token for `purpose` bound to `binding` (constant time).
  func check(_ token: String, _ purpose: String, boundTo binding: String) -> Bool {
    guard let mac = Self.data(base64URL: Substring(token)) else { return false }
    return signer.isCode(Array(mac), of: Array((purpose + "\u{0}" + binding).utf8))
  }

  /// `data` in base64url without padding (RFC 4648 §5), its bytes mapped in one pass: every
  /// logged-in request makes a token and reads one.
  static func base64URL(_ data: Data) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity((data.count + 2) / 3 * 4)
    for byte in data.base64EncodedString().utf8 {
      switch byte {
      case UInt8(ascii: "+"): bytes.append(UInt8(ascii: "-"))
      case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "_"))
      case UInt8(ascii: "="): continue
      default: bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The bytes of base64url `text` (padding optional); nil when it is not base64url.
  static func data(base64URL text: Substring) -> Data? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count + 3)
    for byte in text.utf8 {
      switch byte {
      case UInt8(ascii: "-"): bytes.append(UInt8(ascii: "+"))
      case UInt8(ascii: "_"): bytes.append(UInt8(ascii: "/"))
      // The standard alphabet's own letters are not base64url.
      case UInt8(ascii: "+"), UInt8(ascii: "/"): return nil
      default: bytes.append(byte)
      }
    }
    while bytes.count % 4 != 0 { bytes.append(UInt8(ascii: "=")) }
    return Data(base64Encoded: Data(bytes))
  }

  /// `bytes` random bytes (16 by default) as URL-safe text: pre-session nonces, session ids.
  static func nonce(bytes: Int = 16) -> String {
    base64URL(Data(RandomBytes.make(bytes)))
  }
}

/// A server that cannot start as configured (a bad secret file).
public struct WebSetupError: Error, CustomStringConvertible {
  /// Why the server cannot start.
  public let description: String
  init(_ description: String) { self.description = description }
}

/// Answers worked out from the server's key, kept by what they answer (a bounded number, each
/// of bounded length): the same key gives the same answer, so none is ever stale. Only
/// answers that are not nil are kept (a token that failed to verify is worked out again).
final class KeptAnswers: Sendable {
  /// The most answers kept; past it, those kept are forgotten.
  static let maximumCount = 4_096
  /// The longest question kept (a delete form's row stamp may be longer: not kept).
  static let maximumLength = 512
  private let kept = Mutex<[String: String]>([:])

  /// The answer to `question`: the one kept, else `make`'s (kept when not nil).
  func answer(_ question: String, _ make: () -> String?) -> String? {
    if let found = kept.withLock({ $0[question] }) { return found }
    guard let made = make() else { return nil }
    keep(made, for: question)
    return made
  }

  /// The answer to `question`: the one kept, else `make`'s, kept.
  func answer(_ question: String, _ make: () -> String) -> String {
    if let found = kept.withLock({ $0[question] }) { return found }
    let made = make()
    keep(made, for: question)
    return made
  }

  private func keep(_ answer: String, for question: String) {
    guard question.utf8.count <= Self.maximumLength else { return }
    kept.withLock { kept in
      if kept.count >= Self.maximumCount { kept.removeAll() }
      kept[question] = answer
    }
  }
}
