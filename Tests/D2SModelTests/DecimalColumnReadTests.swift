import D2SModel
import EnvKeys
import Foundation
import Testing

/// A SQLite DECIMAL column stored as REAL is read as each double's shortest decimal, row after
/// row: the decimals kept for the last few values (a column of prices repeats them) never
/// give one row another row's value, whatever their order and however many differ.
@Suite struct DecimalColumnReadTests {
  @Test func eachRowGetsItsOwnDecimalAmongRepeatedAndManyValues() throws {
    // More distinct values than the few kept, repeated out of order; doubles next to each
    // other (one bit apart) one after the other; an integer, a negative value, a tiny one
    // written with an exponent, and NULL.
    let stored: [String] = [
      "4.99", "0.99", "2.99", "4.99", "0.1", "0.2", "0.3", "0.30000000000000004", "0.3", "4.99",
      "0.99", "1e-05", "NULL", "-0.5", "7", "0.1", "2.99", "1.1", "1.1000000000000001", "1.1",
    ]
    var script = "CREATE TABLE price (id INTEGER PRIMARY KEY, amount DECIMAL(10,2));\n"
    for (index, value) in stored.enumerated() {
      script += "INSERT INTO price VALUES (\(index + 1), \(value));\n"
    }
    let byKey = try rowsByID(script: script, entity: "Price")
    #expect(byKey.count == stored.count)
    for (row, text) in zip(byKey, stored) {
      let value = row.databaseValue(at: 1)
      switch text {
      case "NULL": #expect(value == .null)
      case "7": #expect(value == .int(7) || value == .decimal(Decimal(7)), "\(value)")
      default:
        let expected = try #require(Double(text))
        #expect(
          value == .decimal(try #require(DecimalText.decimal(from: expected))), "\(text): \(value)")
      }
    }
  }
}
