import D2SModel
import RuleCore

extension RuleContext {
  /// The title of the list of `object`'s to-many `relationship` (`Actors of ACADEMY
  /// DINOSAUR`): the relationship's label on the object's page, then the object's title, as
  /// the rules give them. Every front end titles a followed to-many so.
  public func title(ofRelationship relationship: String, of object: DatabaseObject) -> String {
    var owner = self
    owner.task = "inspect"
    owner.entity = object.entity
    owner.object = object
    let label = owner.with(\.propertyKey, relationship).displayNameForProperty
    return "\(label.isEmpty ? relationship : label) of \(owner.title)"
  }
}
