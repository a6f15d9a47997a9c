import Testing

@testable import D2SModel

/// A declared type's numbers, read by byte, against the string rule they stand for: each
/// comma-separated part between the first `(` and the last `)`, spaces removed, read by
/// `Int(_:)`.
@Suite struct WidthAndScaleTests {
  static func oracle(_ type: String) -> (Int?, Int?) {
    guard let open = type.firstIndex(of: "("), let close = type.lastIndex(of: ")"), open < close
    else { return (nil, nil) }
    let numbers = type[type.index(after: open)..<close].split(
      separator: ",", omittingEmptySubsequences: false
    ).map { Int(String($0.filter { $0 != " " })) }
    return (numbers.first ?? nil, numbers.count > 1 ? numbers[1] : nil)
  }

  @Test(
    arguments: [
      ("varchar(45)", 45, nil), ("numeric(5,2)", 5, 2), ("NUMERIC( 10 , 3 )", 10, 3),
      ("decimal(-1)", -1, nil), ("int", nil, nil), ("char()", nil, nil), ("x(5,)", 5, nil),
      ("x(,5)", nil, 5), ("x(1 2)", 12, nil), ("x(+7)", 7, nil), ("x(5a)", nil, nil),
      ("x(9223372036854775807)", Int.max, nil), ("x(-9223372036854775808)", Int.min, nil),
      ("x(9223372036854775808)", nil, nil), (")(", nil, nil), ("x(--1)", nil, nil),
    ] as [(String, Int?, Int?)])
  func knownTypes(type: String, width: Int?, scale: Int?) {
    let read = Catalog.widthAndScale(type)
    #expect(read.0 == width && read.1 == scale, "\(type)")
  }

  @Test func randomTypesReadAsTheStringRuleReadsThem() {
    for _ in 0..<3_000 {
      let type = RandomText.string(of: "(),0123456789 -+aZ", maximumLength: 14)
      let read = Catalog.widthAndScale(type)
      let expected = Self.oracle(type)
      #expect(read.0 == expected.0 && read.1 == expected.1, "'\(type)'")
    }
  }
}
