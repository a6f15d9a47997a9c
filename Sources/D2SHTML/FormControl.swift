import D2SModel

/// The HTML of one form control for a widget: every value escaped. A browser's own control
/// (number, date, date-time) is used only when the text is in the form it takes; otherwise
/// a text input keeps the text exactly, so nothing shown is changed by the form itself.
enum FormControl {
  /// The control; `attributes` are its `id`, `name` and ARIA attributes, `current` is the text
  /// the page shows for the value (a to-one's title).
  static func html(
    _ kind: FieldWidget.Kind, attributes: String, key: String, text: String, isNull: Bool,
    current: String
  ) -> String {
    let value = " value=\"\(HTML.formValue(text))\""
    let long = text.count > 80 || text.contains("\n")
    switch kind {
    case .textarea:
      return textarea(attributes, text)
    case .text, .json, .array:
      return long ? textarea(attributes, text) : "<input \(attributes)\(value)>"
    case .number(let step):
      guard text.isEmpty || isPlainNumber(text) else {
        return "<input \(attributes) inputmode=\"decimal\"\(value)>"
      }
      return "<input \(attributes) type=\"number\" step=\"\(step)\"\(value)>"
    case .date:
      guard text.isEmpty || DateInput.isDay(text) else { return "<input \(attributes)\(value)>" }
      return "<input \(attributes) type=\"date\"\(value)>"
    case .dateTime:
      guard text.isEmpty || DateInput.inputForm(DateInput.storedForm(text)) != nil else {
        return "<input \(attributes)\(value)>"
      }
      let input = DateInput.inputForm(DateInput.storedForm(text)) ?? ""
      return
        "<input \(attributes) type=\"datetime-local\" step=\"1\" value=\"\(HTML.escape(input))\">"
    case .checkbox:
      return
        "<input \(attributes) type=\"checkbox\" value=\"true\"\(text == "true" ? " checked" : "")>"
        + "<input type=\"hidden\" name=\"_bool.\(HTML.escape(key))\" value=\"1\">"
    case .choice(let values):
      let options = values.map { FieldWidget.Option(value: $0, label: $0) }
      return select(attributes, options, selected: text, isNull: isNull)
    case .toOne(let options, let choose):
      let link = " <a class=\"choose\" href=\"\(HTML.escape(choose))\">Choose…</a>"
      guard let options else {
        let shown =
          isNull || current.isEmpty ? "" : " <span class=\"current\">\(HTML.escape(current))</span>"
        return "<input \(attributes)\(value)>\(shown)\(link)"
      }
      return select(attributes, options, selected: text, isNull: isNull) + link
    }
  }

  /// A `<select>`: an empty option first when nothing is chosen, the stored value kept as an
  /// option when it is none of the others.
  static func select(
    _ attributes: String, _ options: [FieldWidget.Option], selected: String, isNull: Bool
  ) -> String {
    var html = "<select \(attributes)>"
    var all = options
    if !selected.isEmpty, !options.contains(where: { $0.value == selected }) {
      all.insert(FieldWidget.Option(value: selected, label: selected), at: 0)
    }
    if selected.isEmpty || isNull { html += "<option value=\"\"></option>" }
    for option in all {
      let chosen = !isNull && option.value == selected ? " selected" : ""
      html +=
        "<option value=\"\(HTML.formValue(option.value))\"\(chosen)>\(HTML.escape(option.label))</option>"
    }
    return html + "</select>"
  }

  static func textarea(_ attributes: String, _ text: String) -> String {
    // The line break after the tag is dropped by the parser: a value starting with one keeps it.
    "<textarea \(attributes) rows=\"4\">\n\(HTML.formValue(text))</textarea>"
  }

  /// `12`, `-3.50`: what a number input shows as it is.
  static func isPlainNumber(_ text: String) -> Bool {
    var digits = text.utf8[...]
    if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
    let parts = digits.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count) else { return false }
    return parts.allSatisfy { part in
      !part.isEmpty && part.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
  }
}
