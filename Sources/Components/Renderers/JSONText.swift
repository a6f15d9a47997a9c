import D2SModel
import EnvKeys
import Foundation

/// JSON text built by hand: strings escaped, values typed, decimals exact.
public enum JSONText {
  /// `text` as a JSON string literal.
  public static func string(_ text: String) -> String {
    var text = text
    return text.withUTF8 { bytes in
      // Most text needs no escape: it is copied whole. A byte that may start one (an ASCII
      // control or quote, a C1 control's or a bidirectional override's lead byte) sends the
      // text through the escaping copy.
      guard
        bytes.contains(where: {
          $0 < 0x20 || $0 == 0x22 || $0 == 0x5C
            || $0 >= 0x7F && ($0 == 0x7F || $0 == 0xC2 || $0 == 0xE2)
        })
      else {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count + 2)
        out.append(0x22)
        out.append(contentsOf: bytes)
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
      }
      return escaped(bytes)
    }
  }

  /// `bytes` (UTF-8) as a JSON string with every character that needs it escaped: quotes,
  /// backslashes, controls, and the bidirectional overrides a terminal showing the JSON would
  /// obey.
  private static func escaped(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    var out = [UInt8]()
    out.reserveCapacity(bytes.count + bytes.count / 8 + 2)
    func unicode(_ value: UInt32) {
      let hex = Array(String(value, radix: 16).utf8)
      out += Array(#"\u"#.utf8) + Array(repeating: UInt8(ascii: "0"), count: 4 - hex.count) + hex
    }
    out.append(0x22)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      switch byte {
      case 0x22: out += [0x5C, 0x22]
      case 0x5C: out += [0x5C, 0x5C]
      case 0x0A: out += [0x5C, UInt8(ascii: "n")]
      case 0x0D: out += [0x5C, UInt8(ascii: "r")]
      case 0x09: out += [0x5C, UInt8(ascii: "t")]
      case 0x00..<0x20, 0x7F: unicode(UInt32(byte))
      case 0xC2 where index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]):
        // U+0080–U+009F, the C1 controls.
        unicode(UInt32(bytes[index + 1]))
        index += 2
        continue
      case 0xE2
      where index + 2 < bytes.count
        && ((bytes[index + 1] == 0x80 && (0xAA...0xAE).contains(bytes[index + 2]))
          || (bytes[index + 1] == 0x81 && (0xA6...0xA9).contains(bytes[index + 2]))):
        // U+202A–U+202E and U+2066–U+2069.
        let value =
          bytes[index + 1] == 0x80
          ? 0x2000 + UInt32(bytes[index + 2] - 0x80) : 0x2040 + UInt32(bytes[index + 2] - 0x80)
        unicode(value)
        index += 3
        continue
      default: out.append(byte)
      }
      index += 1
    }
    out.append(0x22)
    return String(decoding: out, as: UTF8.self)
  }

  /// A typed value: numbers as numbers, except decimals a `Double` does not hold exactly (a
  /// string of their exact text) and non-finite doubles (a string: `"-Inf"`); dates as ISO
  /// 8601 strings, blobs as base64 strings, arrays with `null` elements, nil as `null`.
  public static func value(_ value: DatabaseValue) -> String {
    switch value {
    case .null: "null"
    case .int(let i): String(i)
    case .double(let d): d.isFinite ? "\(d)" : string(value.storedText())
    case .decimal(let d): exactNumber(DecimalText.format(d))
    case .string(let s): string(s)
    case .bool(let b): b ? "true" : "false"
    case .date(let date):
      string(
        DatabaseValue.formatDate(date, kind: .dateTime).replacingOccurrences(of: " ", with: "T"))
    case .data(let data): string(data.base64EncodedString())
    case .array(let items): array(items.map { $0.map(string) ?? "null" })
    case .verbatim(let text): array(of: text).map(arrayValue) ?? string(text)
    // Text that is not UTF-8: its exact bytes in base64, as a blob's (`text` escapes them).
    case .textBytes(let data): string(data.base64EncodedString())
    case .list(let items): array(items.map(Self.value))
    }
  }

  /// A decimal's plain text as a JSON number when a `Double` holds it exactly (15
  /// significant digits or fewer, which a double always keeps), else as a JSON string of that
  /// text (`"123456789012345678901234567890.12"`). Counted, not parsed: this runs per cell.
  static func exactNumber(_ text: String) -> String {
    var significant = 0
    var leading = true
    for byte in text.utf8 where (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
      if leading && byte == UInt8(ascii: "0") { continue }
      leading = false
      significant += 1
    }
    return significant <= 15 ? text : string(text)
  }

  /// A value with its displayed text: `{"value":20.99,"text":"$20.99"}`; an array whose lower
  /// bounds are not all 1 says them: `{"value":[1,2],"text":"[0:1]={1,2}","lowerBounds":[0]}`.
  public static func shown(_ shown: ShownValue) -> String {
    let bounds = lowerBounds(of: shown.value).map { ",\"lowerBounds\":" + $0 } ?? ""
    guard let textStyle = shown.style else {
      return "{\"value\":\(value(shown.value)),\"text\":\(string(shown.text))\(bounds)}"
    }
    return
      "{\"value\":\(value(shown.value)),\"text\":\(string(shown.text)),\"style\":\(style(textStyle))\(bounds)}"
  }

  /// The lower bounds of an array kept as PostgreSQL's text (`[0]`), when they are not all 1.
  public static func lowerBounds(of value: DatabaseValue) -> String? {
    guard case .verbatim(let text) = value, let parsed = array(of: text),
      parsed.lowerBounds.contains(where: { $0 != 1 })
    else { return nil }
    return array(parsed.lowerBounds.map(String.init))
  }

  /// PostgreSQL's text of an array of several dimensions or other lower bounds (kept as
  /// ``DatabaseValue/verbatim(_:)``), read; nil for other verbatim text.
  static func array(of text: String) -> ArrayText? {
    guard let first = text.utf8.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    else { return nil }
    return ArrayText.parse(text)
  }

  /// Nested JSON arrays of an array's elements (strings, `null`).
  static func arrayValue(_ array: ArrayText) -> String {
    func json(_ element: ArrayText.Element) -> String {
      switch element {
      case .item(let text): text.map(string) ?? "null"
      case .array(let items): Self.array(items.map(json))
      }
    }
    return Self.array(array.elements.map(json))
  }

  /// A style as the array of its names: `["bold","red"]`.
  public static func style(_ style: TextStyle) -> String {
    array(style.names.map(string))
  }

  /// `[a,b]` of already-encoded elements.
  public static func array(_ elements: [String]) -> String {
    "[" + elements.joined(separator: ",") + "]"
  }

  /// `{"k":v,…}` of already-encoded values, in the order given.
  public static func object(_ fields: [(String, String)]) -> String {
    "{" + fields.map { string($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
  }
}
