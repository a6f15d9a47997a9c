import EnvKeys
import Foundation
import Qualifiers
import Testing

struct Row: KeyValueCoding {
  var fields: [String: Any]
  func value(forKey key: String) -> Any? { fields[key] }
}

final class Named: QualifierComparable, @unchecked Sendable {
  let name: String
  init(_ name: String) { self.name = name }
  var qualifierComparisonValue: Any? { name }
}

@Suite struct QualifierEvaluationTests {
  let row = Row(fields: [
    "i": 1, "small": Int8(1), "big": Int64(1), "d": Decimal(1), "dbl": 1.0,
    "price": Decimal(string: "20.99")!,
    "s": "1", "title": "ACADEMY DINOSAUR", "flag": true, "none": Optional<Int>.none as Any,
    "entity": Named("Film"), "names": ["Staff", "Store"], "other": 2,
  ])

  func holds(_ text: String) throws -> Bool { try QualifierParser.parse(text).evaluate(with: row) }

  @Test func numbersCompareByValue() throws {
    #expect(try holds("i = 1.0"))
    #expect(try holds("small = 1"))
    #expect(try holds("big = i"))
    #expect(try holds("d = dbl"))
    #expect(try holds("price = 20.99"))
    #expect(try holds("price > 20"))
    #expect(try holds("price < 21"))
    #expect(try holds("i < other"))
    #expect(try holds("i <= 1"))
    #expect(try holds("i >= 1"))
  }

  @Test func noCrossKindEquality() throws {
    #expect(try !holds("s = 1"))
    #expect(try holds("s != 1"))
    #expect(try !holds("s < 2"), "different kinds do not order")
    #expect(try !holds("title = true"))
  }

  /// As a fetch converts `1` for a Boolean column (SQLite keeps Booleans as 0 and 1).
  @Test func aBooleanIsZeroOrOne() throws {
    #expect(try holds("flag = 1"))
    #expect(try holds("flag = 1.0"))
    #expect(try !holds("flag = 0"))
    #expect(try holds("i = true"))
    #expect(try !holds("flag = 2"))
    #expect(try holds("flag > 0"))
  }

  /// As a fetch converts text for a date column.
  @Test func aDateComparesWithItsISOText() throws {
    let day = Row(fields: ["at": Date(timeIntervalSince1970: 1_704_189_600)])  // 2024-01-02 10:00
    func on(_ text: String) throws -> Bool { try QualifierParser.parse(text).evaluate(with: day) }
    #expect(try on("at = '2024-01-02 10:00:00'"))
    #expect(try on("at = '2024-01-02T10:00:00Z'"))
    #expect(try on("at > '2024-01-02'"))
    #expect(try on("at < '2024-01-03'"))
    #expect(try !on("at = '2024-01-02'"))
    #expect(try !on("at = 'tomorrow'"), "text that is no date equals no date")
    #expect(try !on("at < 'tomorrow'"))
  }

  @Test func nilEqualsNilAndSortsFirst() throws {
    #expect(try holds("none = nil"))
    #expect(try holds("missing is nil"))
    #expect(try holds("none < 0"))
    #expect(try holds("none < 'a'"))
    #expect(try !holds("none > 0"))
    #expect(try holds("i is not nil"))
    #expect(try holds("none != 1"), "!= is nil-safe")
  }

  @Test func likePatterns() throws {
    #expect(try holds("title like 'ACADEMY*'"))
    #expect(try holds("title like '*DINO*'"))
    #expect(try holds("title like 'A?ADEMY*R'"))
    #expect(try holds("title like '*DIN?SAUR'"))
    #expect(try !holds("title like 'academy*'"), "like is case-sensitive")
    #expect(try holds("title ilike 'academy*'"))
    #expect(try !holds("title like 'ACADEMY'"))
    #expect(try !holds("i like '1'"), "like applies to strings only")
    #expect(LikePattern("a\\*b").matches("a*b"))
    #expect(!LikePattern("a\\*b").matches("axb"))
    #expect(LikePattern("a\\?").matches("a?"))
    // `ilike` folds letter by letter, as the databases do: `İ` is `i`, not `i` and a dot.
    #expect(LikePattern("istanbul", caseInsensitive: true).matches("İSTANBUL"))
    #expect(LikePattern("?stanbul", caseInsensitive: true).matches("İstanbul"))
    #expect(LikePattern("émile*", caseInsensitive: true).matches("ÉMILE ZOLA"))
    #expect(CaseFold.lowercased("ΣΟΦΙΑΣ") == "σοφιασ")
    // Code point by code point, as the databases compare: a decomposed `É` (E and U+0301)
    // is two, and is not the precomposed `é`; `?` is one code point, not a CRLF pair.
    #expect(!LikePattern("é*", caseInsensitive: true).matches("E\u{301}mile"))
    #expect(LikePattern("e?mile", caseInsensitive: true).matches("E\u{301}mile"))
    #expect(!LikePattern("a?b").matches("a\r\nb"))
    #expect(LikePattern("a??b").matches("a\r\nb"))
    #expect(LikePattern("*").matches(""))
    #expect(!LikePattern("?").matches(""))
    #expect(LikePattern("*a*b*c*").matches("xxaxxbxxcxx"))
  }

  @Test func membership() throws {
    #expect(try holds("i in (3, 2, 1.0)"))
    #expect(try !holds("i in ()"))
    #expect(try holds("title in ('X', 'ACADEMY DINOSAUR')"))
    #expect(try holds("s in names") == false)
    let staff = Row(fields: ["name": "Staff", "names": ["Staff", "Store"]])
    #expect(try QualifierParser.parse("name in names").evaluate(with: staff))
  }

  @Test func standInsCompareByName() throws {
    #expect(try holds("entity = 'Film'"))
    #expect(try !holds("entity = 'Actor'"))
  }

  @Test func compoundsAndNegation() throws {
    #expect(try holds("flag AND i = 1"))
    #expect(try holds("NOT flag OR i = 1"))
    #expect(try !holds("NOT (flag AND i = 1)"))
    #expect(try holds("*true*"))
    #expect(try !holds("*false*"))
    #expect(try holds("flag AND (s = 'x' OR title like 'A*')"))
  }

  @Test func indexKeysAgreeWithEquality() {
    let values: [Any?] = [
      1, Int8(1), Decimal(1), 1.0, Decimal(string: "1.50")!, 1.5, "1", true, nil, "a",
    ]
    for a in values {
      for b in values {
        let equal = ValueComparison.equal(a, b)
        let sameKey = ValueComparison.indexKey(a) == ValueComparison.indexKey(b)
        #expect(equal == sameKey, "\(String(describing: a)) vs \(String(describing: b))")
      }
    }
  }
}
