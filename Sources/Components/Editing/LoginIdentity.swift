import D2SModel
import Foundation
import Qualifiers
import RuleCore

/// The attribute a user logs in with is their identity (issue 38): a logged-in user may
/// change only their own, and no two users may share one, compared without regard to case as
/// ``Login/authenticate(login:password:in:)`` matches it. Checked at every save, whatever
/// the front end; a person at a terminal who has not logged in (the database's owner) may
/// change any.
enum LoginIdentity {
  /// Throws unless saving `object` keeps every user's login name their own.
  static func check(_ object: DatabaseObject, in context: RuleContext, database: Database) throws {
    guard let loginAttribute = UserEntity.loginAttribute(of: object.entity),
      UserEntity.passwordAttribute(of: object.entity) != nil, isUserEntity(object.entity, context)
    else { return }
    let name = loginAttribute.name
    let value = object.databaseValue(forAttribute: name) ?? .null
    if !object.isNew {
      guard (object.fetchedCopy().databaseValue(forAttribute: name) ?? .null) != value else {
        return
      }
      if let user = context.user, !isSameRow(user, object) {
        throw PermissionError(
          message:
            "\(object.entity.name) \(object.primaryKeyDescription) may not be saved (only that user may change \(name), which logs them in)"
        )
      }
    }
    guard case .string(let login) = value else { return }
    let pattern = login.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "*", with: "\\*").replacingOccurrences(of: "?", with: "\\?")
    let others = try database.fetch(
      FetchSpecification(
        entityName: object.entity.name,
        qualifier: .comparison(KVCPath(name), .caseInsensitiveLike, .string(pattern)), limit: 3)
    ).filter { object.isNew || !isSameRow($0, object) }
    if !others.isEmpty {
      throw DatabaseError(
        .invalidValue,
        "\(name): another user already logs in as '\(login)' (login names are compared without regard to case); nothing was saved"
      )
    }
  }

  /// Whether `key` is the login attribute of a user other than the context's logged-in user
  /// (an edit form shows it, but does not offer to change it).
  static func isLocked(_ key: String, of object: DatabaseObject, in context: RuleContext) -> Bool {
    // A key that is no login name is never one: most of a form's keys end here, before the
    // entity's attributes are searched.
    guard UserEntity.loginNames.contains(key.lowercased()), let user = context.user,
      !object.isNew, UserEntity.loginAttribute(of: object.entity)?.name == key,
      UserEntity.passwordAttribute(of: object.entity) != nil, isUserEntity(object.entity, context)
    else { return false }
    return !isSameRow(user, object)
  }

  /// Whether `entity` is the one rules give `task = 'login'`.
  private static func isUserEntity(_ entity: Entity, _ context: RuleContext) -> Bool {
    var probe = context
    probe.task = "login"
    probe.removeValue(for: D2SKeys.EntityKey.self)
    probe.removeValue(for: D2SKeys.Object.self)
    return probe.entity?.name == entity.name
  }

  private static func isSameRow(_ a: DatabaseObject, _ b: DatabaseObject) -> Bool {
    a.entity.name == b.entity.name && a.primaryKeyValues == b.primaryKeyValues
  }
}
