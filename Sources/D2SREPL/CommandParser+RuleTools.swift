/// The rule tools' command lines: `explain [--tree] KEY`, `why-not LABEL [for PROPERTY]`,
/// `lint [--all | --plugin NAME]`, `coverage [--all]`, `watch FILE`, `unwatch FILE`.
extension CommandParser {
  static func ruleTool(_ word: String, _ rest: Substring) throws -> REPLCommand {
    switch word {
    case "explain":
      let (first, tail) = splitWord(try required(rest, "explain [--tree] KEY"))
      guard first == "--tree" else { return .explain(String(rest)) }
      return .explainTree(String(try required(tail, "explain --tree KEY")))
    case "why-not":
      let usage =
        "why-not LABEL [for PROPERTY] (a label from `rules --all`: N, PLUGIN:N, builtin:N)"
      let words = try required(rest, usage).split(separator: " ", omittingEmptySubsequences: true)
      switch words.count {
      case 1: return .whyNot(label: String(words[0]), property: nil)
      case 3 where words[1].lowercased() == "for":
        return .whyNot(label: String(words[0]), property: String(words[2]))
      default: throw REPLError("usage: \(usage)")
      }
    case "lint":
      let (first, tail) = splitWord(rest)
      guard first == "--plugin" else { return .lint(all: try allFlag(rest, "lint [--all]")) }
      let name = try required(tail, "lint --plugin NAME")
      guard !name.contains(" ") else { throw REPLError("usage: lint --plugin NAME") }
      return .lintPlugin(String(name))
    case "coverage": return .coverage(all: try allFlag(rest, "coverage [--all]"))
    case "watch": return .watch(unquote(try required(rest, "watch FILE")))
    default: return .unwatch(unquote(try required(rest, "unwatch FILE")))
    }
  }

  /// Nothing, or `--all`.
  private static func allFlag(_ rest: Substring, _ usage: String) throws -> Bool {
    if rest.isEmpty { return false }
    guard rest == "--all" else { throw REPLError("usage: \(usage)") }
    return true
  }
}
