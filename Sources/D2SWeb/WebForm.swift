import Components
import D2SModel

/// An edit form as the page shows it: where it posts, its CSRF token, and, when it is shown
/// again, what the user typed, the values they were shown, and what was wrong.
struct WebForm: Sendable {
  /// The URL the form posts to.
  var action: String
  /// The `_csrf` token bound to the session.
  var csrf: String
  /// The text typed, by property key (a form shown again).
  var typed: [String: String] = [:]
  /// Keys the user set to NULL.
  var nulls: Set<String> = []
  /// The values the user was first shown, as position tokens (`_shown.KEY`), by key.
  var shown: [String: String] = [:]
  /// The text the user was first shown (`_text.KEY`), by key.
  var shownText: [String: String] = [:]
  /// What is wrong with a field, by key.
  var errors: [String: String] = [:]
  /// A message above the form (a constraint the database refused).
  var message: String?
  /// The inspect page, for Cancel.
  var cancel: String
}

/// A field the edit form's POST carried.
struct PostedField {
  let key: String
  let text: String
  let isNull: Bool
  let shownToken: String?
  let shownText: String?

  /// Whether the user changed the field from what they were shown.
  var isChanged: Bool {
    guard let shownText else { return true }
    let wasNull = shownToken == "n"
    return isNull != wasNull || (!isNull && text != shownText)
  }

  /// The fields of a form, by the keys `editable` allows (`_` fields are the form's own).
  static func fields(_ form: [(String, String)], editable: Set<String>) throws -> [PostedField] {
    var values: [String: String] = [:]
    for (name, value) in form where values[name] == nil { values[name] = value }
    for (name, _) in form where !name.hasPrefix("_") && !editable.contains(name) {
      throw WebError(.badRequest, "the form has no field \(name)")
    }
    return editable.sorted().compactMap { key in
      guard values[key] != nil || values["_null." + key] != nil else { return nil }
      // Browsers send a textarea's line breaks as CR LF.
      func lines(_ text: String?) -> String? { text?.replacingOccurrences(of: "\r\n", with: "\n") }
      return PostedField(
        key: key, text: lines(values[key]) ?? "", isNull: values["_null." + key] == "on",
        shownToken: values["_shown." + key], shownText: lines(values["_text." + key]))
    }
  }
}

extension ViewNode {
  /// The edit field the node shows, if any.
  var editField: EditFieldNode? {
    switch self {
    case .editField(let field): field
    case .tagged(_, let inner): inner.editField
    case .line(let items, _), .stack(let items): items.lazy.compactMap(\.editField).first
    default: nil
    }
  }
}
