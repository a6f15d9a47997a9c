import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import RuleCore

/// Logging in (SPEC §5): the user entity is the one rules assign for `task = 'login'`; the
/// login matches exactly, else case-insensitively; the password column may hold plain text or a
/// lowercase hex MD5 / SHA-1 digest.
public enum Login {
  /// The user for `login` and `password`.
  /// - Throws: ``LoginError`` (the same message whether the user or the password is wrong).
  public static func authenticate(login: String, password: String, in context: RuleContext) throws
    -> DatabaseObject
  {
    guard let database = context.database else {
      throw DatabaseError(.connection, "no database is open")
    }
    // The columns must be readable: without them no entity has a login (not a failed login).
    _ = try UserEntity.findReading(in: database.model)
    var probe = context
    probe.task = "login"
    // The page shown before does not choose the user entity.
    probe.removeValue(for: D2SKeys.EntityKey.self)
    probe.removeValue(for: D2SKeys.Object.self)
    guard let entity = probe.entity, let loginAttribute = UserEntity.loginAttribute(of: entity),
      let passwordAttribute = UserEntity.passwordAttribute(of: entity)
    else {
      throw LoginError(
        message: "this database has no user entity (with a login and a password attribute)")
    }

    func users(_ qualifier: Qualifier) throws -> [DatabaseObject] {
      try database.fetch(
        FetchSpecification(entityName: entity.name, qualifier: qualifier, limit: 2))
    }
    // Both look-ups run whatever the first finds: a known name takes as long as an unknown one.
    let exact = try users(.comparison(KVCPath(loginAttribute.name), .equal, .string(login)))
    let pattern = login.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
      of: "*", with: "\\*"
    )
    .replacingOccurrences(of: "?", with: "\\?")
    let folded = try users(
      .comparison(KVCPath(loginAttribute.name), .caseInsensitiveLike, .string(pattern)))
    let candidates = exact.isEmpty ? folded : exact
    // An unknown user costs what a wrong password costs: the digests are computed either way.
    var stored = ""
    var user: DatabaseObject?
    if candidates.count == 1, let candidate = candidates.first,
      case .string(let text)? = candidate.databaseValue(forAttribute: passwordAttribute.name)
    {
      stored = text
      user = candidate
    }
    let matched = matches(password, stored: stored)
    guard let user, matched else { throw LoginError(message: "wrong user name or password") }
    return user
  }

  /// A hex MD5 or SHA-1 digest of `password` (32 or 40 hex digits, in either case), or
  /// plain text of any other form; every form is computed, and compared in time that does
  /// not depend on where the texts differ. A digest is never matched by itself.
  static func matches(_ password: String, stored: String) -> Bool {
    let stored = stored.trimmingCharacters(in: .whitespaces)
    let bytes = Array(password.utf8)
    let md5 = LegacyDigest.hex(LegacyDigest.md5(bytes))
    let sha1 = LegacyDigest.hex(LegacyDigest.sha1(bytes))
    let plain = constantTimeEqual(stored, password)
    let isMD5 = constantTimeEqual(stored.lowercased(), md5)
    let isSHA1 = constantTimeEqual(stored.lowercased(), sha1)
    let isDigest =
      (stored.utf8.count == 32 || stored.utf8.count == 40) && stored.utf8.allSatisfy(\.isHexDigit)
    return isDigest ? isMD5 || isSHA1 : plain
  }

  /// Whether `a` and `b` hold the same bytes, looking at every byte of the longer.
  public static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
    let x = Array(a.utf8)
    let y = Array(b.utf8)
    var difference = UInt8(x.count == y.count ? 0 : 1)
    for index in 0..<max(x.count, y.count) {
      difference |= (index < x.count ? x[index] : 0) ^ (index < y.count ? y[index] : 0)
    }
    return difference == 0
  }
}

/// A failed login.
public struct LoginError: Error, Sendable, CustomStringConvertible {
  /// What went wrong, as the user is told it.
  public var message: String
  /// The message.
  public var description: String { message }
}

extension UInt8 {
  /// `0`–`9`, `a`–`f` or `A`–`F`.
  fileprivate var isHexDigit: Bool {
    (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self)
  }
}
