/// Text from the database made safe for a terminal: no byte of a value ever reaches it as a
/// control sequence, and a value stays on one line.
public enum TerminalText {
  /// `text` (already escaped) in ANSI codes for `style`: bold, italic, and a colour
  /// (`secondary` as grey); monospaced needs none. The codes take no columns: callers pad
  /// the text before styling it.
  public static func styled(_ text: String, _ style: TextStyle) -> String {
    var codes: [String] = []
    if style.bold { codes.append("1") }
    if style.italic { codes.append("3") }
    switch style.color {
    case .red: codes.append("31")
    case .green: codes.append("32")
    case .yellow: codes.append("33")
    case .secondary: codes.append("90")
    case nil: break
    }
    guard !codes.isEmpty else { return text }
    let open = "\u{1B}[" + codes.joined(separator: ";") + "m"
    // An inner style's reset would end this one too: it is opened again after it.
    let reset = "\u{1B}[0m"
    return open + text.replacingOccurrences(of: reset, with: reset + open) + reset
  }

  /// `text` with control characters escaped: a newline as `\n`, a tab as `\t`, a carriage
  /// return as `\r`, ESC as `\e`, other C0 and C1 controls and DEL as `\xNN`, and the
  /// bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069) as `\u{…}`.
  /// Text without any of them is returned as it is.
  /// With `keepingLines`, newlines stay (for whole pages and messages, whose lines are
  /// already laid out).
  public static func escaped(_ text: String, keepingLines: Bool = false) -> String {
    guard needsEscaping(text) else { return text }
    var out = ""
    out.reserveCapacity(text.utf8.count + 8)
    for scalar in text.unicodeScalars {
      let v = scalar.value
      switch v {
      case 0x0A where keepingLines: out += "\n"
      case 0x0A: out += "\\n"
      case 0x09: out += "\\t"
      case 0x0D: out += "\\r"
      case 0x1B: out += "\\e"
      case 0..<0x20, 0x7F..<0xA0: out += "\\x" + hex(v, digits: 2)
      case 0x202A...0x202E, 0x2066...0x2069: out += "\\u{" + hex(v, digits: 4) + "}"
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// Whether `text` holds a character ``escaped(_:)`` changes (ASCII checked a word at a
  /// time: this runs for every cell of a list).
  public static func needsEscaping(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      guard let base = bytes.baseAddress else { return false }
      let raw = UnsafeRawPointer(base)
      var offset = 0
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      while offset + 8 <= bytes.count {
        let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        // A byte below 0x20, a DEL (0x7F, found as a zero byte of word ^ 0x7F…), or any byte
        // with its high bit set (checked one by one below).
        let below = (word &- ones &* 0x20) & ~word & highs
        let del = word ^ (ones &* 0x7F)
        let isDel = (del &- ones) & ~del & highs
        if below | isDel | (word & highs) != 0 { break }
        offset += 8
      }
      while offset < bytes.count {
        let byte = base[offset]
        if byte < 0x20 || byte == 0x7F { return true }
        if byte == 0xC2, offset + 1 < bytes.count, (0x80..<0xA0).contains(base[offset + 1]) {
          return true
        }
        if byte == 0xE2, offset + 2 < bytes.count {
          let (second, third) = (base[offset + 1], base[offset + 2])
          if second == 0x80, (0xAA...0xAE).contains(third) { return true }
          if second == 0x81, (0xA6...0xA9).contains(third) { return true }
        }
        offset += 1
      }
      return false
    }
  }

  private static func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }
}
