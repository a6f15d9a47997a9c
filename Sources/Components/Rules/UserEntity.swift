import D2SModel

/// Finds the entity users log in with (SPEC §5): one with both a login attribute (first of
/// `login`, `username`, `user`, `email`) and a password attribute (first of `password`,
/// `passwd`, `pwd`), preferring ones named `staff`, `user(s)`, `account(s)`.
public enum UserEntity {
  /// The names a login attribute may have, best first (compared without case).
  public static let loginNames = ["login", "username", "user", "email"]
  /// The names a password attribute may have, best first (compared without case).
  public static let passwordNames = ["password", "passwd", "pwd"]

  /// The attribute of `entity` users log in with, by the first of ``loginNames`` it has.
  public static func loginAttribute(of entity: Entity) -> Attribute? {
    loginNames.lazy.compactMap { name in entity.attributes.first { $0.name.lowercased() == name } }
      .first
  }

  /// The attribute of `entity` holding passwords, by the first of ``passwordNames`` it has.
  public static func passwordAttribute(of entity: Entity) -> Attribute? {
    passwordNames.lazy.compactMap { name in entity.attributes.first { $0.name.lowercased() == name }
    }.first
  }

  /// ``find(in:)``, or an error when an entity's columns cannot be read now (another program
  /// holds the database): "no user entity" would be a wrong answer, and a kept one.
  package static func findReading(in model: Model) throws -> Entity? {
    for entity in model.entities where !entity.isView { try entity.requireDetails() }
    return find(in: model)
  }

  /// The user entity of `model`: a table with a login and a password attribute, preferring
  /// `staff`, `user(s)` and `account(s)`; nil when none has both.
  public static func find(in model: Model) -> Entity? {
    let candidates = model.entities.filter {
      !$0.isView && loginAttribute(of: $0) != nil && passwordAttribute(of: $0) != nil
    }
    let preferred = ["staff", "user", "users", "account", "accounts"]
    return candidates.first { preferred.contains($0.name.lowercased()) } ?? candidates.first
  }
}
