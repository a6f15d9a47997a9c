import D2SModel
import EnvKeys
import RuleCore

/// Editing a many-to-many (Direct to Web's edit-relationship page): one link added or removed
/// at a time, under the same rules as an edit.
extension EditingSession {
  /// Adds or removes one link of `object`'s many-to-many `relationshipName`, when the rules
  /// let the user edit `object` (`isObjectEditable`, task `edit`) and add and delete rows of
  /// the link entity (`isEntityReadOnly` false for it). `expecting` is the destinations' keys
  /// as the user saw them: links changed meanwhile are a `conflict` and nothing changes
  /// (``Database/changeLinks(_:of:_:expecting:options:)``).
  public static func changeLinks(
    _ relationshipName: String, of object: DatabaseObject, _ change: Database.LinkChange,
    expecting: [[DatabaseValue]]? = nil, in context: RuleContext
  ) throws {
    guard let database = object.database ?? context.database else {
      throw DatabaseError(.connection, "no database is open")
    }
    try database.requireWritable(
      "the \(relationshipName) of \(object.entity.name) \(object.primaryKeyDescription) cannot be changed"
    )
    let link = try database.linkTable(relationshipName, of: object.entity)
    let owner = try mayChangeLinks(relationshipName, of: object, link: link, in: context)
    try Permissions.require(
      D2SKeys.IsObjectEditable.self, for: object, in: owner, action: "edited")
    // A link changes both ends: the other one must be editable too (linking Film 1 from
    // Actor 5's page changes Film 1's actors).
    let key: [DatabaseValue] =
      switch change {
      case .add(let key), .remove(let key): key
      }
    if let destination = object.entity.relationship(named: relationshipName)?.destinationName,
      let other = try database.fetchObject(destination, primaryKey: key)
    {
      try Permissions.require(
        D2SKeys.IsObjectEditable.self, for: other, in: owner, action: "linked")
    }
    var linkContext = owner
    linkContext.object = nil
    linkContext.entity = link.entity
    try database.changeLinks(
      relationshipName, of: object, change, expecting: expecting,
      options: .init(
        creationTimestampKey: linkContext.creationTimestampPropertyKey,
        updateTimestampKey: linkContext.updateTimestampPropertyKey))
  }

  /// Whether the rules let the user change the links of `object`'s many-to-many
  /// `relationshipName` (the edit-relationship page's buttons are shown only then).
  public static func mayChangeLinks(
    _ relationshipName: String, of object: DatabaseObject, in context: RuleContext
  ) -> Bool {
    guard let database = object.database ?? context.database,
      database.readOnlyReason == nil,
      let link = try? database.linkTable(relationshipName, of: object.entity),
      let owner = try? mayChangeLinks(relationshipName, of: object, link: link, in: context)
    else { return false }
    return
      (try? Permissions.require(
        D2SKeys.IsObjectEditable.self, for: object, in: owner, action: "edited")) != nil
  }

  /// Whether the rules let the user link `other` (the other end must be editable too).
  public static func mayLink(_ other: DatabaseObject, in context: RuleContext) -> Bool {
    var probe = context
    probe.task = "edit"
    return
      (try? Permissions.require(
        D2SKeys.IsObjectEditable.self, for: other, in: probe, action: "linked")) != nil
  }

  /// The owner's edit context, once the link entity is known to be writable by the rules.
  private static func mayChangeLinks(
    _ relationshipName: String, of object: DatabaseObject, link: Database.LinkTable,
    in context: RuleContext
  ) throws -> RuleContext {
    var owner = context
    owner.task = "edit"
    owner.entity = object.entity
    owner.object = object
    var probe = owner
    probe.object = nil
    probe.entity = link.entity
    if link.entity.isReadOnly || probe.isEntityReadOnly {
      throw PermissionError(
        message:
          "\(link.entity.name) is read-only: the \(relationshipName) of \(object.entity.name) \(object.primaryKeyDescription) may not be changed"
      )
    }
    return owner
  }
}
