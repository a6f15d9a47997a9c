import EnvKeys
import Foundation
import Testing

/// The typed accessors: each case as its type, numbers converted as documented, and nil for
/// what a value does not hold.
@Suite struct DatabaseValueAccessorTests {
  @Test func numbersAreReadAcrossTheirCases() throws {
    let price = DatabaseValue.decimal(try #require(Decimal(string: "12.50")))
    #expect(price.decimal == Decimal(string: "12.5"))
    #expect(price.double == 12.5)
    #expect(price.int == nil, "not a whole number")
    #expect(DatabaseValue.decimal(40).int == 40)
    #expect(DatabaseValue.int(3).decimal == 3)
    #expect(DatabaseValue.int(3).double == 3)
    #expect(DatabaseValue.double(0.1).decimal == Decimal(string: "0.1"), "by its shortest text")
    #expect(DatabaseValue.double(2).int == 2)
    #expect(DatabaseValue.double(2.5).int == nil)
    #expect(DatabaseValue.double(.infinity).int == nil)
    #expect(DatabaseValue.double(.nan).decimal == nil)
    #expect(DatabaseValue.verbatim("12.50").decimal == Decimal(string: "12.5"))
    #expect(DatabaseValue.verbatim("-Infinity").decimal == nil)
    let long = "5." + String(repeating: "0", count: 39) + "1"
    #expect(DatabaseValue.verbatim(long).decimal == nil, "more digits than Decimal holds")
    #expect(DatabaseValue.verbatim(long).int == nil)
    #expect(DatabaseValue.verbatim("12.500000").decimal == Decimal(string: "12.5"))
    #expect(DatabaseValue.verbatim("NaN").double == nil)
    #expect(DatabaseValue.decimal(try #require(Decimal(string: "1e30"))).int == nil, "too large")
    #expect(DatabaseValue.string("12").int == nil, "text is not a number")
    #expect(DatabaseValue.null.int == nil && DatabaseValue.null.decimal == nil)
  }

  @Test func everyOtherCaseAnswersOnlyItsOwnAccessor() {
    #expect(DatabaseValue.string("PG-13").text == "PG-13")
    #expect(DatabaseValue.textBytes(Data([0x61, 0xC0])).text == #"a\xc0"#)
    #expect(DatabaseValue.int(5).text == nil)
    #expect(DatabaseValue.bool(true).bool == true)
    #expect(DatabaseValue.int(0).bool == false && DatabaseValue.int(1).bool == true)
    #expect(DatabaseValue.int(2).bool == nil)
    let day = Date(timeIntervalSince1970: 86_400)
    #expect(DatabaseValue.date(day).date == day)
    #expect(DatabaseValue.string("2006-01-02").date == nil)
    #expect(DatabaseValue.data(Data([1, 2])).data == Data([1, 2]))
    #expect(DatabaseValue.array(["a", nil]).array == ["a", nil])
    #expect(DatabaseValue.null.text == nil && DatabaseValue.null.bool == nil)
  }
}
