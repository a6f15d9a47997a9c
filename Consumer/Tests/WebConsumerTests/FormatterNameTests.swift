import D2S
import D2SREPL
import D2STesting
import Foundation
import Testing

/// A percentage shown as a traffic light's word, as a newcomer's plugin would write it.
struct TrafficLightFormatter: ValueFormatter {
  func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
    guard let share = value.double else { return value.storedText() }
    return share >= 0.5 ? "green" : "red"
  }
  func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
    switch text {
    case "green": return .double(1)
    case "red": return .double(0)
    default: throw FormatterError(formatter: "percent", text: text, accepted: "green or red")
    }
  }
  var example: DatabaseValue? { .double(0.75) }
}

/// Registers its formatter under a builtin's name, without saying so.
struct TrafficLights: D2SPlugin {
  let name = "TrafficLights"
  var formatters: [String: any ValueFormatter] { ["percent": TrafficLightFormatter()] }
}

/// The same, replacing the builtin on purpose.
struct TrafficLightsReplacing: D2SPlugin {
  let name = "TrafficLights"
  var formatters: [String: any ValueFormatter] { ["percent": TrafficLightFormatter()] }
  var replacedFormatters: Set<String> { ["percent"] }
}

/// Formatter names as a plugin author meets them: `formatters` lists the builtin ones with
/// examples, a name taken is an error that says how to replace it, and saying so replaces it.
@Suite struct FormatterNameTests {
  @Test func theBuiltinFormattersAreListedWithExamples() throws {
    let session = try REPLSession()
    let text = try session.run("formatters")
    for name in [
      "currency", "date", "dateTime", "daysDuration", "decimal", "integer", "minutesDuration",
      "percent", "time",
    ] {
      #expect(text.contains("\n\(name) ") || text.hasPrefix("\(name) "), "\(name) in \(text)")
    }
    #expect(text.contains("percent          builtin  25%"))
  }

  @Test func aNameTakenIsAnErrorThatSaysHowToReplaceIt() throws {
    #expect {
      _ = try REPLSession(plugins: [TrafficLights()])
    } throws: { error in
      let message = "\(error)"
      return message.contains("registers formatter 'percent', which plugin builtin registered")
        && message.contains("replacedFormatters")
    }
  }

  @Test func aPluginThatSaysSoReplacesTheBuiltin() throws {
    let session = try REPLSession(plugins: [TrafficLightsReplacing()])
    #expect(try session.run("formatters").contains("percent          TrafficLights  green"))
  }
}
