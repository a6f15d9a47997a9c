import D2SModel
import EnvKeys
import Foundation
import Testing

@testable import Components

@Suite struct FormatterTests {
  let registry = FormatterRegistry()
  let money = Attribute(
    name: "replacementCost", columnName: "replacement_cost", externalType: "DECIMAL(5,2)",
    valueType: .decimal, allowsNull: false, width: 5, scale: 2)

  func format(_ name: String, _ value: DatabaseValue, _ attribute: Attribute? = nil) -> String? {
    registry.formatter(named: name)?.format(value, for: attribute)
  }
  func parse(_ name: String, _ text: String, _ attribute: Attribute? = nil) throws -> DatabaseValue?
  {
    try registry.formatter(named: name)?.parse(text, for: attribute)
  }

  @Test func displays() {
    #expect(format("integer", .int(16044)) == "16044")
    #expect(format("decimal", .decimal(Decimal(string: "20.99")!), money) == "20.99")
    #expect(format("decimal", .decimal(Decimal(20)), money) == "20.00")
    #expect(format("currency", .decimal(Decimal(string: "20.99")!), money) == "$20.99")
    #expect(format("currency", .decimal(Decimal(string: "-5")!)) == "-$5.00")
    #expect(format("percent", .decimal(Decimal(string: "0.25")!)) == "25%")
    let date = ISODateText.parse("2006-02-15 04:34:33")!
    #expect(format("date", .date(date)) == "2006-02-15")
    #expect(format("time", .date(date)) == "04:34:33")
    #expect(format("dateTime", .date(date)) == "2006-02-15 04:34:33")
    #expect(format("minutesDuration", .int(86)) == "1h 26m")
    #expect(format("minutesDuration", .int(46)) == "46m")
    #expect(format("daysDuration", .int(6)) == "6 days")
    #expect(format("daysDuration", .int(1)) == "1 day")
  }

  @Test func parsesWhatItShowsAndPlainForms() throws {
    #expect(try parse("integer", "16,044") == .int(16044))
    #expect(try parse("integer", "16044") == .int(16044))
    #expect(try parse("decimal", "20.99", money) == .decimal(Decimal(string: "20.99")!))
    #expect(try parse("currency", "$20.99", money) == .decimal(Decimal(string: "20.99")!))
    #expect(try parse("currency", "20.99", money) == .decimal(Decimal(string: "20.99")!))
    #expect(try parse("percent", "25%") == .decimal(Decimal(string: "0.25")!))
    #expect(try parse("percent", "0.25") == .decimal(Decimal(string: "0.25")!))
    #expect(try parse("date", "2006-02-15") == .date(ISODateText.parse("2006-02-15")!))
    #expect(try parse("time", "04:34") == .date(Date(timeIntervalSince1970: 4 * 3600 + 34 * 60)))
    #expect(
      try parse("dateTime", "2006-02-15T04:34:33Z")
        == .date(ISODateText.parse("2006-02-15 04:34:33")!))
    #expect(try parse("minutesDuration", "86") == .int(86))
    #expect(try parse("minutesDuration", "1h 26m") == .int(86))
    #expect(try parse("daysDuration", "6 days") == .int(6))
    #expect(try parse("daysDuration", "6") == .int(6))
  }

  @Test func badTextSaysWhatToWrite() {
    let error = #expect(throws: FormatterError.self) { try parse("currency", "twenty", money) }
    #expect(
      error?.description
        == "'twenty' is not a valid currency value (write an amount like $20.99 or 20.99)")
    #expect(throws: FormatterError.self) { try parse("integer", "1.5") }
    #expect(throws: FormatterError.self) { try parse("date", "2006-02-15 04:00:00") }
    #expect(throws: FormatterError.self) { try parse("minutesDuration", "1x") }
  }
}
