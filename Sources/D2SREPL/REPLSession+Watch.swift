import Components
import D2SApplication
import EnvKeys
import Foundation
import RuleCore

/// A rule file that `watch` reloads when it changes.
struct WatchedFile {
  /// The text last read (loaded, or refused for an error).
  var text: String
  /// The numbers of the rules it added (the live ones).
  var ruleIDs: [Int]
  /// Why it could not be read last time (gone, not UTF-8), reported once.
  var readError: String?
}

/// Live reload: `watch FILE`, `unwatch FILE`, and the check made before each command and
/// while an interactive prompt is idle.
extension REPLSession {
  /// `watch FILE`: loads the file (all or nothing) and reloads it whenever it changes.
  func watch(_ path: String) throws -> String {
    guard watched[path] == nil else { throw REPLError("already watching \(path)") }
    let text = try readRuleFile(path)
    let placed = try context.engine.parser.parsePlacedRules(text, file: path)
    let ids = add(placed)
    watched[path] = WatchedFile(text: text, ruleIDs: ids)
    return "watching \(path): \(ids.count) rules"
  }

  /// `unwatch FILE`: stops reloading; the file's rules stay.
  func unwatch(_ path: String) throws -> String {
    guard let file = watched.removeValue(forKey: path) else {
      throw REPLError("not watching \(path)")
    }
    return "stopped watching \(path) (its \(file.ruleIDs.count) rules stay)"
  }

  /// Reloads every watched file that changed. Returns what to print: for a reload, each key
  /// whose answer changed on the current page (`key: old → new  (file:line)`); for a file with
  /// an error, the error lines (the previous rules stay live).
  public func reloadWatchedFiles() -> (changes: [String], errors: [String]) {
    var changes: [String] = []
    var errors: [String] = []
    for path in watched.keys.sorted() {
      guard let file = watched[path] else { continue }
      let text: String
      do {
        text = try readRuleFile(path)
        watched[path]?.readError = nil
      } catch {
        // Said once, until it can be read again: the previous rules stay live.
        let message = "error: " + REPLError.describe(error) + " (its previous rules stay)"
        if file.readError != message { errors.append(message) }
        watched[path]?.readError = message
        continue
      }
      guard text != file.text else { continue }
      do {
        let placed = try context.engine.parser.parsePlacedRules(text, file: path)
        let before = PageAnswers(of: context)
        for id in file.ruleIDs { context.engine.ruleModel.remove(id: id) }
        let ids = add(placed)
        watched[path] = WatchedFile(text: text, ruleIDs: ids)
        changes.append("reloaded \(path): \(ids.count) rules")
        changes += before.changes(to: PageAnswers(of: context))
      } catch {
        watched[path]?.text = text  // report this version once
        errors.append("error: " + REPLError.describe(error))
      }
    }
    return (changes, errors)
  }

  /// Adds placed rules to the user's model; returns their numbers.
  private func add(_ placed: [PlacedRule]) -> [Int] {
    let model = context.engine.ruleModel
    let before = Set(model.rules.map(\.id))
    warnings += model.add(contentsOf: placed).map(\.description)
    return model.rules.map(\.id).filter { !before.contains($0) }
  }

  private func readRuleFile(_ path: String) throws -> String {
    do { return try TextFile.read(path) } catch {
      throw REPLError("cannot read rule file \(path): \(error.reason)")
    }
  }
}
