import Components
import D2SModel
import D2STesting
import EnvKeys
import RuleCore
import Testing

/// Components written as view values: bodies read the rule context through @Environment, and
/// `.environment` scopes a key for a view's children only.
@Suite struct ViewTests {
  let registry = D2SContextKVC()

  struct Greeting: D2SView {
    @Environment(\.task) var task
    @Environment(\.propertyKey) var key
    var body: some D2SView {
      if task == "edit" {
        Text("editing \(key)")
      } else {
        Text("showing \(key)")
      }
      Text("task \(task)")
    }
  }

  struct Parent: D2SView {
    @Environment(\.task) var task
    var body: some D2SView {
      Greeting().environment(\.task, "edit").environment(\.propertyKey, "title")
      ForEach(["a", "b"]) { key in
        Text("\(key) in \(task)")
      }
      Greeting()
    }
  }

  func lines(_ view: some D2SView, _ context: RuleContext) throws -> [String] {
    let node = try view.resolve(in: ViewScope(context: context, environment: RenderEnvironment()))
    return TerminalRenderer(width: nil).lines(node)
  }

  @Test func childrenSeeTheirParentsValuesNeverTheReverse() throws {
    var context = try sakilaContext("", registry: registry)
    context.task = "list"
    #expect(
      try lines(Parent(), context) == [
        "editing title", "task edit", "a in list", "b in list", "showing ", "task list",
      ])
  }

  @Test func aComponentInTheSeedsStyleIsPickedByARule() throws {
    struct Shout: D2SView {
      @Environment(\.propertyValue) var value
      var body: some D2SView {
        Text(String(describing: KVC.unwrap(value) ?? "").uppercased() + "!")
      }
    }
    let looks = LookRegistry()
    looks.register(Shout(), as: "Shout", look: "BasicLook")
    var context = try sakilaContext(
      "propertyKey = 'name' => component = 'Shout'", registry: registry)
    context.task = "inspect"
    try context.setValue(.string("Language"), forKeyNamed: "entity")
    context.object = try context.database?.fetchObject("Language", primaryKey: [.int(2)])
    let page = try RenderEnvironment(looks: looks).renderPage(context)
    #expect(page.contains("\nName                        ITALIAN!\n"))
  }

  @Test func formattedValueShowsNilAndFormatsLikeBasicLook() throws {
    var context = try sakilaContext(
      "propertyKey = 'cost' => formatter = 'currency'", registry: registry)
    context.propertyKey = "cost"
    let scope = ViewScope(context: context, environment: RenderEnvironment())
    #expect(FormattedValue.shown(nil, in: scope).text == "-")
    #expect(FormattedValue.shown(DatabaseValue.int(3).anyValue, in: scope).value == .int(3))
  }
}
