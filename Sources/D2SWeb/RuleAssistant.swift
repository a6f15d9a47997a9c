import Components
import D2SApplication
import D2SModel
import Foundation
import Plugins
import RuleCore

/// Direct to Web's WebAssistant for d2s-serve (`--rules-output FILE`): a rule typed on an
/// explanation page is checked (one rule of one line, no password read, lint clean where it
/// is concerned), previewed (the page's answers that change, the page before and after), then
/// appended to the output file, which every server watching it reloads. Each check builds the
/// rules afresh from the rule files over the request's connection, so nothing live changes
/// before the file does.
struct RuleAssistant: Sendable {
  /// The file rules are appended to.
  let output: RulesOutputFile
  /// Every rule file the server loads, in order (the output file last).
  let ruleFiles: [String]
  /// The server's plugins.
  let plugins: [any D2SPlugin]
  /// Loads the rule files again into the server (after the file changed).
  let reload: @Sendable () throws -> Void

  /// What a typed rule does to a page.
  struct Preview {
    /// The rule as parsed, printed back.
    let rule: String
    /// The page's answers that change: `key: old → new  (source)`.
    let changes: [String]
    /// The page as text, without and with the rule.
    let before: String
    let after: String
  }

  /// The rules as the files give them now (and d2s-serve's own, ``ServerRules``), with `rule` added
  /// last when given, over `database`; the added rule's number.
  func application(over database: Database, adding rule: String? = nil) throws -> (D2SApp, Int?) {
    var app = try D2SApp(plugins: [ServerRules()] + plugins)
    app.context.database = database
    for file in ruleFiles { try app.loadRules(atPath: file) }
    let id = try rule.map { try app.addRule($0) }
    return (app, id)
  }

  /// Checks `text` on the page at `page` for `user`, and what it changes there.
  /// - Throws: ``AssistantError`` saying why the rule cannot be added (it does not parse, is
  ///   not one line, reads a password, or lint finds it ambiguous or shadowed).
  func preview(_ text: String, page: String, user: DatabaseObject, database: Database) throws
    -> Preview
  {
    let text = text.trimmingCharacters(in: .whitespaces)
    guard !text.isEmpty, !text.contains(where: \.isNewline), !text.hasPrefix("#") else {
      throw AssistantError("write one rule on one line: CONDITION => KEY = VALUE")
    }
    let (before, _) = try application(over: database)
    let parsed: Rule
    do {
      parsed = try before.context.engine.parser.parseRule(text)
    } catch {
      throw AssistantError("the rule does not parse: \(error)")
    }
    try Self.refusePasswords(parsed, in: database.model)
    let (after, added) = try application(over: database, adding: text)
    guard let added else { throw AssistantError("the rule was not added") }
    let label = "rule \(added)"
    let warnings = RuleLinter(
      engine: after.context.engine, looks: after.plugins.looks,
      formatters: after.plugins.formatters, model: database.model
    ).lint([after.context.engine.ruleModel]).filter { warning in
      warning.rule.id == added
        || warning.message.range(of: label + #"\b"#, options: .regularExpression) != nil
    }
    if let warning = warnings.first {
      throw AssistantError("lint: \(warning.message)")
    }
    let request = try WebApplication.explainedRequest(
      page, user: user, application: before.pages, database: database)
    let old = try before.pages.context(for: request)
    let new = try after.pages.context(for: request)
    var shown = request
    shown.platform = "terminal"
    shown.width = 100
    if shown.task == "list" { shown.list.limit = 10 }
    return Preview(
      rule: "\(parsed)", changes: PageAnswers(of: old).changes(to: PageAnswers(of: new)),
      before: try before.pages.render(shown), after: try after.pages.render(shown))
  }

  /// Refuses a rule that reads a password's value (in its condition or value, through an
  /// attribute's name or column, or through `propertyValue`): a rule written from a page
  /// cannot learn or test what no page shows.
  static func refusePasswords(_ rule: Rule, in model: Model) throws {
    guard PasswordPaths.reads(rule, in: model) else { return }
    throw AssistantError(
      "a rule written from a page may not read a password (nor propertyValue, which can be one)")
  }
}
