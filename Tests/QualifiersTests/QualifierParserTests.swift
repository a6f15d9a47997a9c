import EnvKeys
import Foundation
import Qualifiers
import Testing

@Suite struct QualifierParserTests {
  func parse(_ text: String) throws -> Qualifier { try QualifierParser.parse(text) }

  @Test func comparisonsOfEveryOperator() throws {
    #expect(try parse("task = 'edit'") == .comparison("task", .equal, .string("edit")))
    #expect(try parse("task == \"edit\"") == .comparison("task", .equal, .string("edit")))
    #expect(try parse("a != 1") == .comparison("a", .notEqual, .int(1)))
    #expect(try parse("a <> 1") == .comparison("a", .notEqual, .int(1)))
    #expect(try parse("a < 1") == .comparison("a", .lessThan, .int(1)))
    #expect(try parse("a <= 1") == .comparison("a", .lessThanOrEqual, .int(1)))
    #expect(try parse("a > -1") == .comparison("a", .greaterThan, .int(-1)))
    #expect(
      try parse("a >= 2.5")
        == .comparison("a", .greaterThanOrEqual, .decimal(Decimal(string: "2.5")!)))
    #expect(
      try parse("title like '*DINO?AUR*'") == .comparison("title", .like, .string("*DINO?AUR*")))
    #expect(
      try parse("title ILIKE 'a*'") == .comparison("title", .caseInsensitiveLike, .string("a*")))
    #expect(
      try parse("rating in ('G', 'PG')")
        == .comparison("rating", .in, .list([.string("G"), .string("PG")])))
    #expect(try parse("rating IN ['G']") == .comparison("rating", .in, .list([.string("G")])))
  }

  @Test func nilTests() throws {
    #expect(try parse("a is nil") == .comparison("a", .equal, .null))
    #expect(try parse("a IS NULL") == .comparison("a", .equal, .null))
    #expect(try parse("a is not nil") == .comparison("a", .notEqual, .null))
    #expect(try parse("a Is Not Null") == .comparison("a", .notEqual, .null))
    #expect(try parse("a = nil") == .comparison("a", .equal, .null))
  }

  @Test func keyToKeyAndBareKeysAndConstants() throws {
    #expect(
      try parse("object.ownerId != user.id")
        == .keyComparison("object.ownerId", .notEqual, "user.id"))
    #expect(
      try parse("entity.name in readOnlyEntityNames")
        == .keyComparison("entity.name", .in, "readOnlyEntityNames"))
    #expect(try parse("debug") == .comparison("debug", .equal, .bool(true)))
    #expect(
      try parse("isArchived AND code > 3")
        == .and([
          .comparison("isArchived", .equal, .bool(true)),
          .comparison("code", .greaterThan, .int(3)),
        ]))
    #expect(try parse("*true*") == .constant(true))
    #expect(try parse("*FALSE*") == .constant(false))
    #expect(try parse("a = yes") == .comparison("a", .equal, .bool(true)))
    #expect(try parse("a = NO") == .comparison("a", .equal, .bool(false)))
  }

  @Test func precedenceNotThenAndThenOr() throws {
    let a = Qualifier.comparison("a", .equal, .int(1))
    let b = Qualifier.comparison("b", .equal, .int(2))
    let c = Qualifier.comparison("c", .equal, .int(3))
    let d = Qualifier.comparison("d", .equal, .int(4))
    #expect(try parse("a = 1 AND b = 2 OR c = 3 AND d = 4") == .or([.and([a, b]), .and([c, d])]))
    #expect(try parse("a = 1 or b = 2 and c = 3") == .or([a, .and([b, c])]))
    #expect(try parse("NOT a = 1 AND b = 2") == .and([.not(a), b]))
    #expect(try parse("not (a = 1 AND b = 2)") == .not(.and([a, b])))
    #expect(try parse("!a = 1 && b = 2 || c = 3") == .or([.and([.not(a), b]), c]))
    #expect(try parse("(a = 1 OR b = 2) AND c = 3") == .and([.or([a, b]), c]))
    #expect(
      try parse("a = 1 AND (b = 2 AND c = 3)") == .and([a, b, c]), "nested same compounds flatten")
  }

  @Test func literalsAndEscapes() throws {
    #expect(try parse("a = 'it\\'s'") == .comparison("a", .equal, .string("it's")))
    #expect(try parse("a = \"tab\\there\\n\"") == .comparison("a", .equal, .string("tab\there\n")))
    #expect(try parse("a = '\\\\'") == .comparison("a", .equal, .string("\\")))
    #expect(try parse("a like '\\*'") == .comparison("a", .like, .string("\\*")))
    #expect(
      try QualifierParser.parseLiteral("{ a = 1; other = 'v' }")
        == .dictionary([.init(key: "a", value: .int(1)), .init(key: "other", value: .string("v"))]))
    #expect(
      try QualifierParser.parseLiteral("{\"key\": \"v\", \"n\": 2}")
        == .dictionary([.init(key: "key", value: .string("v")), .init(key: "n", value: .int(2))]))
    #expect(try QualifierParser.parseLiteral("('Staff')") == .list([.string("Staff")]))
    #expect(try QualifierParser.parseLiteral("()") == .list([]))
    #expect(try QualifierParser.parseLiteral("-20.990") == .decimal(Decimal(string: "-20.99")!))
  }
}

@Suite struct QualifierParseErrorTests {
  func error(_ text: String) -> ParseError? {
    #expect(throws: ParseError.self) { try QualifierParser.parse(text) }
  }

  @Test(arguments: [
    ("task = ", 1, 8, "expected a value, found end of input"),
    ("task = 'edit' AND", 1, 18, "expected a condition, found end of input"),
    ("task = 'edit", 1, 8, "unterminated string: missing closing '"),
    (
      "task = and", 1, 8,
      "expected a value, found the name 'and'; quote it if it is a string ('and')"
    ),
    ("and = 1", 1, 1, "'and' is a keyword and cannot be a key path; quote it if it is a string"),
    ("a = 'x\\q'", 1, 7, "unknown escape '\\q' in string (use \\' \\\" \\\\ \\n \\t)"),
    ("a = 99999999999999999999", 1, 5, "integer literal 99999999999999999999 overflows"),
    ("(a = 1", 1, 7, "expected ')' to close the '(' at 1:1"),
    ("a = 1 b = 2", 1, 7, "unexpected 'b' after the end of the expression"),
    ("a in 'x'", 1, 6, "expected a list after 'in', like ('a', 'b')"),
    ("a like 3", 1, 8, "expected a quoted pattern after 'like'"),
    ("a is 3", 1, 6, "expected nil or null after 'is'"),
    ("a ~ 3", 1, 3, "unexpected character '~'"),
    ("a = (1, 2", 1, 10, "expected ',' or ')' in the list opened at 1:5"),
    ("a. = 1", 1, 2, "key path must not end with '.'"),
    ("a = *maybe*", 1, 5, "unexpected '*' (did you mean *true* or *false*?)"),
    ("= 1", 1, 1, "expected a key path, '(' or *true*, found '='"),
  ])
  func messages(text: String, line: Int, column: Int, message: String) {
    guard let error = error(text) else { return }
    #expect(error.message == message)
    #expect(error.location == SourceLocation(line: line, column: column))
  }

  @Test func rendersTheLineWithACaret() {
    guard let error = error("task = 'edit' AND = 3") else { return }
    #expect(
      error.description == """
        1:19: error: expected a key path, '(' or *true*, found '='
        task = 'edit' AND = 3
                          ^
        """)
  }

  @Test func nestingIsLimited() {
    let deep = String(repeating: "(", count: 300) + "a = 1" + String(repeating: ")", count: 300)
    #expect(error(deep)?.message == "nesting is deeper than the limit of 256")
    let fine = String(repeating: "(", count: 200) + "a = 1" + String(repeating: ")", count: 200)
    #expect((try? QualifierParser.parse(fine)) == .comparison("a", .equal, .int(1)))
  }

  @Test func lineLengthIsLimited() {
    let long = "a = '" + String(repeating: "x", count: (1 << 20) + 1) + "'"
    #expect(error(long)?.message == "line is longer than the limit of 1048576 bytes")
  }
}
