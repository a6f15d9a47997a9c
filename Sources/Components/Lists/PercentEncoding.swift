/// Percent-encoding of URL parts (RFC 3986): every byte but the unreserved characters as
/// `%XX`, and back.
public enum PercentEncoding {
  /// `text` with every byte but unreserved ones (`A–Z a–z 0–9 - . _ ~`) as `%XX`; `text`
  /// itself when it has none to encode (a number, a plain name).
  public static func encode(_ text: String) -> String {
    var contiguous = text
    return contiguous.withUTF8 { bytes in
      guard !bytes.allSatisfy(isUnreserved) else { return text }
      var out: [UInt8] = []
      out.reserveCapacity(bytes.count * 3)
      append(bytes, to: &out)
      return String(decoding: out, as: UTF8.self)
    }
  }

  /// `bytes` (text that is not UTF-8) with every byte but unreserved ones as `%XX`.
  public static func encode(bytes: [UInt8]) -> String {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count * 3)
    bytes.withUnsafeBufferPointer { append($0, to: &out) }
    return String(decoding: out, as: UTF8.self)
  }

  /// The bytes `text` percent-encodes, UTF-8 or not; nil when a sequence is malformed.
  public static func decodeBytes(_ text: Substring) -> [UInt8]? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue),
        let low = iterator.next().flatMap(hexValue)
      else { return nil }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  private static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
    let digits: StaticString = "0123456789ABCDEF"
    for byte in bytes {
      if isUnreserved(byte) {
        out.append(byte)
      } else {
        out.append(UInt8(ascii: "%"))
        out.append(digits.utf8Start[Int(byte >> 4)])
        out.append(digits.utf8Start[Int(byte & 15)])
      }
    }
  }

  /// `text` with `%XX` sequences decoded (and `+` as a space when `plusIsSpace`); nil when a
  /// sequence is malformed or the bytes are not UTF-8.
  public static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String? {
    // Most parts (`limit`, `50`) have nothing to decode: they are the text itself.
    let escapes = text.utf8.contains {
      $0 == UInt8(ascii: "%") || plusIsSpace && $0 == UInt8(ascii: "+")
    }
    guard escapes else { return String(text) }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      if byte == UInt8(ascii: "%") {
        guard let high = iterator.next().flatMap(hexValue),
          let low = iterator.next().flatMap(hexValue)
        else { return nil }
        bytes.append(high << 4 | low)
      } else if plusIsSpace, byte == UInt8(ascii: "+") {
        bytes.append(UInt8(ascii: " "))
      } else {
        bytes.append(byte)
      }
    }
    return String(validating: bytes, as: UTF8.self)
  }

  /// Whether `byte` is an unreserved character of RFC 3986 (`A–Z a–z 0–9 - . _ ~`).
  @inline(__always)
  private static func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
      UInt8(ascii: "_"), UInt8(ascii: "~"):
      return true
    default: return false
    }
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
