import EnvKeys
import Foundation
import Testing

enum OtherTaskKey: DynamicEnvironmentKey { static var defaultValue: String { "" } }

@Suite struct D2SContextKVCTests {
  @Test func exposesAndFindsKeysByNameAndType() throws {
    let registry = D2SContextKVC()
    try registry.expose(TaskKey.self, "task")
    #expect(registry.key(named: "task")?.valueTypeName == "String")
    #expect(registry.key(for: TaskKey.self)?.name == "task")
    #expect(registry.key(named: "Task") == nil)
  }

  @Test func exposingTheSameKeyTwiceIsANoOp() throws {
    let registry = D2SContextKVC()
    try registry.expose(TaskKey.self, "task")
    try registry.expose(TaskKey.self, "task")
    #expect(registry.allKeys.count == 1)
  }

  @Test func oneNameForTwoKeysIsAnError() throws {
    let registry = D2SContextKVC()
    try registry.expose(TaskKey.self, "task")
    let error = #expect(throws: ExposeError.self) { try registry.expose(OtherTaskKey.self, "task") }
    #expect(error?.code == .nameTaken)
    #expect(error?.description.contains("'task' is already exposed") == true)
  }

  @Test func oneKeyUnderTwoNamesIsAnError() throws {
    let registry = D2SContextKVC()
    try registry.expose(TaskKey.self, "task")
    let error = #expect(throws: ExposeError.self) { try registry.expose(TaskKey.self, "job") }
    #expect(error?.code == .keyAlreadyExposed)
    #expect(error?.description.contains("already exposed as 'task'") == true)
  }

  @Test func keywordsAndOddNamesCannotBeExposed() {
    let registry = D2SContextKVC()
    #expect(throws: ExposeError.self) { try registry.expose(TaskKey.self, "and") }
    #expect(throws: ExposeError.self) { try registry.expose(TaskKey.self, "two words") }
  }

  @Test func coercionErrorsNameKeyTypeAndLiteral() throws {
    let registry = D2SContextKVC()
    let key = try registry.expose(CountKey.self, "count")
    let error = #expect(throws: LiteralCoercionError.self) { try key.coerce(.string("many")) }
    #expect(error?.description == "cannot use a string 'many' for key 'count': expected Int")
  }

  @Test func printsValuesAsLiterals() throws {
    let registry = D2SContextKVC()
    let names = try registry.expose(NamesKey.self, "names")
    #expect(names.describe(["Staff", "Store"]) == "('Staff', 'Store')")
    let note = try registry.expose(NoteKey.self, "note")
    #expect(note.describe(String?.none as Any) == "nil")
    #expect(note.allowsNil)
  }

  @Test func castAcceptsOnlyFittingValues() throws {
    let registry = D2SContextKVC()
    let count = try registry.expose(CountKey.self, "count")
    #expect(count.cast(Int64(5)) as? Int == 5)
    #expect(count.cast("5") == nil)
    #expect(count.cast(nil) == nil, "nil does not fit a non-optional key")
    let note = try registry.expose(NoteKey.self, "note")
    let castNil = note.cast(nil)
    #expect(castNil != nil, "nil fits an optional key")
    #expect(note.cast("x") as? String? == "x")
  }
}

/// Each literal kind coerced to each builtin value type.
@Suite struct LiteralCoercionTests {
  static let literals: [(String, Literal)] = [
    ("nil", .null), ("bool", .bool(true)), ("int", .int(42)), ("wholeDecimal", .decimal(3)),
    ("decimal", .decimal(Decimal(string: "20.99")!)), ("string", .string("x")),
    ("date", .string("2006-02-15 04:34:33")), ("list", .list([.string("a"), .string("b")])),
    ("dictionary", .dictionary([.init(key: "a", value: .int(1))])),
  ]

  /// Which literal kinds each type accepts.
  static let accepted: [String: Set<String>] = [
    "String": ["string", "date"],
    "Int": ["int", "wholeDecimal"],
    "Double": ["int", "wholeDecimal", "decimal"],
    "Decimal": ["int", "wholeDecimal", "decimal"],
    "Bool": ["bool"],
    "Date": ["date"],
    "[String]": ["list"],
    "[String: Int]": ["dictionary"],
    "String?": ["nil", "string", "date"],
  ]

  static func coerce(_ type: String, _ literal: Literal) throws -> Any {
    switch type {
    case "String": try String(contextLiteral: literal)
    case "Int": try Int(contextLiteral: literal)
    case "Double": try Double(contextLiteral: literal)
    case "Decimal": try Decimal(contextLiteral: literal)
    case "Bool": try Bool(contextLiteral: literal)
    case "Date": try Date(contextLiteral: literal)
    case "[String]": try [String](contextLiteral: literal)
    case "[String: Int]": try [String: Int](contextLiteral: literal)
    default: try String?(contextLiteral: literal) as Any
    }
  }

  @Test(arguments: [
    "String", "Int", "Double", "Decimal", "Bool", "Date", "[String]", "[String: Int]", "String?",
  ])
  func eachLiteralKind(type: String) throws {
    for (kind, literal) in Self.literals {
      let shouldWork = Self.accepted[type]!.contains(kind)
      do {
        _ = try Self.coerce(type, literal)
        #expect(shouldWork, "\(type) should reject \(kind)")
      } catch let error as LiteralCoercionError {
        #expect(!shouldWork, "\(type) should accept \(kind): \(error)")
        #expect(error.expectedType == type)
      }
    }
  }

  @Test func coercedValuesAreRight() throws {
    #expect(try Int(contextLiteral: .decimal(3)) == 3)
    #expect(try Decimal(contextLiteral: .decimal(Decimal(string: "20.99")!)).description == "20.99")
    #expect(try Double(contextLiteral: .int(2)) == 2.0)
    #expect(try [String](contextLiteral: .list([.string("Staff")])) == ["Staff"])
    #expect(
      try [String: Int](contextLiteral: .dictionary([.init(key: "a", value: .int(1))])) == ["a": 1])
    let date = try Date(contextLiteral: .string("2006-02-15 04:34:33"))
    #expect(date.timeIntervalSince1970 == 1_139_978_073)
    #expect(date.contextLiteral == .string("2006-02-15 04:34:33"))
  }

  @Test func listElementErrorsSayWhichElement() {
    let error = #expect(throws: LiteralCoercionError.self) {
      try [String](contextLiteral: .list([.string("a"), .int(2)]))
    }
    #expect(error?.hint == "element 2 is not String")
  }

  @Test func wholeNumbersOnlyForInt() {
    #expect(throws: LiteralCoercionError.self) {
      try Int(contextLiteral: .decimal(Decimal(string: "1.5")!))
    }
  }
}

@Suite struct LiteralPrintingTests {
  @Test func canonicalForms() {
    #expect(Literal.string("it's").description == "'it\\'s'")
    #expect(Literal.decimal(Decimal(string: "20.99")!).description == "20.99")
    #expect(Literal.decimal(1).description == "1.0")
    #expect(Literal.int(-5).description == "-5")
    #expect(Literal.list([.string("a"), .string("b")]).description == "('a', 'b')")
    #expect(
      Literal.dictionary([.init(key: "a", value: .int(1)), .init(key: "b c", value: .string("x"))])
        .description
        == "{ a = 1; 'b c' = 'x' }")
    #expect(Literal.null.description == "nil")
    #expect(Literal.bool(false).description == "false")
  }

  @Test func isoDatesRoundTrip() {
    for text in [
      "1970-01-01 00:00:00", "2006-02-15 04:34:33", "2000-02-29 23:59:59", "1969-12-31 23:59:59",
    ] {
      let date = ISODateText.parse(text)
      #expect(date.map(ISODateText.format) == text)
    }
    #expect(ISODateText.parse("2006-02-15T04:34:33Z") == ISODateText.parse("2006-02-15 04:34:33"))
    #expect(ISODateText.parse("2006-02-15")?.timeIntervalSince1970 == 1_139_961_600)
    #expect(ISODateText.parse("2006-02-30") == nil)
    #expect(ISODateText.parse("2006-13-01") == nil)
    #expect(ISODateText.parse("yesterday") == nil)
  }

  @Test func isoDatesWithTimesAndFractions() {
    let base = 1_139_961_600.0  // 2006-02-15
    #expect(ISODateText.parse("2006-02-15 04:34")?.timeIntervalSince1970 == base + 16_440)
    #expect(ISODateText.parse("2006-02-15 04:34:33.25")?.timeIntervalSince1970 == base + 16_473.25)
    #expect(ISODateText.parse("2006-02-15T04:34:33.5Z")?.timeIntervalSince1970 == base + 16_473.5)
    for bad in [
      "2006-02-15 4:34:33", "2006-02-15 24:00:00", "2006-02-15 04:60:00", "2006-02-15 04:34:",
      "2006-02-15 04:34:33.", "2006-02-15 04:34:33.1234567890", "2006/02/15", "2006-02-1x",
      "", "Z",
    ] {
      #expect(ISODateText.parse(bad) == nil, "\(bad)")
    }
  }
}

/// A nil that does not fit is named once: "cannot use nil for key 'task'", not "nil nil".
@Suite struct NilCoercionMessageTests {
  @Test func nilIsNamedOnce() {
    let error = LiteralCoercionError(key: "task", expectedType: "String", literal: .null)
    #expect(error.description == "cannot use nil for key 'task': expected String")
  }
}
