/// Display widths of text in a terminal (wcwidth): ASCII fast path, wide East Asian characters
/// count 2, combining marks 0.
public enum TextWidth {
  /// The number of terminal columns `text` takes.
  public static func of(_ text: String) -> Int {
    // ASCII (nearly every cell) is one column a byte, checked eight bytes at a time.
    let ascii =
      text.utf8.withContiguousStorageIfAvailable(isASCII) ?? text.utf8.allSatisfy { $0 < 0x80 }
    if ascii { return text.utf8.count }
    var width = 0
    for scalar in text.unicodeScalars { width += of(scalar) }
    return width
  }

  /// Whether no byte of `bytes` has its high bit set.
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      if word & 0x8080_8080_8080_8080 != 0 { return false }
      offset += 8
    }
    while offset < bytes.count {
      if base[offset] >= 0x80 { return false }
      offset += 1
    }
    return true
  }

  static func of(_ scalar: Unicode.Scalar) -> Int {
    let v = scalar.value
    if v == 0 { return 0 }
    if v < 0x20 || (0x7F..<0xA0).contains(v) { return 0 }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format: return 0
    default: break
    }
    if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v)
      || (0xAC00...0xD7A3).contains(v)
      || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v)
      || (0xFF00...0xFF60).contains(v)
      || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v)
      || (0x1F900...0x1F9FF).contains(v)
      || (0x20000...0x3FFFD).contains(v)
    {
      return 2
    }
    return 1
  }

  /// `text` cut to at most `width` columns, ending in `…` when cut.
  public static func truncate(_ text: String, to width: Int) -> String {
    guard of(text) > width else { return text }
    guard width > 1 else { return width == 1 ? "…" : "" }
    var out = ""
    var used = 0
    for character in text {
      let w = of(String(character))
      if used + w > width - 1 { break }
      out.append(character)
      used += w
    }
    return out + "…"
  }

  /// `text` padded with spaces to `width` columns (left-aligned, or right-aligned).
  public static func pad(_ text: String, to width: Int, right: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - of(text)))
    return right ? padding + text : text + padding
  }
}
