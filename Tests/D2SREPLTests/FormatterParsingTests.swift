import Components
import D2SModel
import D2STesting
import EnvKeys
import Plugins
import Testing

@testable import D2SREPL

/// A formatter parses what is typed for a text column too, not only for numbers and dates.
@Suite struct FormatterParsingTests {
  /// Formats a phone number as `(555) 012-3456` and reads back any form with ten digits.
  struct PhoneFormatter: ValueFormatter {
    func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
      guard case .string(let digits) = value, digits.count == 10 else { return value.description }
      let d = Array(digits)
      return "(\(String(d[0..<3]))) \(String(d[3..<6]))-\(String(d[6...]))"
    }
    func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
      let digits = text.filter(\.isNumber)
      guard digits.count == 10 else {
        throw FormatterError(formatter: "phone", text: text, accepted: "ten digits")
      }
      return .string(digits)
    }
  }

  struct PhonePlugin: D2SPlugin {
    let name = "Phone"
    var formatters: [String: any ValueFormatter] { ["phone": PhoneFormatter()] }
    var ruleText: String? { "propertyKey = 'phone' => formatter = 'phone'" }
  }

  @Test func formattersParseWhatIsTypedIntoTextColumns() throws {
    let session = try REPLSession(plugins: [PhonePlugin()], width: 100)
    _ = try session.run("open \(try SakilaSQLite.copy())")
    _ = try session.run("edit Address 1")
    _ = try session.run("object.phone = '(555) 012-3456'")
    #expect(try session.run("show object.phone") == "object.phone = '5550123456'  # set")
    #expect(try session.run("save") == "saved Address 1")
    #expect(try session.run("inspect Address 1").contains("Phone        (555) 012-3456"))
    _ = try session.run("edit Address 1")
    #expect(throws: FormatterError.self) { try session.run("object.phone = 'call me'") }
  }
}
