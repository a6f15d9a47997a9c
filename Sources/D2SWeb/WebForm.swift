import Components
import D2SHTML
import D2SModel

/// A value the user typed that cannot be used, in words for beside its field.
struct FieldError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// A field the edit form's POST carried.
struct PostedField {
  let key: String
  let text: String
  let isNull: Bool
  let shownToken: String?
  let shownText: String?

  /// Whether the field has a NULL box (its column may be NULL).
  let nullable: Bool

  /// Whether the user changed the field from what they were shown. A field without a NULL
  /// box left empty while it held NULL (a new object's) is unchanged.
  var isChanged: Bool {
    guard let shownText else { return true }
    let wasNull = shownToken == "n"
    if wasNull, !nullable, text.isEmpty, shownText.isEmpty { return false }
    return isNull != wasNull || (!isNull && !FormDigest.text(text, matches: shownText))
  }

  /// The fields of a form, by the keys `editable` allows (`_` fields are the form's own). A
  /// checkbox left unticked is absent from a form: its `_bool.KEY` says it was there.
  static func fields(
    _ form: [(String, String)], editable: Set<String>, widgets: [String: FieldWidget] = [:],
    nullable: (String) -> Bool
  ) throws -> [PostedField] {
    var values: [String: String] = [:]
    for (name, value) in form where values[name] == nil { values[name] = value }
    for (name, _) in form where !name.hasPrefix("_") && !editable.contains(name) {
      throw WebError(.badRequest, "the form has no field \(name)")
    }
    return editable.sorted().compactMap { key in
      let kind = widgets[key]?.kind ?? .text
      let isCheckbox = kind == .checkbox && values["_bool." + key] != nil
      guard values[key] != nil || values["_null." + key] != nil || isCheckbox else { return nil }
      // Browsers send a textarea's line breaks as CR LF, and a date-time as `…T10:11`.
      func normal(_ text: String?) -> String? {
        guard let text else { return nil }
        let lines = text.replacingOccurrences(of: "\r\n", with: "\n")
        return kind == .dateTime ? DateInput.storedForm(lines) : lines
      }
      let text = isCheckbox ? (values[key] == nil ? "false" : "true") : normal(values[key]) ?? ""
      // A long text comes back as its digest (``FormDigest``).
      let shownText =
        normal(values["_text." + key]) ?? values["_textsum." + key].map { FormDigest.textMark + $0 }
      // A ticked NULL box means NULL, unless the user typed something new beside it.
      let isNull =
        values["_null." + key] == "on"
        && (text.isEmpty || FormDigest.text(text, matches: shownText))
      return PostedField(
        key: key, text: text, isNull: isNull, shownToken: values["_shown." + key],
        shownText: shownText, nullable: nullable(key))
    }
  }
}

extension WebForm {
  /// Keeps what the user posted, to show the form again.
  mutating func keep(_ fields: [PostedField]) {
    for field in fields {
      typed[field.key] = field.text
      if field.isNull { nulls.insert(field.key) }
      shown[field.key] = field.shownToken
      shownText[field.key] = field.shownText
    }
  }
}
