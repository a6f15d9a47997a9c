import D2SModel
import D2STesting
import EnvKeys
import RuleCore
import Testing

@testable import Components

/// A formatter that shouts: the text in capitals.
private struct ShoutFormatter: ValueFormatter {
  func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
    (value.stringValue ?? "").uppercased() + "!"
  }

  func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
    .string(text)
  }
}

/// A list keeps its columns' formatters in its page plan; a formatter registered (or
/// replaced) since is used by the next list, as a look-up by name on every page would.
@Suite struct ListFormatterRegistrationTests {
  @Test func aFormatterRegisteredLaterFormatsTheNextList() throws {
    let rules = "entity.name = 'Language' AND propertyKey = 'name' => formatter = 'shout'"
    let formatters = FormatterRegistry()
    let application = PageApplication(
      base: try sakilaContext(rules, registry: D2SContextKVC()), formatters: formatters)
    func list() throws -> String {
      try application.render(PageRequest(task: "list", entityName: "Language"))
    }
    // Unknown yet: the value as stored, twice (the second from the plan).
    for _ in 0..<2 {
      let page = try list()
      #expect(page.contains("English") && !page.contains("ENGLISH!"))
    }
    formatters.register(ShoutFormatter(), as: "shout")
    #expect(try list().contains("ENGLISH!"))
    struct Whisper: ValueFormatter {
      func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
        (value.stringValue ?? "").lowercased() + "…"
      }
      func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
        .string(text)
      }
    }
    formatters.register(Whisper(), as: "shout")
    #expect(try list().contains("english…"))
  }
}
