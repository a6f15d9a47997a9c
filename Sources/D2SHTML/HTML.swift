import Components

/// Escaping for HTML text and attribute values, and percent-encoding for URLs.
public enum HTML {
  /// `html` in a span whose classes name `style` (`s-bold s-red`), which the stylesheet
  /// shows; `html` as it is when the style changes nothing.
  public static func styled(_ html: String, _ style: TextStyle) -> String {
    guard let opening = styleOpening(style) else { return html }
    return opening + html + "</span>"
  }

  /// The opening tag of ``styled(_:_:)``'s span (`<span class="s-bold">`), nil for a style
  /// that changes nothing.
  static func styleOpening(_ style: TextStyle) -> String? {
    guard !style.isPlain else { return nil }
    return "<span class=\"" + style.names.map { "s-" + $0 }.joined(separator: " ") + "\">"
  }

  /// `text` as page text: with `&`, `<`, `>`, `"` and `'` as entities, safe in text and in
  /// quoted attribute values alike; control characters other than tab and line breaks as the
  /// terminal shows them (`\x00`, `\x7F`); and the invisible format characters that reorder or hide text (bidirectional
  /// embeddings, overrides and isolates, zero-width characters, marks, U+FEFF) in the
  /// terminal's escaped form, `\u{202E}`, so that `U+202E TXT.EXE` cannot show as `EXE.TXT`.
  public static func escape(_ text: String) -> String {
    escape(text, showingFormatCharacters: true)
  }

  /// `text` for a form control's value (an input's `value`, a textarea's text): escaped as
  /// ``escape(_:)``, but format characters kept as they are and control characters as
  /// character references (`&#x1B;`), so that what is sent back is the stored value (but
  /// NUL, which no form can hold: U+FFFD).
  public static func formValue(_ text: String) -> String {
    escape(text, showingFormatCharacters: false)
  }

  private static func escape(_ text: String, showingFormatCharacters: Bool) -> String {
    // Most values need nothing: one pass over the bytes finds out, and they are returned as
    // they are.
    guard needsEscaping(text) else { return text }
    var out = HTMLBytes(capacity: text.utf8.count + 16)
    var text = text
    text.withUTF8 {
      appendEscaping($0, to: &out, showingFormatCharacters: showingFormatCharacters)
    }
    return out.string
  }

  /// Appends `text` to `out` as ``escape(_:)`` (or, without `showingFormatCharacters`,
  /// ``formValue(_:)``) gives it, with no string made on the way: a list's cells are written
  /// so.
  @inline(__always)
  static func appendEscaped(
    _ text: String, to out: inout HTMLBytes, showingFormatCharacters: Bool = true
  ) {
    // A native string's bytes are read in place, with no copy of the string to make them
    // contiguous (a retain and a release a cell).
    @inline(__always)
    func appendBytes(_ bytes: UnsafeBufferPointer<UInt8>) {
      // Bytes of 0x80 and above belong to other scalars (UTF-8), never to markup.
      guard bytes.contains(where: needsEscape) else {
        out.append(bytes)
        return
      }
      appendEscaping(bytes, to: &out, showingFormatCharacters: showingFormatCharacters)
    }
    if text.utf8.withContiguousStorageIfAvailable(appendBytes) == nil {
      var text = text
      text.withUTF8(appendBytes)
    }
  }

  /// Appends `bytes` (UTF-8, some of which need escaping) to `out`, escaped.
  private static func appendEscaping(
    _ bytes: UnsafeBufferPointer<UInt8>, to out: inout HTMLBytes, showingFormatCharacters: Bool
  ) {
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      guard needsEscape(byte) else {
        out.append(byte)
        continue
      }
      switch byte {
      case UInt8(ascii: "&"): out.append("&amp;")
      case UInt8(ascii: "<"): out.append("&lt;")
      case UInt8(ascii: ">"): out.append("&gt;")
      case UInt8(ascii: "\""): out.append("&quot;")
      case UInt8(ascii: "'"): out.append("&#39;")
      case 0xE2, 0xEF:
        // A three-byte scalar: a format character is shown escaped.
        let scalar =
          index + 1 < bytes.count
          ? (UInt32(byte & 0x0F) << 12) | (UInt32(bytes[index] & 0x3F) << 6)
            | UInt32(bytes[index + 1] & 0x3F) : 0
        if showingFormatCharacters, isFormatCharacter(scalar) {
          out.append(unescaped: "\\u{\(String(scalar, radix: 16, uppercase: true))}")
          index += 2
        } else {
          out.append(byte)
        }
      default:
        // A control character: as the terminal shows it (`\x00`); in a form's value, as a
        // character reference (`&#x1B;`), which puts it in the control as it is, to be sent
        // back unchanged; but NUL, which no form can hold: U+FFFD.
        if showingFormatCharacters {
          out.append("\\x")
          if byte < 0x10 { out.append(UInt8(ascii: "0")) }
          out.append(unescaped: String(byte, radix: 16, uppercase: true))
        } else if byte == 0 {
          out.append("\u{FFFD}")
        } else {
          out.append("&#x")
          out.append(unescaped: String(byte, radix: 16, uppercase: true))
          out.append(UInt8(ascii: ";"))
        }
      }
    }
  }

  /// Whether `scalar` is one of the invisible characters that reorder or hide text:
  /// U+200B–U+200F, U+202A–U+202E, U+2066–U+2069, U+FEFF.
  static func isFormatCharacter(_ scalar: UInt32) -> Bool {
    (0x200B...0x200F).contains(scalar) || (0x202A...0x202E).contains(scalar)
      || (0x2066...0x2069).contains(scalar) || scalar == 0xFEFF
  }

  /// Whether a byte of `text` is escaped, read over its contiguous UTF-8 (a tight loop; the
  /// generic view's iterator cost more than the rest of a list cell).
  private static func needsEscaping(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in bytes.contains(where: needsEscape) }
  }

  /// Whether `byte` is escaped, or may start what is: markup's five, control characters but
  /// tab and line breaks, and the lead bytes of the format characters' three-byte forms.
  @inline(__always)
  private static func needsEscape(_ byte: UInt8) -> Bool {
    // Below 64, one bit each: a shift and a test, where a switch's comparisons cost a list
    // cell's text several instructions a byte.
    if byte < 64 { return escapedBelow64 >> byte & 1 != 0 }
    return byte == 0x7F || byte == 0xE2 || byte == 0xEF
  }

  /// The bytes below 64 that are escaped, one bit each: control characters but tab (9), line
  /// feed (10) and carriage return (13); `"` (34), `&` (38), `'` (39), `<` (60), `>` (62).
  private static let escapedBelow64: UInt64 = 0x5000_00C4_FFFF_D9FF

  /// One path segment, percent-encoded: everything but unreserved characters (so `/`, `,`,
  /// `?`, `#` and `%` in a key never change the URL's structure).
  public static func pathSegment(_ text: String) -> String {
    PercentEncoding.encode(text)
  }

  /// A query parameter's name or value, percent-encoded (space as `%20`).
  public static func queryComponent(_ text: String) -> String {
    PercentEncoding.encode(text)
  }

  /// `text` with `%XX` sequences decoded (and `+` as a space when `plusIsSpace`); nil when a
  /// sequence is malformed or the bytes are not UTF-8.
  public static func percentDecoded(_ text: Substring, plusIsSpace: Bool = false) -> String? {
    PercentEncoding.decode(text, plusIsSpace: plusIsSpace)
  }

  /// The query string's parameters in order (`a=1&b=x%20y`), decoded; nil when one is
  /// malformed.
  public static func queryParameters(_ query: Substring) -> [(String, String)]? {
    var result: [(String, String)] = []
    // Split by bytes, as URL parsers do: `&` and `=` are ASCII, never part of another
    // character's UTF-8, where splitting by `Character`s broke graphemes first (on every
    // request).
    for part in query.utf8.split(separator: UInt8(ascii: "&")) {
      let equals = part.firstIndex(of: UInt8(ascii: "="))
      let name = equals.map { part[..<$0] } ?? part
      let value = equals.map { part[part.index(after: $0)...] } ?? part[part.endIndex...]
      guard let name = percentDecoded(Substring(name), plusIsSpace: true),
        let value = percentDecoded(Substring(value), plusIsSpace: true)
      else { return nil }
      result.append((name, value))
    }
    return result
  }

  /// A query string (without `?`) of `parameters`, in order.
  public static func query(_ parameters: [(String, String)]) -> String {
    var query = ""
    for (name, value) in parameters {
      appendQueryParameter(name, value, after: query.isEmpty ? "" : "&", to: &query)
    }
    return query
  }

  /// Appends `separator`, then `name=value` as ``query(_:)`` writes each parameter, to `text`
  /// (a URL's links are written so, one parameter at a time).
  static func appendQueryParameter(
    _ name: String, _ value: String, after separator: String, to text: inout String
  ) {
    text.append(separator)
    text.append(queryComponent(name))
    text.append("=")
    text.append(queryComponent(value))
  }

  /// Whether `text` starts as every link does (`h` or `m`, either case): most values do not,
  /// and need no further look. ``isLinkable(_:)`` asks this first, and a list's cells whose
  /// text fails it are written as text without asking ``isLinkable(_:)``: a scheme it comes to
  /// accept must pass this too.
  @inline(__always)
  static func mayBeLinkable(_ text: String) -> Bool {
    switch text.utf8.first {
    case UInt8(ascii: "h"), UInt8(ascii: "H"), UInt8(ascii: "m"), UInt8(ascii: "M"): true
    default: false
    }
  }

  /// Whether `text` is a URL that may be a link: `http:`, `https:` or `mailto:` (never
  /// `javascript:` or `data:`).
  public static func isLinkable(_ text: String) -> Bool {
    guard mayBeLinkable(text) else { return false }
    guard !text.contains(where: { $0.isWhitespace || $0.asciiValue.map { $0 < 0x20 } == true })
    else { return false }
    let lower = text.lowercased()
    return (lower.hasPrefix("http://") || lower.hasPrefix("https://")) && text.count > 8
      || lower.hasPrefix("mailto:") && text.count > 7
  }
}
