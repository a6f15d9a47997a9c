import Qualifiers

/// A rule kept as text until a look-up first asks for its key (``RuleModel/loadDeferred``).
struct DeferredRule: Sendable {
  let text: String
  let file: String?
  let line: Int
  let parser: RuleParser
}

extension RuleParser {
  /// The name of the key `text`'s rule assigns, read without parsing the rule: the name after
  /// its `=>` (outside quotes and brackets), when `=` follows it. Nil when the text holds no
  /// such arrow (a blank or comment line, a rule without a condition, text that is not a
  /// rule): it is then parsed at once.
  package static func assignedKeyName(_ text: String) -> String? {
    let bytes = Array(text.utf8)
    var index = 0
    var depth = 0
    var quote: UInt8?
    var arrow: Int?
    while index < bytes.count {
      let byte = bytes[index]
      if let open = quote {
        if byte == UInt8(ascii: "\\") {
          index += 2
          continue
        }
        if byte == open { quote = nil }
        index += 1
        continue
      }
      switch byte {
      case UInt8(ascii: "'"), UInt8(ascii: "\""): quote = byte
      case UInt8(ascii: "#"): return nil
      case UInt8(ascii: "/") where index + 1 < bytes.count && bytes[index + 1] == byte: return nil
      case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): depth += 1
      case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
      case UInt8(ascii: "=")
      where depth == 0 && index + 1 < bytes.count
        && bytes[index + 1] == UInt8(ascii: ">"):
        arrow = index + 2
      default: break
      }
      if arrow != nil { break }
      index += 1
    }
    guard var position = arrow else { return nil }
    func skipBlanks() {
      while position < bytes.count,
        [
          UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"),
          UInt8(ascii: "\\"),
        ].contains(bytes[position])
      {
        position += 1
      }
    }
    func isNameByte(_ byte: UInt8, first: Bool) -> Bool {
      (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_")
        || (!first && byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
    skipBlanks()
    let start = position
    while position < bytes.count, isNameByte(bytes[position], first: position == start) {
      position += 1
    }
    guard position > start else { return nil }
    let name = String(decoding: bytes[start..<position], as: UTF8.self)
    skipBlanks()
    guard position < bytes.count, bytes[position] == UInt8(ascii: "="),
      position + 1 >= bytes.count || bytes[position + 1] != UInt8(ascii: "=")
    else { return nil }
    return name
  }
}
