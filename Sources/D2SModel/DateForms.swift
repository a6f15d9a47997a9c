import EnvKeys
import Foundation

/// The text forms of dates: which stored text D2S reads as a date value (its own canonical
/// form only, so that the value is exact), and the form a changed date is written back in
/// (the one that row already uses).
public enum DateForms {
  /// A form a stored date can take, as far as writing a new date back is concerned.
  public enum Form: Equatable, Sendable {
    /// D2S's own: `2006-02-15`, `04:34:33` or `2006-02-15 04:34:33[.fff]`, by the column.
    case canonical
    /// ISO 8601 with `T` and `Z`, with this many digits of a fraction of a second.
    case isoZulu(fractionDigits: Int)
    /// A day only, in a column of date-times.
    case dateOnly
    /// Seconds since 1970 as an integer.
    case epochSeconds
    /// Seconds since 1970 as a real number.
    case epochSecondsReal
  }

  /// Whether `bytes` is in D2S's canonical form for `kind` (a day for `.date`, a time of day
  /// for `.time`, else a day and a time, seconds always, a fraction without trailing zeros).
  public static func isCanonical(_ bytes: UnsafeBufferPointer<UInt8>, kind: Attribute.DateKind?)
    -> Bool
  {
    let count = bytes.count
    switch kind {
    case .date?: return count == 10
    case .time?:
      guard count >= 8, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: ":") else {
        return false
      }
      return count == 8 || isFraction(bytes, from: 8)
    default:
      guard count >= 19, bytes[10] == UInt8(ascii: " ") else { return false }
      return count == 19 || isFraction(bytes, from: 19)
    }
  }

  /// Whether `bytes` is canonical for `kind` and `date`, read from it, prints back as the
  /// same text: a fraction (rare) is checked by printing, since a double may not hold its
  /// microseconds far from 1970 (`2500-01-01 00:00:00.000001`) and `…23:59:59.999999` of
  /// 9999-12-31 is the next year.
  public static func isExact(
    _ date: Date, _ bytes: UnsafeBufferPointer<UInt8>, kind: Attribute.DateKind?
  ) -> Bool {
    guard bytes.count > (kind == .time ? 8 : 19) else { return true }
    let text = DatabaseValue.formatDate(date, kind: kind)
    return text.utf8.elementsEqual(bytes)
  }

  /// `.d[d…]`, at most 6 digits, the last not 0, ending the text.
  private static func isFraction(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
    let count = bytes.count
    guard count > start + 1, count - start - 1 <= 6, bytes[start] == UInt8(ascii: ".") else {
      return false
    }
    return bytes[count - 1] != UInt8(ascii: "0")
  }

  /// ``isExact(_:_:kind:)`` for text.
  public static func isExact(_ date: Date, _ text: String, kind: Attribute.DateKind?) -> Bool {
    var text = text
    return text.withUTF8 { isExact(date, $0, kind: kind) }
  }

  /// Whether `text` is in D2S's canonical form for `kind`.
  public static func isCanonical(_ text: String, kind: Attribute.DateKind?) -> Bool {
    var text = text
    return text.withUTF8 { isCanonical($0, kind: kind) }
  }

  /// The form of a stored value in a date column (canonical when D2S does not recognise it).
  public static func form(of stored: DatabaseValue) -> Form {
    switch stored {
    case .int: return .epochSeconds
    case .double: return .epochSecondsReal
    case .string(let text):
      let bytes = Array(text.utf8)
      if bytes.count == 10, ISODateText.parse(text) != nil { return .dateOnly }
      guard bytes.count >= 20, bytes[10] == UInt8(ascii: "T"), bytes.last == UInt8(ascii: "Z"),
        ISODateText.parse(text) != nil
      else { return .canonical }
      return .isoZulu(fractionDigits: bytes.count > 20 ? bytes.count - 21 : 0)
    default: return .canonical
    }
  }

  /// `date` as `form` stores it in a column of `kind`.
  public static func value(_ date: Date, in form: Form, kind: Attribute.DateKind?)
    -> DatabaseValue
  {
    switch form {
    case .canonical: return .date(date)
    case .dateOnly:
      // A day only while the new value is one; a time of day is never dropped.
      let seconds = date.timeIntervalSince1970
      guard seconds.truncatingRemainder(dividingBy: 86_400) == 0 else { return .date(date) }
      return .string(String(ISODateText.format(date).prefix(10)))
    case .epochSeconds:
      let seconds = date.timeIntervalSince1970
      return seconds == seconds.rounded(.down) && abs(seconds) < 1e15
        ? .int(Int(seconds)) : .double(seconds)
    case .epochSecondsReal: return .double(date.timeIntervalSince1970)
    case .isoZulu(let stored):
      // D2S's text, rounded to microseconds, in ISO form: at least the stored number of
      // fraction digits, more when the new value needs them.
      let canonical = DatabaseValue.formatDate(date, kind: .dateTime)
      var text = String(canonical.prefix(10)) + "T" + String(canonical.dropFirst(11).prefix(8))
      var fraction = canonical.count > 19 ? String(canonical.dropFirst(20)) : ""
      if fraction.count < stored {
        fraction += String(repeating: "0", count: stored - fraction.count)
      }
      if !fraction.isEmpty { text += "." + fraction }
      return .string(text + "Z")
    }
  }

  /// `text` when `attribute` is a PostgreSQL column with a zone (`timetz`, `timestamptz`) and
  /// `text` a time or date-time of its kind followed by a zone (`10:11:12+02`,
  /// `2024-03-05 10:11:12.5-05:30`, `…Z`, `… Europe/Paris`): kept as text, for PostgreSQL to
  /// read. Else nil.
  public static func zonedText(_ text: String, for attribute: Attribute) -> String? {
    let type = attribute.externalType.lowercased()
    guard type == "timetz" || type == "timestamptz" || type.contains("with time zone") else {
      return nil
    }
    // A zone by its name (`2024-03-05 10:11 Europe/Paris`), as PostgreSQL reads it.
    if let space = text.lastIndex(of: " "), text[space...].contains("/") || text.hasSuffix(" UTC"),
      TimeZone(identifier: String(text[text.index(after: space)...])) != nil
    {
      let body = String(text[..<space])
      let parsed =
        attribute.dateKind == .time
        ? DatabaseValue.parseDate(body, kind: .time) : ISODateText.parse(body)
      return parsed == nil ? nil : text
    }
    let body: Substring
    let zone: Substring
    if text.hasSuffix("Z") {
      (body, zone) = (text.dropLast(), "")
    } else if let sign = text.lastIndex(where: { $0 == "+" || $0 == "-" }),
      text.distance(from: text.startIndex, to: sign) >= 5
    {
      (body, zone) = (text[..<sign], text[text.index(after: sign)...])
    } else {
      return nil
    }
    let zoneParts = zone.split(separator: ":", omittingEmptySubsequences: false)
    guard zoneParts.count <= 2,
      zoneParts.allSatisfy({
        $0.isEmpty ? zone.isEmpty : ($0.count == 2 && $0.allSatisfy(\.isNumber))
      })
    else { return nil }
    let kind = attribute.dateKind
    let parsed =
      kind == .time
      ? DatabaseValue.parseDate(String(body), kind: .time) : ISODateText.parse(String(body))
    return parsed == nil ? nil : text
  }

  /// Parses a date of `kind` from bytes: a time of day for `.time`, else ISO 8601.
  public static func parse(_ bytes: UnsafeBufferPointer<UInt8>, kind: Attribute.DateKind?)
    -> Date?
  {
    if kind == .time {
      return DatabaseValue.parseDate(String(decoding: bytes, as: UTF8.self), kind: .time)
    }
    return ISODateText.parse(bytes: bytes)
  }
}
