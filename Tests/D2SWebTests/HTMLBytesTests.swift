import Testing

@testable import D2SHTML

/// `HTMLBytes` holds exactly what was appended, across growth and takes.
@Suite struct HTMLBytesTests {
  @Test func appendsOfEveryKindGrowPastTheFirstCapacity() {
    var bytes = HTMLBytes(capacity: 1)
    var expected: [UInt8] = []
    for number in 0..<2_000 {
      switch number % 4 {
      case 0:
        bytes.append("</td><td>")
        expected += Array("</td><td>".utf8)
      case 1:
        bytes.append(UInt8(number % 256))
        expected.append(UInt8(number % 256))
      case 2:
        let long = Array(repeating: UInt8(ascii: "x"), count: number)
        bytes.append(long)
        expected += long
      default:
        bytes.append(unescaped: "ü\(number)")
        expected += Array("ü\(number)".utf8)
      }
      #expect(bytes.count == expected.count)
    }
    #expect(bytes.string == String(decoding: expected, as: UTF8.self))
    #expect(bytes.take() == expected)
    #expect(bytes.count == 0)
    bytes.append("again")
    #expect(bytes.take() == Array("again".utf8))
  }

  @Test func anEmptyBufferIsEmptyText() {
    var bytes = HTMLBytes(capacity: 0)
    #expect(bytes.string == "")
    bytes.append(UnsafeBufferPointer<UInt8>(start: nil, count: 0))
    #expect(bytes.take() == [])
  }
}
