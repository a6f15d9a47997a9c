import Components
import D2SApplication
import Qualifiers
import RuleCore

/// JSON Lines output (`--format json`, `platform = 'json'`): every command that prints
/// something prints one JSON object on one line. Pages come from the JSON renderer; the other
/// commands' text is wrapped here.
extension REPLSession {
  /// Whether the session prints JSON.
  public var printsJSON: Bool { context.platform == "json" }

  /// The output of `command` (which printed `text`, not a page) as one JSON object.
  func jsonOutput(of command: REPLCommand, text: String) throws -> String {
    switch command {
    case .show(let key) where !key.contains("."):
      let explanation = try context.explain(keyNamed: key)
      return JSONText.object([
        ("key", JSONText.string(explanation.key.name)),
        ("value", JSONText.string(explanation.key.describe(explanation.resolution.value))),
        ("source", JSONText.string("\(explanation.resolution.source)")),
      ])
    case .show:
      // `object.title = 'x'  # source`: the same fields as the text.
      let (assignment, source) = split(text, at: "  # ")
      let (key, value) = split(assignment, at: " = ")
      return JSONText.object([
        ("key", JSONText.string(key)), ("value", JSONText.string(value)),
        ("source", JSONText.string(source)),
      ])
    case .explain(let key, let property):
      return try KeyExplanation(keyNamed: key, in: context(for: property)).json
    case .count:
      return JSONText.object([("count", text)])
    case .formatters:
      return JSONText.object([
        (
          "formatters",
          JSONText.array(
            formatterCatalog.map { name, plugin, example in
              JSONText.object([
                ("name", JSONText.string(name)), ("plugin", JSONText.string(plugin)),
                ("example", example.map(JSONText.string) ?? "null"),
              ])
            })
        )
      ])
    default:
      if let json = try ruleToolJSON(command, text: text) { return json }
      return JSONText.object([("message", JSONText.string(text))])
    }
  }

  private func split(_ text: String, at separator: String) -> (String, String) {
    guard let range = text.range(of: separator, options: .backwards) else { return (text, "") }
    return (String(text[..<range.lowerBound]), String(text[range.upperBound...]))
  }

  /// An error as one JSON object for stderr: `{"error":"…","line":1,"column":9}`.
  public static func jsonError(_ error: any Error) -> String {
    var fields = [("error", JSONText.string(errorMessage(error)))]
    if let parse = error as? ParseError {
      fields += [("line", "\(parse.location.line)"), ("column", "\(parse.location.column)")]
      if let file = parse.file { fields.append(("file", JSONText.string(file))) }
    }
    return JSONText.object(fields)
  }

  private static func errorMessage(_ error: any Error) -> String {
    if let parse = error as? ParseError { return parse.message }
    return REPLError.describe(error)
  }
}
