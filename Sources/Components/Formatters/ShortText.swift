/// Short ASCII text written into a buffer on the stack, then made a string once: a formatter
/// that runs for nearly every row of a page (`1h 26m`) makes its text at a third of what
/// string interpolation costs (no part is a string of its own; up to 15 bytes need no
/// allocation). Not copyable: it cannot outlive the buffer ``make(_:)`` lends it.
struct ShortText: ~Copyable {
  /// The text's bytes so far.
  private let buffer: UnsafeMutableBufferPointer<UInt8>
  /// How many bytes are written.
  private(set) var count = 0

  /// The most bytes a ``ShortText`` holds: two integers of any size and a few letters.
  static let capacity = 64

  /// The text `write` writes (at most ``capacity`` bytes).
  static func make(_ write: (inout ShortText) -> Void) -> String {
    // Written on the stack, then decoded: a string's own uninitialized storage is allocated
    // on the heap for a capacity above 15 bytes, however few are written.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
      var text = ShortText(buffer: buffer)
      write(&text)
      return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<text.count]), as: UTF8.self)
    }
  }

  private init(buffer: UnsafeMutableBufferPointer<UInt8>) {
    self.buffer = buffer
  }

  /// Appends `text` (ASCII, as written in the source), as far as there is room.
  mutating func append(_ text: StaticString) {
    text.withUTF8Buffer { bytes in
      for byte in bytes where count < buffer.count {
        buffer[count] = byte
        count += 1
      }
    }
  }

  /// Appends `number` in decimal digits, with a minus sign when negative, as
  /// `String(number)` writes it.
  mutating func append(_ number: Int) {
    if number < 0 { append("-") }
    // As far as there is room: the leading digits.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: DecimalDigits.maximumCount) {
      digits in
      for index in DecimalDigits.write(number.magnitude, toEndOf: digits)..<digits.count
      where count < buffer.count {
        buffer[count] = digits[index]
        count += 1
      }
    }
  }
}
