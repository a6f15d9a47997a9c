import D2SModel
import EnvKeys
import Foundation

/// Values as URL-safe text: each tagged by its type (`i42`, `sMAX%20T`, `n` for NULL…),
/// joined by commas. Decoding is exact: a value comes back as the same ``DatabaseValue``.
/// A list row's position (``ListPosition``), a web session's user key and an edit form's
/// fetched values travel this way.
public enum PositionToken {
  /// The text of `values`; nil when one of them cannot be a position (an array, unless
  /// `arrays`: an edit form's values may be arrays, `a{7,8}`).
  public static func encode(_ values: [DatabaseValue], arrays: Bool = false) -> String? {
    var parts: [String] = []
    for value in values {
      switch value {
      case .null: parts.append("n")
      case .int(let number): parts.append("i\(number)")
      case .double(let number): parts.append("d\(number)")
      case .decimal(let number): parts.append("m\(number)")
      case .string(let text): parts.append("s" + PercentEncoding.encode(text))
      case .bool(let flag): parts.append(flag ? "b1" : "b0")
      // Seconds since 2001, as Date keeps them: exact (since 1970 would round).
      case .date(let date): parts.append("T\(date.timeIntervalSinceReferenceDate)")
      case .data(let data): parts.append("x" + data.map { String(format: "%02x", $0) }.joined())
      case .verbatim(let text): parts.append("v" + PercentEncoding.encode(text))
      case .textBytes(let data):
        parts.append("y" + data.map { String(format: "%02x", $0) }.joined())
      case .array(let items):
        guard arrays else { return nil }
        parts.append("a" + PercentEncoding.encode(DatabaseValue.arrayText(items)))
      case .list: return nil
      }
    }
    return parts.joined(separator: ",")
  }

  /// The values of `text`.
  ///
  /// - Throws: ``PositionTokenError`` when the text is not a position.
  public static func decode(_ text: String) throws -> [DatabaseValue] {
    guard !text.isEmpty else { throw bad(text) }
    // Split on bytes (a logged-in request decodes its user's key).
    let parts = text.utf8.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
    return try parts.map(Substring.init).map { part in
      guard let tag = part.first else { throw bad(text) }
      let payload = part.dropFirst()
      switch tag {
      case "n" where payload.isEmpty: return .null
      case "i": if let number = Int(payload) { return .int(number) }
      case "d": if let number = Double(payload) { return .double(number) }
      case "m":
        if let number = Decimal(string: String(payload)), !payload.isEmpty {
          return .decimal(number)
        }
      case "s": if let text = PercentEncoding.decode(payload) { return .string(text) }
      case "v": if let text = PercentEncoding.decode(payload) { return .verbatim(text) }
      case "b" where payload == "0" || payload == "1": return .bool(payload == "1")
      case "T":
        // Years 1 to 9999.
        if let seconds = Double(payload), (-63_113_904_000...252_423_993_599).contains(seconds) {
          return .date(Date(timeIntervalSinceReferenceDate: seconds))
        }
      case "t":
        // Years 1 to 9999, as dates are written (a larger number is no date).
        if let seconds = Double(payload), (-62_135_596_800...253_402_300_799).contains(seconds) {
          return .date(Date(timeIntervalSince1970: seconds))
        }
      case "x": if let data = hexData(payload) { return .data(data) }
      case "y": if let data = hexData(payload) { return .textBytes(data) }
      case "a":
        if let text = PercentEncoding.decode(payload),
          let items = DatabaseValue.parseArrayText(text)
        {
          return .array(items)
        }
      default: break
      }
      throw bad(text)
    }
  }

  private static func bad(_ text: String) -> PositionTokenError {
    PositionTokenError(message: "not a list position: \(text)")
  }

  /// The bytes `text` spells, two hexadecimal digits each; nil when it spells none.
  static func hexData(_ text: Substring) -> Data? {
    guard text.count.isMultiple(of: 2) else { return nil }
    var bytes: [UInt8] = []
    var index = text.startIndex
    while index < text.endIndex {
      let next = text.index(index, offsetBy: 2)
      guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
      bytes.append(byte)
      index = next
    }
    return Data(bytes)
  }
}

/// Text that is not a ``PositionToken``, or a position made for another list.
public struct PositionTokenError: Error, CustomStringConvertible, Sendable {
  /// What is wrong, for the user.
  public let message: String
  /// The message.
  public var description: String { message }
}
