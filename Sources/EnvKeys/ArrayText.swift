/// PostgreSQL's text of an array of any shape: explicit lower bounds (`[0:1]={1,2}`), any
/// number of dimensions (`{{1,2},{3,4}}`), quoted elements holding commas, braces, blanks and
/// backslashes, and NULL elements. What the JSON of a value kept as PostgreSQL's text
/// (``DatabaseValue/verbatim(_:)``) shows: nested arrays, and the lower bounds.
public struct ArrayText: Equatable, Sendable {
  /// An element: a value (nil for NULL), or an array one dimension down.
  public indirect enum Element: Equatable, Sendable {
    case item(String?)
    case array([Element])
  }

  /// The lower bound of each dimension (1 where the text gives none).
  public var lowerBounds: [Int]
  /// The elements of the first dimension.
  public var elements: [Element]

  /// The array `text` holds, or nil when it is not array text.
  public static func parse(_ text: String) -> ArrayText? {
    var parser = Parser(bytes: Array(text.utf8))
    return parser.array()
  }

  /// The most dimensions read (PostgreSQL allows 6); deeper text is not array text.
  public static let maximumDepth = 32

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    mutating func array() -> ArrayText? {
      var bounds: [Int] = []
      skipBlanks()
      while peek == UInt8(ascii: "[") {
        index += 1
        guard let lower = integer(), take(UInt8(ascii: ":")), integer() != nil,
          take(UInt8(ascii: "]"))
        else { return nil }
        bounds.append(lower)
      }
      if !bounds.isEmpty {
        skipBlanks()
        guard take(UInt8(ascii: "=")) else { return nil }
      }
      skipBlanks()
      guard case .array(let elements)? = element(depth: 0, inArray: false) else { return nil }
      skipBlanks()
      guard index == bytes.count else { return nil }
      var depth = 0
      var level = elements
      while let first = level.first, case .array(let inner) = first {
        depth += 1
        level = inner
      }
      let dimensions = elements.isEmpty ? 0 : depth + 1
      guard bounds.isEmpty || bounds.count == dimensions else { return nil }
      return ArrayText(
        lowerBounds: bounds.isEmpty ? Array(repeating: 1, count: dimensions) : bounds,
        elements: elements)
    }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ byte: UInt8) -> Bool {
      guard peek == byte else { return false }
      index += 1
      return true
    }

    mutating func skipBlanks() {
      while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
        index += 1
      }
    }

    mutating func integer() -> Int? {
      let start = index
      if peek == UInt8(ascii: "-") || peek == UInt8(ascii: "+") { index += 1 }
      while let byte = peek, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
        index += 1
      }
      return Int(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    /// Appends the next byte to `text`, the one after a backslash for a backslash; false for a
    /// backslash that ends the text.
    mutating func character(into text: inout [UInt8]) -> Bool {
      guard let byte = peek else { return false }
      index += 1
      guard byte == UInt8(ascii: "\\") else {
        text.append(byte)
        return true
      }
      guard let escaped = peek else { return false }
      index += 1
      text.append(escaped)
      return true
    }

    /// `{…}`, a quoted element, or an unquoted one (inside an array).
    mutating func element(depth: Int, inArray: Bool) -> Element? {
      skipBlanks()
      guard let byte = peek else { return nil }
      if byte == UInt8(ascii: "{") {
        guard depth < ArrayText.maximumDepth else { return nil }
        index += 1
        var items: [Element] = []
        skipBlanks()
        if take(UInt8(ascii: "}")) { return .array(items) }
        while true {
          guard let item = element(depth: depth + 1, inArray: true) else { return nil }
          items.append(item)
          skipBlanks()
          if take(UInt8(ascii: "}")) { return .array(items) }
          guard take(UInt8(ascii: ",")) else { return nil }
        }
      }
      guard inArray else { return nil }
      if byte == UInt8(ascii: "\"") {
        index += 1
        var text: [UInt8] = []
        while let next = peek {
          if next == UInt8(ascii: "\"") {
            index += 1
            return .item(String(decoding: text, as: UTF8.self))
          }
          guard character(into: &text) else { return nil }
        }
        return nil
      }
      var text: [UInt8] = []
      while let next = peek, next != UInt8(ascii: ","), next != UInt8(ascii: "}"),
        next != UInt8(ascii: "{"), next != UInt8(ascii: "\"")
      {
        guard character(into: &text) else { return nil }
      }
      // Blanks around an unquoted element are not part of it.
      while let last = text.last, last == 0x20 || last == 0x09 { text.removeLast() }
      guard !text.isEmpty else { return nil }
      let value = String(decoding: text, as: UTF8.self)
      return .item(value.uppercased() == "NULL" ? nil : value)
    }
  }
}
