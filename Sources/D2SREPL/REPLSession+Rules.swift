import Foundation
import RuleCore

/// Rules and rule tools: rule, rules, drop, load, write.
extension REPLSession {
  /// `rule RULE`: parsed by the engine, at the column where it was typed.
  func addRule(_ text: LineSlice) throws -> String {
    let rule = try context.engine.parser.parseRule(text.line, range: text.range)
    let (id, added) = context.engine.ruleModel.add(rule)
    warnings += added.map(\.description)
    return "rule \(id) added"
  }

  /// `rules [--all] [KEY]`.
  func rules(all: Bool, key: String?) throws -> String {
    // An unknown key is an error, not an empty list.
    if let key { _ = try context.exposedKey(named: key) }
    var lines: [String] = []
    for model in all ? context.engine.models : [context.engine.ruleModel] {
      for numbered in model.rules where key == nil || numbered.rule.key.name == key {
        lines.append(numbered.description)
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `drop N`.
  func drop(_ n: Int) throws -> String {
    guard context.engine.ruleModel.remove(id: n) != nil else {
      throw REPLError("there is no rule \(n) (see `rules`)")
    }
    return "dropped rule \(n)"
  }

  /// `load FILE`: all of the file's rules, or none.
  func load(_ path: String) throws -> String {
    let rules = try context.engine.parser.parsePlacedRuleFile(atPath: path)
    warnings += context.engine.ruleModel.add(contentsOf: rules).map(\.description)
    return "loaded \(rules.count) rules from \(path)"
  }

  /// `write FILE`: the user's rules as rule text.
  func write(_ path: String) throws -> String {
    let rules = context.engine.ruleModel.rules.map(\.rule.description)
    do {
      try (rules.joined(separator: "\n") + (rules.isEmpty ? "" : "\n")).write(
        toFile: path, atomically: true, encoding: .utf8)
    } catch {
      throw REPLError("cannot write \(path): \((error as NSError).localizedDescription)")
    }
    return "wrote \(rules.count) rules to \(path)"
  }
}
