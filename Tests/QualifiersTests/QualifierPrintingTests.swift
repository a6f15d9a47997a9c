import D2STesting
import EnvKeys
import Foundation
import Qualifiers
import Testing

@Suite struct QualifierPrintingTests {
  @Test(arguments: [
    ("task = 'edit'", "task = 'edit'"),
    ("task == \"edit\"", "task = 'edit'"),
    ("a <> 1", "a != 1"),
    ("a is nil", "a = nil"),
    ("a is not null", "a != nil"),
    ("debug", "debug = true"),
    ("a = 1 and b = 2 or c = 3", "a = 1 AND b = 2 OR c = 3"),
    ("(a = 1 or b = 2) and c = 3", "(a = 1 OR b = 2) AND c = 3"),
    ("not (a = 1 and b = 2)", "NOT (a = 1 AND b = 2)"),
    ("not not a = 1", "NOT NOT a = 1"),
    ("! (a = 1 or b = 2)", "NOT (a = 1 OR b = 2)"),
    ("rating in ['G','PG']", "rating in ('G', 'PG')"),
    ("a = 1.50", "a = 1.5"),
    ("a = 2.0", "a = 2.0"),
    ("title ILIKE \"*x*\"", "title ilike '*x*'"),
    ("*TRUE*", "*true*"),
  ])
  func canonicalText(source: String, printed: String) throws {
    let qualifier = try QualifierParser.parse(source)
    #expect(qualifier.description == printed)
    #expect(try QualifierParser.parse(printed) == qualifier)
  }

  /// Generated qualifiers print to text that parses back to the same value.
  @Test func generatedQualifiersRoundTrip() throws {
    var generator = QualifierGenerator(seed: 42)
    for _ in 0..<2_000 {
      let qualifier = generator.qualifier(depth: 4)
      let text = qualifier.description
      let parsed = try QualifierParser.parse(text)
      #expect(parsed == qualifier, "\(text)")
      #expect(parsed.description == text, "printing is idempotent")
    }
  }
}

/// A deterministic generator of normalised qualifiers (SplitMix64).
struct QualifierGenerator {
  var random: SplitMix64
  init(seed: UInt64) { random = SplitMix64(seed: seed) }

  mutating func next(_ bound: Int) -> Int { random.next(bound) }

  mutating func path() -> KVCPath {
    let names = ["task", "entity", "object", "propertyKey", "user", "debug", "_x1", "überKey"]
    let rest = ["name", "lastName", "address", "phone", "@count", "id"]
    var components = [names[next(names.count)]]
    for _ in 0..<next(3) { components.append(rest[next(rest.count)]) }
    return KVCPath(components: components)
  }

  mutating func literal(depth: Int) -> Literal {
    switch next(depth > 0 ? 8 : 6) {
    case 0: return .null
    case 1: return .bool(next(2) == 0)
    case 2: return .int(next(2) == 0 ? -next(1000) : Int.max - next(10))
    case 3: return .decimal(Decimal(string: "\(next(10000)).\(next(100) + 1)")!)
    case 4:
      let pieces = ["a", "it's", "\\", "\n", "\t", "\"", "ü", "✓", " ", "*", "?"]
      return .string((0..<next(4)).map { _ in pieces[next(pieces.count)] }.joined())
    case 5: return .decimal(Decimal(next(100)))
    case 6: return .list((0..<next(3)).map { _ in literal(depth: depth - 1) })
    default:
      return .dictionary(
        (0..<next(3)).map { i in
          .init(key: ["a", "b c", "k\(i)"][next(3)], value: literal(depth: depth - 1))
        })
    }
  }

  /// A constant a qualifier compares with: a literal, a dictionary (which none compares
  /// with) standing for nil.
  mutating func value(depth: Int) -> DatabaseValue {
    DatabaseValue(literal: literal(depth: depth)) ?? .null
  }

  mutating func qualifier(depth: Int) -> Qualifier {
    let kind = depth > 0 ? next(7) : next(3)
    switch kind {
    case 0: return .constant(next(2) == 0)
    case 1:
      let ops: [ComparisonOperator] = [
        .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual,
      ]
      return .comparison(path(), ops[next(ops.count)], value(depth: 2))
    case 2:
      switch next(4) {
      case 0: return .comparison(path(), .like, .string(["a*", "*b?", "\\*x"][next(3)]))
      case 1: return .comparison(path(), .in, .list((0..<next(3)).map { _ in value(depth: 1) }))
      case 2:
        return .keyComparison(
          path(), ComparisonOperator.allCases[next(ComparisonOperator.allCases.count)], path())
      default: return .comparison(path(), .caseInsensitiveLike, .string("x"))
      }
    case 3, 4: return .all((0..<(2 + next(2))).map { _ in qualifier(depth: depth - 1) })
    case 5: return .any((0..<(2 + next(2))).map { _ in qualifier(depth: depth - 1) })
    default: return .not(qualifier(depth: depth - 1))
    }
  }
}
