import Components
import D2SModel
import D2SREPL
import EnvKeys
import Foundation
import Qualifiers
import RuleCore

/// The parsers under fuzzing, chosen by `D2S_FUZZ_TARGET`. Each must return or throw for
/// every input; a trap, a hang or a broken invariant (a printed value that does not parse back
/// to itself) is a finding.
enum FuzzTarget: String, CaseIterable {
  case qualifier, rules, command, literal, formatter, terminal, web

  /// The target of this run (`qualifier` when unset).
  static let current: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["D2S_FUZZ_TARGET"] ?? "qualifier"
    guard let target = FuzzTarget(rawValue: name) else {
      fatalError(
        "unknown D2S_FUZZ_TARGET '\(name)' (use \(allCases.map(\.rawValue).joined(separator: ", ")))"
      )
    }
    return target
  }()

  /// The REPL's engine, registry and formatters, made once.
  static let session: REPLSession? = try? REPLSession(width: 100)
  static let formatters = FormatterRegistry.builtin
  static let keys: [ExposedKey] = session?.registry.allKeys ?? []

  /// Attributes of every value type (and date kind), as coercion and formatters meet them.
  static let attributes: [Attribute] =
    Attribute.ValueType.allCases.map {
      Attribute(
        name: "a", columnName: "a", externalType: $0.rawValue, valueType: $0, allowsNull: true)
    }
    + [Attribute.DateKind.date, .time, .dateTime].map {
      Attribute(
        name: "d", columnName: "d", externalType: "DATE", valueType: .date, dateKind: $0,
        allowsNull: false)
    } + [
      Attribute(
        name: "n", columnName: "n", externalType: "NUMERIC(5,2)", valueType: .decimal,
        allowsNull: false, scale: 2),
      // PostgreSQL's types whose values D2S keeps as stored: zoned times, money, arrays.
      Attribute(
        name: "tz", columnName: "tz", externalType: "timetz", valueType: .date, dateKind: .time,
        allowsNull: true),
      Attribute(
        name: "ts", columnName: "ts", externalType: "timestamptz", valueType: .date,
        dateKind: .dateTime, allowsNull: true),
      Attribute(
        name: "m", columnName: "m", externalType: "money", valueType: .decimal, allowsNull: true),
      Attribute(
        name: "t", columnName: "t", externalType: "text[]", valueType: .array, allowsNull: true),
    ]

  func run(_ bytes: UnsafeBufferPointer<UInt8>) {
    switch self {
    case .qualifier: Self.qualifier(String(decoding: bytes, as: UTF8.self))
    case .rules: Self.rules(String(decoding: bytes, as: UTF8.self))
    case .command: _ = try? CommandParser.parse(String(decoding: bytes, as: UTF8.self))
    case .literal:
      guard let selector = bytes.first else { return }
      Self.literal(
        Int(selector),
        String(decoding: UnsafeBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self))
    case .formatter:
      guard let selector = bytes.first else { return }
      Self.formatter(
        Int(selector),
        String(decoding: UnsafeBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self))
    case .terminal:
      Self.terminal(String(decoding: bytes, as: UTF8.self))
      Self.storedBytes(Data(bytes))
    case .web: WebFuzz.run(bytes)
    }
  }

  /// Text from the database, escaped for a terminal: no control character, DEL, C1 control
  /// or bidirectional override is left, and nothing needs escaping again.
  static func terminal(_ text: String) {
    let escaped = TerminalText.escaped(text)
    let unsafe = escaped.unicodeScalars.first {
      $0.value < 0x20 || (0x7F..<0xA0).contains($0.value) || (0x202A...0x202E).contains($0.value)
        || (0x2066...0x2069).contains($0.value)
    }
    if let unsafe {
      fatalError("\(text.debugDescription) escaped keeps U+\(String(unsafe.value, radix: 16))")
    }
    if TerminalText.needsEscaping(escaped) || TerminalText.escaped(escaped) != escaped {
      fatalError("\(text.debugDescription) escaped is not final")
    }
    let values: [DatabaseValue] = [.string(text), .verbatim(text), .array([text, nil])]
    for value in values {
      let shown = TerminalText.escaped(value.storedText(quotingText: true))
      if shown.unicodeScalars.contains(where: { $0.value < 0x20 }) {
        fatalError("\(text.debugDescription) shown with a control character")
      }
    }
  }

  /// Bytes as a database may hold them (issue 40): text that is not UTF-8 shows with each
  /// stray byte as `\xNN`, which reads back as the same bytes (when the text holds no
  /// backslash of its own) and never holds U+FFFD unless the bytes do; array text of any shape
  /// parses or is refused, never traps; fixed-width text keeps its blanks.
  static func storedBytes(_ data: Data) {
    let escaped = DatabaseValue.escapedText(data)
    let repaired = String(decoding: data, as: UTF8.self)
    if escaped.unicodeScalars.contains("\u{FFFD}") != escapedKeepsReplacement(data) {
      fatalError("\(Array(data)) escaped as \(escaped.debugDescription): U+FFFD of its own?")
    }
    if !data.contains(UInt8(ascii: "\\")), unescape(escaped) != data {
      fatalError("\(Array(data)) escaped as \(escaped.debugDescription) does not read back")
    }
    let shown = TerminalText.escaped(DatabaseValue.textBytes(data).storedText())
    if shown.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      fatalError("\(Array(data)) shown with a control character")
    }
    if let array = ArrayText.parse(repaired), array.lowerBounds.count > ArrayText.maximumDepth {
      fatalError("\(repaired.debugDescription) parsed deeper than the limit")
    }
    if DatabaseValue.string(repaired + "  ").storedText() != repaired + "  " {
      fatalError("\(repaired.debugDescription) lost its trailing blanks")
    }
  }

  /// Whether the bytes hold U+FFFD's own UTF-8 (EF BF BD), which escaping keeps.
  static func escapedKeepsReplacement(_ data: Data) -> Bool {
    data.range(of: Data([0xEF, 0xBF, 0xBD])) != nil
  }

  /// `\xNN` escapes back to their bytes; everything else as its UTF-8.
  static func unescape(_ text: String) -> Data {
    var out: [UInt8] = []
    var bytes = Array(text.utf8)[...]
    while let first = bytes.first {
      if first == UInt8(ascii: "\\"), bytes.count >= 4,
        bytes[bytes.startIndex + 1] == UInt8(ascii: "x"),
        let value = UInt8(
          String(decoding: bytes.dropFirst(2).prefix(2), as: UTF8.self), radix: 16)
      {
        out.append(value)
        bytes = bytes.dropFirst(4)
      } else {
        out.append(first)
        bytes = bytes.dropFirst()
      }
    }
    return Data(out)
  }

  /// Parses; what parses prints as text that parses back to the same qualifier.
  static func qualifier(_ text: String) {
    guard let parsed = try? QualifierParser.parse(text) else { return }
    let printed = parsed.description
    guard let again = try? QualifierParser.parse(printed), again == parsed else {
      fatalError(
        "qualifier does not round-trip: \(text.debugDescription) printed as \(printed.debugDescription)"
      )
    }
  }

  /// Parses rule text; each rule prints as text that parses back to the same rule.
  static func rules(_ text: String) {
    guard let parser = session?.context.engine.parser, let rules = try? parser.parseRules(text)
    else { return }
    for rule in rules {
      guard let again = try? parser.parseRule(rule.description), again == rule else {
        fatalError(
          "rule does not round-trip: \(text.debugDescription) printed as \(rule.description.debugDescription)"
        )
      }
    }
  }

  /// A literal coerced to an exposed key's type or to an attribute's (the first byte chooses).
  static func literal(_ selector: Int, _ text: String) {
    guard let literal = try? QualifierParser.parseLiteral(text) else { return }
    if selector < attributes.count {
      _ = try? DatabaseValue.coerce(literal, to: attributes[selector])
    } else if !keys.isEmpty {
      _ = try? keys[(selector - attributes.count) % keys.count].coerce(literal)
    }
  }

  /// A builtin formatter's `parse` (the first byte chooses the formatter and the attribute);
  /// what parses formats without trapping.
  static func formatter(_ selector: Int, _ text: String) {
    let (name, formatter) = formatters[selector % formatters.count]
    _ = name
    let attribute =
      selector / formatters.count < attributes.count ? attributes[selector / formatters.count] : nil
    guard let value = try? formatter.parse(text, for: attribute) else { return }
    _ = formatter.format(value, for: attribute)
  }
}

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data else { return 0 }
  FuzzTarget.current.run(UnsafeBufferPointer(start: data, count: size))
  return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The executable's `main` as SwiftPM names it for an executable target: libFuzzer's driver.
@_cdecl("d2s_fuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
  var argc = argc
  var argv = argv
  return runFuzzerDriver(&argc, &argv, fuzzOneInput)
}
