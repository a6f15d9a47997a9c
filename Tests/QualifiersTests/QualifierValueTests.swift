import EnvKeys
import Foundation
import Qualifiers
import Testing

/// A qualifier holds the database's own value type: what the parser reads becomes one, and
/// values only a database gives (blobs, doubles, verbatim text, arrays) compare exactly.
@Suite struct QualifierValueTests {
  let row = Row(fields: [
    "code": Data([0, 255]), "score": 0.30000000000000004, "amount": DatabaseValue.verbatim("1.50"),
    "tags": ["a", nil] as [String?], "n": 7,
  ])

  @Test func parsedConstantsAreDatabaseValues() throws {
    #expect(
      try QualifierParser.parse("a = 1 AND b = 2.5 AND c = 'x' AND d = nil AND e in (1, 'y')")
        == .all([
          .comparison("a", .equal, .int(1)),
          .comparison("b", .equal, .decimal(Decimal(string: "2.5")!)),
          .comparison("c", .equal, .string("x")),
          .comparison("d", .equal, .null),
          .comparison("e", .in, .list([.int(1), .string("y")])),
        ]))
  }

  @Test func aDictionaryIsNoValueToCompareWith() {
    #expect(throws: ParseError.self) { try QualifierParser.parse("a = { b = 1 }") }
    #expect(DatabaseValue(literal: .dictionary([])) == nil)
    #expect(DatabaseValue(literal: .list([.int(1), .dictionary([])])) == nil)
  }

  @Test func valuesOnlyADatabaseGivesCompareExactly() {
    func holds(_ key: String, _ op: ComparisonOperator, _ value: DatabaseValue) -> Bool {
      Qualifier.comparison(KVCPath(key), op, value).evaluate(with: row)
    }
    #expect(holds("code", .equal, .data(Data([0, 255]))))
    #expect(!holds("code", .equal, .data(Data([0]))))
    #expect(!holds("code", .equal, .null), "a blob is not NULL")
    #expect(holds("score", .equal, .double(0.30000000000000004)))
    #expect(!holds("score", .equal, .double(0.3)))
    #expect(holds("amount", .equal, .verbatim("1.50")))
    #expect(!holds("amount", .equal, .string("1.50")), "verbatim numeric text is not a string")
    #expect(holds("tags", .equal, .array(["a", nil])))
    #expect(!holds("tags", .equal, .array(["a", "NULL"])), "a NULL element is not 'NULL'")
    #expect(holds("n", .in, .list([.int(1), .decimal(7)])))
  }

  @Test func printedQualifiersParseBack() throws {
    for text in ["a = 1", "a = 1.5", "a = 'it\\'s'", "a = nil", "a in (1, 'b', nil)", "a = true"] {
      let qualifier = try QualifierParser.parse(text)
      #expect(qualifier.description == text)
      #expect(try QualifierParser.parse(qualifier.description) == qualifier)
    }
    #expect(DatabaseValue.double(2).qualifierText == "2.0")
    #expect(DatabaseValue.data(Data([1, 2, 255])).qualifierText == "x'0102ff'")
    #expect(
      DatabaseValue.date(Date(timeIntervalSince1970: 1.25)).qualifierText
        == "'1970-01-01 00:00:01.25'")
    #expect(DatabaseValue.array(["a", nil]).qualifierText == "('a', nil)")
  }

  /// `propertyValue` holds a value as plain Swift (so that a component writes `value as? Int`);
  /// reading it back gives the same value, whatever its case (but `.list`, a qualifier's `in`
  /// list, which no column holds).
  @Test func aPropertyValueReadsBackAsTheSameValue() {
    let values: [DatabaseValue] = [
      .null, .int(-3), .double(-.infinity), .double(0.30000000000000004),
      .decimal(Decimal(string: "253.60")!), .string("'12abc'"), .bool(false),
      .date(Date(timeIntervalSinceReferenceDate: 0.123456)), .data(Data([0, 255])),
      .array(["a", nil, "NULL"]), .verbatim("-$5.00"),
    ]
    for value in values {
      #expect(DatabaseValue(any: value.sendableValue) == value, "\(value)")
      #expect(ValueComparison.equal(value.sendableValue, value), "\(value)")
    }
  }
}
