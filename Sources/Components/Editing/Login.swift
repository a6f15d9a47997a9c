import Crypto
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
    var candidates = try users(.comparison(KVCPath(loginAttribute.name), .equal, .string(login)))
    if candidates.isEmpty {
      let pattern = login.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(
        of: "*", with: "\\*"
      )
      .replacingOccurrences(of: "?", with: "\\?")
      candidates = try users(
        .comparison(KVCPath(loginAttribute.name), .caseInsensitiveLike, .string(pattern)))
    }
    guard candidates.count == 1, let user = candidates.first,
      case .string(let stored)? = user.databaseValue(forAttribute: passwordAttribute.name),
      matches(password, stored: stored)
    else { throw LoginError(message: "wrong user name or password") }
    return user
  }

  /// Plain text, or a lowercase hex MD5 or SHA-1 digest of `password`.
  static func matches(_ password: String, stored: String) -> Bool {
    let stored = stored.trimmingCharacters(in: .whitespaces)
    if stored == password { return true }
    let data = Data(password.utf8)
    let md5 = Insecure.MD5.hash(data: data).map { String(format: "%02x", $0) }.joined()
    let sha1 = Insecure.SHA1.hash(data: data).map { String(format: "%02x", $0) }.joined()
    return stored.lowercased() == md5 || stored.lowercased() == sha1
  }
}

/// A failed login.
public struct LoginError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}
