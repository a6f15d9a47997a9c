/// An unsigned integer's decimal digits, written from the last one back, dividing by 10 alone:
/// the compiler makes that a multiplication, where a division by a variable power of ten (the
/// digits written first to last) is a slow instruction. For the texts written per row (a
/// duration's minutes, a row link's key).
package enum DecimalDigits {
  /// The most digits a `UInt` has: the room ``write(_:toEndOf:)`` needs.
  package static let maximumCount = 20

  /// Writes `number`'s digits (ASCII) at the end of `buffer`, which has room for
  /// ``maximumCount``; the index of the first.
  package static func write(_ number: UInt, toEndOf buffer: UnsafeMutableBufferPointer<UInt8>)
    -> Int
  {
    var rest = number
    var start = buffer.count
    repeat {
      start -= 1
      buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
    } while rest > 0
    return start
  }
}
