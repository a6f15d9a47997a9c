import Components
import EnvKeys
import RuleCore

/// What the rules answer on one page: every exposed key on the page, and for each property it
/// shows, every key again under that property (`displayNameForProperty (title)`), each with
/// where its answer came from. Two of them, before and after a change of the rules, give the
/// lines of what changed (the REPL's `watch`, d2s-serve's rule preview).
public struct PageAnswers: Sendable {
  /// An answer: the value as rule text writes it, and its source (`FILE:LINE` for a rule of
  /// a file, else the rule's label, `set` or `default`).
  public struct Answer: Sendable, Equatable {
    /// The value, as rule text writes it.
    public var value: String
    /// Where it came from.
    public var source: String
  }

  /// The answers by key (`page`, `displayNameForProperty (title)`).
  public var answers: [String: Answer]

  /// The answers of `context`'s page.
  public init(of context: RuleContext) {
    var answers: [String: Answer] = [:]
    let keys = context.engine.registry.allKeys.filter { $0.name != "propertyKey" }
    func record(_ context: RuleContext, suffix: String) {
      for key in keys {
        guard let resolution = try? context.resolution(forKeyNamed: key.name) else { continue }
        answers[key.name + suffix] = Answer(
          value: key.describe(resolution.value),
          source: Self.source(resolution.source, engine: context.engine))
      }
    }
    record(context, suffix: "")
    let properties = context.entity == nil ? [] : context.displayPropertyKeys
    for property in properties {
      record(context.with(\.propertyKey, property), suffix: " (\(property))")
    }
    self.answers = answers
  }

  /// `tutorial.d2s:2` for a rule from a file, else the rule's label, `set` or `default`.
  static func source(_ source: ValueSource, engine: RuleEngine) -> String {
    switch source {
    case .explicit: "set"
    case .defaultValue: "default"
    case .rule(let numbered): KeyExplanation.place(of: numbered, in: engine) ?? numbered.labelPhrase
    }
  }

  /// Each answer that differs in `after`, sorted by key: `key: old → new  (source)`. A
  /// property's line only when it changed otherwise than the page's own answer.
  public func changes(to after: PageAnswers) -> [String] {
    var lines: [String] = []
    for (name, old) in answers.sorted(by: { $0.key < $1.key }) {
      guard let new = after.answers[name], new.value != old.value else { continue }
      if let space = name.firstIndex(of: " "), let page = answers[String(name[..<space])],
        page.value == old.value, after.answers[String(name[..<space])]?.value == new.value
      {
        continue
      }
      lines.append("\(name): \(old.value) → \(new.value)  (\(new.source))")
    }
    return lines
  }
}
