import D2SModel
import EnvKeys

/// What a link or button of a page does, as a value: each front end maps it in one place
/// (the REPL to the command a person types, ``command``; the web to a URL through its link
/// builder; JSON to ``jsonFields``), so no front end reads command text back.
public enum PageAction: Sendable, Hashable {
  /// An entity's list (`list Film`).
  case list(entity: String)
  /// A relationship of the page's object, followed (`follow actors`).
  case follow(relationship: String)
  /// The destination of a to-one being edited, chosen from a list (`choose language`).
  case choose(relationship: String)
  /// A property of the object being edited, set to a value (`object.rating = 'PG-13'`).
  case set(property: String, value: DatabaseValue)
  /// The window after the one shown (`next`).
  case next
  /// The window before the one shown (`prev`).
  case previous

  /// The command a person types at the REPL for it.
  public var command: String {
    switch self {
    case .list(let entity): "list \(entity)"
    case .follow(let relationship): "follow \(relationship)"
    case .choose(let relationship): "choose \(relationship)"
    case .set(let property, let value): "object.\(property) = \(value.qualifierText)"
    case .next: "next"
    case .previous: "prev"
    }
  }

  /// The action's name in JSON (`"action": "follow"`).
  public var name: String {
    switch self {
    case .list: "list"
    case .follow: "follow"
    case .choose: "choose"
    case .set: "set"
    case .next: "next"
    case .previous: "previous"
    }
  }

  /// The JSON object's members: the action's name, then its arguments
  /// (`{"action":"follow","relationship":"actors"}`).
  public var jsonFields: [(String, String)] {
    var fields = [("action", JSONText.string(name))]
    switch self {
    case .list(let entity): fields.append(("entity", JSONText.string(entity)))
    case .follow(let relationship), .choose(let relationship):
      fields.append(("relationship", JSONText.string(relationship)))
    case .set(let property, let value):
      fields.append(("property", JSONText.string(property)))
      fields.append(("value", JSONText.value(value)))
    case .next, .previous: break
    }
    return fields
  }

  /// The action as a JSON object.
  public var json: String { JSONText.object(jsonFields) }
}
