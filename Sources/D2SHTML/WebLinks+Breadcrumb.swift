import Components
import D2SModel
import RuleCore

/// The breadcrumb above every page: the entity list, the entity's list, the object.
extension WebLinks {
  /// The first step of every trail, the entity list: all a list page's trail holds.
  public static let entityListCrumb: (label: String, path: String) = ("Entities", "/")

  /// The trail to a page of `entity`'s, through `object` when the page is below the
  /// object's (its edit form, a to-many followed): labels as the rules give them
  /// (`Moviestars`, the object's title).
  public static func trail(
    to entity: Entity, object: DatabaseObject? = nil, context: RuleContext
  ) -> [(label: String, path: String)] {
    var trail = [entityListCrumb]
    var list = context
    list.task = "list"
    list.entity = entity
    list.removeValue(for: D2SKeys.Object.self)
    let name = list.displayNameForEntity
    trail.append((name.isEmpty ? entity.name : name, entityPath(entity.name)))
    if let object, let path = objectPath(entity.name, key: object.primaryKeyValues) {
      var inspect = list
      inspect.task = "inspect"
      inspect.object = object
      trail.append((inspect.title, path))
    }
    return trail
  }

  /// The trail of a page the rules made in `context`: an object's page leads back to its
  /// entity's list, a list to the entity list; the entity list has none.
  public static func trail(of context: RuleContext) -> [(label: String, path: String)] {
    guard let entity = context.entity else { return [] }
    switch context.task {
    case "list": return [entityListCrumb]
    case "inspect": return trail(to: entity, context: context)
    default: return []
    }
  }
}
