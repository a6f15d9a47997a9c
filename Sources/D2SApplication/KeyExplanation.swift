import Components
import EnvKeys
import Qualifiers
import RuleCore

/// Why one key has its value in a context, as every front end shows it (the REPL's
/// `explain KEY [for PROPERTY]`, d2s-serve's "why?" pages): each candidate rule in rank order
/// with where it was written, what happened to it, and for one that did not match its first
/// false condition with the actual values; the winner; the value and its source; and the
/// nested look-ups as a tree. Its JSON is the same from every front end.
public struct KeyExplanation: Sendable {
  /// One candidate rule.
  public struct Candidate: Sendable {
    /// 1-based position in the order rules are tried.
    public var rank: Int
    /// The rule's priority and complexity, as `explain` prints them.
    public var priority: String
    /// The number of conditions the rule tests.
    public var complexity: Int
    /// `matched`, `not matched`, `not reached`, `skipped: …`, `matched (tie: …)`.
    public var status: String
    /// The rule, labelled (`rule 3: …`, `builtin rule 44: …`).
    public var rule: String
    /// The rule's label (`3`, `AuditKeys:2`, `builtin:44`), for `why-not`.
    public var label: String
    /// `FILE:LINE` of a user rule loaded from a file (the file's name as given), or nil.
    public var place: String?
    /// For a rule that did not match: its first false condition.
    public var falseCondition: String?
    /// The values of that condition's key paths here.
    public var actual: [(path: String, value: String)]
  }

  /// The key explained.
  public var key: String
  /// Whether the key is set explicitly (rules are then not consulted).
  public var isExplicit: Bool
  /// Every candidate, the user's model first.
  public var candidates: [Candidate]
  /// The winning rule, labelled, or nil.
  public var winner: String?
  /// The winner's `FILE:LINE`, when it has one.
  public var winnerPlace: String?
  /// The value, as rule text writes it.
  public var value: String
  /// Where it comes from (`rule 3: …`, `default`, `set`).
  public var source: String
  /// The nested look-ups, one line per step, indented by depth (`explain --tree`), each
  /// resolved from its rules whatever the cache holds.
  public var tree: [String]

  /// What stands for a password's value.
  static let hidden = "(a password, not shown)"

  /// The explanation of the key named `name` in `context`; `tree` false leaves ``tree``
  /// empty (resolving it fills the context's cache with the nested answers).
  public init(keyNamed name: String, in context: RuleContext, tree withTree: Bool = true) throws {
    let explanation = try context.explain(keyNamed: name)
    let engine = context.engine
    key = explanation.key.name
    isExplicit = explanation.isExplicit
    candidates = try explanation.entries.map { entry in
      var candidate = Candidate(
        rank: entry.rank, priority: "\(entry.rule.rule.priority)",
        complexity: entry.rule.rule.complexity, status: "\(entry.status)",
        rule: entry.rule.description, label: entry.rule.label,
        place: Self.place(of: entry.rule, in: engine), falseCondition: nil, actual: [])
      if entry.status == .notMatched,
        case .doesNotMatch(_, let clause, let actual) = try context.whyNot(entry.rule)
      {
        candidate.falseCondition = clause.description
        // A password's value is never shown, as `show` never shows it.
        let paths = Dictionary(
          clause.keyPaths.map { ($0.description, $0) }, uniquingKeysWith: { first, _ in first })
        candidate.actual = actual.map { path, value in
          guard let model = context.database?.model, let read = paths[path],
            PasswordPaths.reads(read, in: model)
          else { return (path, value) }
          return (path, Self.hidden)
        }
      }
      return candidate
    }
    winner = explanation.winner?.rule.description
    winnerPlace = explanation.winner.flatMap { Self.place(of: $0.rule, in: engine) }
    value = explanation.key.describe(explanation.resolution.value)
    source = "\(explanation.resolution.source)"
    tree =
      explanation.isExplicit || !withTree
      ? []
      : try context.resolutionTree(forKeyNamed: name, bypassingCache: true).steps.map(
        \.description)
    // On a password's property, `propertyValue` is the password: never shown.
    if context.entity?.attribute(named: context.propertyKey)?.isPassword == true {
      if key == "propertyValue" { value = Self.hidden }
      tree = tree.map { line in
        let trimmed = line.drop { $0 == " " }
        guard trimmed.hasPrefix("propertyValue = "), let end = line.range(of: "  # ") else {
          return line
        }
        return line.prefix { $0 == " " } + "propertyValue = " + Self.hidden
          + line[end.lowerBound...]
      }
    }
  }

  /// `FILE:LINE` of a user rule loaded from a file or written in Swift, or nil (a rule typed
  /// in the REPL, a plugin's or a builtin one, which their labels name).
  public static func place(of numbered: NumberedRule, in engine: RuleEngine) -> String? {
    guard numbered.origin == .user else { return nil }
    if let source = engine.source(of: numbered), source.file != nil { return source.description }
    if let location = numbered.rule.location, location.file != nil { return location.description }
    return nil
  }

  /// One JSON object: `{"key":…,"explicit":…,"candidates":[{"rank":…,"priority":…,
  /// "complexity":…,"status":…,"rule":…,"label":…,"place":…,"falseCondition":…,
  /// "actual":[{"path":…,"value":…}]}],"winner":…,"winnerPlace":…,"value":…,"source":…,
  /// "tree":[…]}`.
  public var json: String {
    func optional(_ text: String?) -> String { text.map(JSONText.string) ?? "null" }
    let items = candidates.map { candidate in
      JSONText.object([
        ("rank", "\(candidate.rank)"), ("priority", JSONText.string(candidate.priority)),
        ("complexity", "\(candidate.complexity)"), ("status", JSONText.string(candidate.status)),
        ("rule", JSONText.string(candidate.rule)), ("label", JSONText.string(candidate.label)),
        ("place", optional(candidate.place)),
        ("falseCondition", optional(candidate.falseCondition)),
        (
          "actual",
          JSONText.array(
            candidate.actual.map {
              JSONText.object([
                ("path", JSONText.string($0.path)), ("value", JSONText.string($0.value)),
              ])
            })
        ),
      ])
    }
    return JSONText.object([
      ("key", JSONText.string(key)), ("explicit", isExplicit ? "true" : "false"),
      ("candidates", JSONText.array(items)), ("winner", optional(winner)),
      ("winnerPlace", optional(winnerPlace)), ("value", JSONText.string(value)),
      ("source", JSONText.string(source)), ("tree", JSONText.array(tree.map(JSONText.string))),
    ])
  }
}
