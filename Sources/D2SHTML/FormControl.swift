import D2SModel

/// The HTML of one form control for a widget, written as bytes: every value escaped. A
/// browser's own control (number, date, date-time) is used only when the text is in the form
/// it takes; otherwise a text input keeps the text exactly, so nothing shown is changed by the
/// form itself.
enum FormControl {
  /// Appends the control to `html`; `attributes` are its `id`, `name` and ARIA attributes
  /// (markup, already escaped), `current` is the text the page shows for the value (a to-one's
  /// title).
  static func append(
    _ kind: FieldWidget.Kind, attributes: [UInt8], key: String, text: String, isNull: Bool,
    current: String, to html: inout HTMLBytes
  ) {
    /// `<input ATTRIBUTES` then `extra`, the value, `>`.
    func input(_ extra: StaticString = "") {
      html.append("<input ")
      html.append(attributes)
      html.append(extra)
      html.append(" value=\"")
      HTML.appendEscaped(text, to: &html, showingFormatCharacters: false)
      html.append("\">")
    }
    // More than 80 characters has more than 80 bytes: only a long text is counted.
    let long = (text.utf8.count > 80 && text.count > 80) || text.utf8.contains(10)
    switch kind {
    case .textarea:
      textarea(attributes, text, to: &html)
    case .text, .json, .array:
      if long { textarea(attributes, text, to: &html) } else { input() }
    case .number(let step):
      guard text.isEmpty || isPlainNumber(text) else { return input(" inputmode=\"decimal\"") }
      html.append("<input ")
      html.append(attributes)
      html.append(" type=\"number\" step=\"")
      html.append(unescaped: step)
      html.append("\" value=\"")
      HTML.appendEscaped(text, to: &html, showingFormatCharacters: false)
      html.append("\">")
    case .date:
      guard text.isEmpty || DateInput.isDay(text) else { return input() }
      input(" type=\"date\"")
    case .dateTime:
      guard text.isEmpty || DateInput.inputForm(DateInput.storedForm(text)) != nil else {
        return input()
      }
      html.append("<input ")
      html.append(attributes)
      html.append(" type=\"datetime-local\" step=\"1\" value=\"")
      HTML.appendEscaped(DateInput.inputForm(DateInput.storedForm(text)) ?? "", to: &html)
      html.append("\">")
    case .checkbox:
      html.append("<input ")
      html.append(attributes)
      html.append(" type=\"checkbox\" value=\"true\"")
      if text == "true" { html.append(" checked") }
      html.append("><input type=\"hidden\" name=\"_bool.")
      HTML.appendEscaped(key, to: &html)
      html.append("\" value=\"1\">")
    case .choice(let values):
      let options = values.map { FieldWidget.Option(value: $0, label: $0) }
      select(attributes, options, selected: text, isNull: isNull, to: &html)
    case .toOne(let options, let choose):
      if let options {
        select(attributes, options, selected: text, isNull: isNull, to: &html)
      } else {
        input()
        if !isNull, !current.isEmpty {
          html.append(" <span class=\"current\">")
          HTML.appendEscaped(current, to: &html)
          html.append("</span>")
        }
      }
      html.append(" <a class=\"choose\" href=\"")
      HTML.appendEscaped(choose, to: &html)
      html.append("\">Choose…</a>")
    }
  }

  /// A `<select>`: an empty option first when nothing is chosen, the stored value kept as an
  /// option when it is none of the others.
  static func select(
    _ attributes: [UInt8], _ options: [FieldWidget.Option], selected: String, isNull: Bool,
    to html: inout HTMLBytes
  ) {
    html.append("<select ")
    html.append(attributes)
    html.append(">")
    var all = options
    if !selected.isEmpty, !options.contains(where: { $0.value == selected }) {
      all.insert(FieldWidget.Option(value: selected, label: selected), at: 0)
    }
    if selected.isEmpty || isNull { html.append("<option value=\"\"></option>") }
    for option in all {
      html.append("<option value=\"")
      HTML.appendEscaped(option.value, to: &html, showingFormatCharacters: false)
      html.append("\"")
      if !isNull, option.value == selected { html.append(" selected") }
      html.append(">")
      HTML.appendEscaped(option.label, to: &html)
      html.append("</option>")
    }
    html.append("</select>")
  }

  static func textarea(_ attributes: [UInt8], _ text: String, to html: inout HTMLBytes) {
    // The line break after the tag is dropped by the parser: a value starting with one keeps it.
    html.append("<textarea ")
    html.append(attributes)
    html.append(" rows=\"4\">\n")
    HTML.appendEscaped(text, to: &html, showingFormatCharacters: false)
    html.append("</textarea>")
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
