import D2SModel
import EnvKeys
import Foundation
import Synchronization
import Testing

@testable import Components

/// A list column's formatter is asked once per distinct value on a page (`FormattedTexts`),
/// by the value's exact bits: values `==` calls equal but written differently (a zero's
/// sign, a decimal's trailing zero) are each formatted, text is never kept, and a value
/// whose slot another took is formatted again, never given another's text.
@Suite struct FormattedTextsTests {
  /// A formatter that counts its calls and writes what it was given, as Swift describes it.
  final class Counting: ValueFormatter {
    let calls = Mutex(0)
    func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
      calls.withLock { $0 += 1 }
      return "\(value)"
    }
    func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue { .null }
  }

  @Test func eachDistinctValueIsFormattedOnce() {
    let counting = Counting()
    let column = ListColumns.PlainText(formatter: counting, attribute: nil, nilText: "–")
    let values: [DatabaseValue] = [
      .int(3), .int(-3), .double(0.5), .bool(true), .date(Date(timeIntervalSince1970: 86_400)),
      .decimal(Decimal(string: "4.99") ?? 0),
    ]
    for _ in 1...10 {
      for value in values { #expect(column.text(value) == "\(value)") }
    }
    #expect(counting.calls.withLock { $0 } == values.count)
    #expect(column.text(.null) == "–")
    #expect(counting.calls.withLock { $0 } == values.count, "nil is never formatted")
  }

  @Test func valuesEqualButWrittenDifferentlyAreFormattedEach() {
    let counting = Counting()
    let column = ListColumns.PlainText(formatter: counting, attribute: nil, nilText: "")
    #expect(DatabaseValue.double(0.0) == .double(-0.0))
    #expect(column.text(.double(0.0)) == "\(DatabaseValue.double(0.0))")
    #expect(column.text(.double(-0.0)) == "\(DatabaseValue.double(-0.0))")
    #expect(column.text(.string("a")) == "\(DatabaseValue.string("a"))")
    #expect(column.text(.string("a")) == "\(DatabaseValue.string("a"))")
    #expect(counting.calls.withLock { $0 } == 4, "both zeros, and text each time")
  }

  @Test func aValueWhoseSlotWasTakenIsFormattedAgain() {
    let counting = Counting()
    let column = ListColumns.PlainText(formatter: counting, attribute: nil, nilText: "")
    // Far more values than slots, twice over: every text is its own value's.
    for _ in 1...2 {
      for number in 0..<1_000 {
        #expect(column.text(.int(number)) == "\(DatabaseValue.int(number))")
      }
    }
    let calls = counting.calls.withLock { $0 }
    #expect(calls > 1_000 && calls <= 2_000)
  }
}
