/// The rule tools' command lines: `explain [--tree] KEY [for PROPERTY]`, `why-not LABEL [for PROPERTY]`,
/// `lint [--all | --plugin NAME]`, `coverage [--all]`, `watch FILE`, `unwatch FILE`.
extension CommandParser {
  static func ruleTool(_ word: String, _ rest: Substring) throws -> REPLCommand {
    switch word {
    case "explain":
      let usage = "explain [--tree] KEY [for PROPERTY]"
      let (first, tail) = splitWord(try required(rest, usage))
      let tree = first == "--tree"
      let words = (tree ? try required(tail, usage) : rest).split(
        separator: " ", omittingEmptySubsequences: true)
      let (key, property): (String, String?)
      switch words.count {
      case 1: (key, property) = (String(words[0]), nil)
      case 3 where words[1].lowercased() == "for":
        (key, property) = (String(words[0]), String(words[2]))
      default: throw REPLError("usage: \(usage)")
      }
      return tree ? .explainTree(key, property: property) : .explain(key, property: property)
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
