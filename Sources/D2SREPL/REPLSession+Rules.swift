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
    let count = try app.loadRules(atPath: path)
    warnings += app.takeWarnings()
    return "loaded \(count) rules from \(path)"
  }

  /// `write [--force] FILE`: the user's rules as rule text. An existing file is replaced only
  /// when it parses as rules (or is empty), or with `--force`: never a stray file by mistake.
  func write(_ path: String, force: Bool) throws -> String {
    let rules = context.engine.ruleModel.rules.map(\.rule.description)
    if !force { try refuseToReplaceNonRules(at: path) }
    do {
      try (rules.joined(separator: "\n") + (rules.isEmpty ? "" : "\n")).write(
        toFile: path, atomically: true, encoding: .utf8)
    } catch {
      throw REPLError("cannot write \(path): \((error as NSError).localizedDescription)")
    }
    return "wrote \(rules.count) rules to \(path)"
  }

  /// Throws when `path` names something other than a rule file: a directory, an unreadable
  /// file, or text that does not parse as rules.
  private func refuseToReplaceNonRules(at path: String) throws {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return }
    guard !isDirectory.boolValue else { throw REPLError("cannot write \(path): it is a directory") }
    let text: String
    do {
      text = try String(contentsOfFile: path, encoding: .utf8)
    } catch {
      throw REPLError(
        "refusing to replace \(path): it is not a rule file (unreadable as UTF-8 text); "
          + "use `write --force \(path)` to replace it")
    }
    do {
      _ = try context.engine.parser.parseRules(text, file: path)
    } catch {
      let first = error.errors.first.map { "\($0.message)" } ?? "not rule text"
      throw REPLError(
        "refusing to replace \(path): it is not a rule file (\(first)); "
          + "use `write --force \(path)` to replace it")
    }
  }
}
