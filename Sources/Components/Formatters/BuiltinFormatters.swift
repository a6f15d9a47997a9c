import D2SModel
import EnvKeys
import Foundation

/// The formatters of SPEC §5.
enum BuiltinFormatters {
  static let all: [(String, any ValueFormatter)] = [
    ("integer", IntegerFormatter()), ("decimal", DecimalFormatter(prefix: "", name: "decimal")),
    ("currency", DecimalFormatter(prefix: "$", name: "currency")), ("percent", PercentFormatter()),
    ("date", DateFormatterKind(kind: .date)), ("time", DateFormatterKind(kind: .time)),
    ("dateTime", DateFormatterKind(kind: .dateTime)),
    ("minutesDuration", MinutesDurationFormatter()),
    ("daysDuration", DaysDurationFormatter()),
  ]

  /// The POSIX locale (a dot for the decimal separator), shared.
  static var posix: Locale { DecimalText.posix }

  /// A number value as a decimal; nil for anything else (text in a number column, an
  /// infinite double), which the formatters show as stored.
  static func decimal(_ value: DatabaseValue) -> Decimal? {
    switch value {
    case .decimal(let d): d
    case .int(let i): Decimal(i)
    case .double(let d) where d.isFinite: DecimalText.decimal(from: d)
    default: nil
    }
  }

  /// A value no formatter represents exactly, as stored: text quoted, so that `'12abc'` in
  /// an INTEGER column is not read as a number.
  static func asStored(_ value: DatabaseValue) -> String {
    value.storedText(quotingText: true)
  }

  /// Whether `d` has no fraction.
  static func isWhole(_ d: Decimal) -> Bool {
    !DecimalText.format(d).utf8.contains(UInt8(ascii: "."))
  }

  /// An integer value, or a decimal or double that is a whole number.
  static func wholeNumber(_ value: DatabaseValue) -> Int? {
    if case .int(let i) = value { return i }
    guard let d = decimal(value), isWhole(d), abs(d) < Decimal(Int.max) else {
      return nil
    }
    return NSDecimalNumber(decimal: d).intValue
  }

  /// `d` in plain notation with at least `scale` fraction digits.
  static func plain(_ d: Decimal, scale: Int?) -> String {
    padded(DecimalText.format(d), scale: scale)
  }

  /// `text`, a number in plain notation, with at least `scale` fraction digits.
  static func padded(_ text: String, scale: Int?) -> String {
    guard let scale, scale > 0 else { return text }
    let utf8 = text.utf8
    var text = text
    let fraction: Int
    if let point = utf8.firstIndex(of: UInt8(ascii: ".")) {
      fraction = utf8.distance(from: point, to: utf8.endIndex) - 1
    } else {
      text += "."
      fraction = 0
    }
    if fraction < scale { text += String(repeating: "0", count: scale - fraction) }
    return text
  }

  /// A number typed by a person: spaces and grouping commas dropped, an exponent read
  /// (``TypedNumber/cleaned(_:)``).
  static func number(_ text: String) -> Decimal? {
    TypedNumber.cleaned(text).flatMap { Decimal(string: $0, locale: posix) }
  }

  /// The parsed number as the attribute's type.
  static func typed(_ d: Decimal, for attribute: Attribute?) -> DatabaseValue? {
    switch attribute?.valueType {
    case .int?:
      let i = NSDecimalNumber(decimal: d).intValue
      return Decimal(i) == d ? .int(i) : nil
    case .double?: return .double(NSDecimalNumber(decimal: d).doubleValue)
    default: return .decimal(d)
    }
  }
}

struct IntegerFormatter: ValueFormatter {
  var example: DatabaseValue? { .int(1234) }

  func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
    switch value {
    case .int(let i): return String(i)
    case .decimal(let d) where BuiltinFormatters.isWhole(d):
      return BuiltinFormatters.plain(d, scale: nil)
    default: return BuiltinFormatters.asStored(value)
    }
  }
  func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
    guard let d = BuiltinFormatters.number(text), Decimal(NSDecimalNumber(decimal: d).intValue) == d
    else {
      throw FormatterError(
        formatter: "integer", text: text, accepted: "a whole number like 16044 or 16,044")
    }
    if let attribute, attribute.valueType != .int,
      let value = BuiltinFormatters.typed(d, for: attribute)
    {
      return value
    }
    return .int(NSDecimalNumber(decimal: d).intValue)
  }
}

struct DecimalFormatter: ValueFormatter {
  var example: DatabaseValue? { .decimal(Decimal(string: "1234.5") ?? 0) }

  let prefix: String
  let name: String
  func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
    guard let d = BuiltinFormatters.decimal(value) else { return BuiltinFormatters.asStored(value) }
    let scale = attribute?.scale ?? (prefix.isEmpty ? nil : 2)
    var text = DecimalText.format(d)
    // A double's -0, which PostgreSQL keeps and shows (`Decimal` has no negative zero).
    let negativeZero = if case .double(let v) = value { v == 0 && v.sign == .minus } else { false }
    let negative = text.utf8.first == UInt8(ascii: "-") || negativeZero
    if text.utf8.first == UInt8(ascii: "-") { text.removeFirst() }
    return (negative ? "-" : "") + prefix + BuiltinFormatters.padded(text, scale: scale)
  }
  func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
    var body = text.trimmingCharacters(in: .whitespaces)
    var negative = false
    if body.hasPrefix("-") {
      negative = true
      body.removeFirst()
    }
    if !prefix.isEmpty, body.hasPrefix(prefix) { body.removeFirst(prefix.count) }
    guard !body.hasPrefix("-"),
      let value = TypedNumber.value(body, negative: negative, for: attribute)
    else {
      throw FormatterError(
        formatter: name, text: text,
        accepted: prefix.isEmpty ? "a number like 20.99" : "an amount like $20.99 or 20.99")
    }
    return value
  }
}

struct PercentFormatter: ValueFormatter {
  var example: DatabaseValue? { .double(0.25) }

  func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
    guard let d = BuiltinFormatters.decimal(value) else { return BuiltinFormatters.asStored(value) }
    return BuiltinFormatters.plain(d * 100, scale: nil) + "%"
  }
  func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
    let body = text.trimmingCharacters(in: .whitespaces)
    let isPercent = body.hasSuffix("%")
    guard let d = BuiltinFormatters.number(isPercent ? String(body.dropLast()) : body),
      let value = BuiltinFormatters.typed(isPercent ? d / 100 : d, for: attribute)
    else { throw FormatterError(formatter: "percent", text: text, accepted: "25% or 0.25") }
    return value
  }
}

struct DateFormatterKind: ValueFormatter {
  var example: DatabaseValue? { .date(Date(timeIntervalSince1970: 1_136_214_245)) }

  let kind: Attribute.DateKind
  func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
    // A date the column stores in another form (text, an epoch number) is shown as stored.
    guard case .date(let date) = value else {
      if case .string(let text) = value { return text }
      return BuiltinFormatters.asStored(value)
    }
    return DatabaseValue.formatDate(date, kind: kind)
  }
  func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
    let body = text.trimmingCharacters(in: .whitespaces)
    let date = kind == .time ? DatabaseValue.parseDate(body, kind: .time) : ISODateText.parse(body)
    if date == nil, let attribute, let zoned = DateForms.zonedText(body, for: attribute) {
      return .string(zoned)
    }
    // PostgreSQL's `infinity`, `-infinity` and BC dates, as pages show them.
    if date == nil, let attribute, let special = DatabaseValue.special(body, for: attribute) {
      return special
    }
    guard let date, kind != .date || body.count == 10 else {
      let forms = [
        "date": "2006-02-15", "time": "04:34 or 04:34:33", "dateTime": "2006-02-15 04:34:33",
      ]
      throw FormatterError(
        formatter: kind.rawValue, text: text, accepted: forms[kind.rawValue] ?? "an ISO date")
    }
    return .date(date)
  }
}

struct MinutesDurationFormatter: ValueFormatter {
  var example: DatabaseValue? { .int(95) }

  func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
    guard
      let minutes = BuiltinFormatters.wholeNumber(value)
    else { return BuiltinFormatters.asStored(value) }
    return ShortText.make { text in
      if minutes >= 60 {
        text.append(minutes / 60)
        text.append("h ")
        text.append(minutes % 60)
      } else {
        text.append(minutes)
      }
      text.append("m")
    }
  }
  func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
    let body = text.trimmingCharacters(in: .whitespaces).lowercased()
    if let plain = Int(body) { return .int(plain) }
    let failure = FormatterError(formatter: "minutesDuration", text: text, accepted: "86 or 1h 26m")
    var total = 0
    var matched = false
    for part in body.split(separator: " ") {
      let minutes: Int
      if part.hasSuffix("h"), let h = Int(part.dropLast()) {
        let (product, overflow) = h.multipliedReportingOverflow(by: 60)
        guard !overflow else { throw failure }  // a number too large for minutes, not a trap
        minutes = product
      } else if part.hasSuffix("m"), let m = Int(part.dropLast()) {
        minutes = m
      } else {
        matched = false
        break
      }
      let (sum, overflow) = total.addingReportingOverflow(minutes)
      guard !overflow else { throw failure }
      total = sum
      matched = true
    }
    guard matched else { throw failure }
    return .int(total)
  }
}

struct DaysDurationFormatter: ValueFormatter {
  var example: DatabaseValue? { .int(3) }

  func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
    guard let days = BuiltinFormatters.wholeNumber(value)
    else { return BuiltinFormatters.asStored(value) }
    return ShortText.make { text in
      text.append(days)
      text.append(days == 1 ? " day" : " days")
    }
  }
  func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
    var body = text.trimmingCharacters(in: .whitespaces).lowercased()
    for suffix in [" days", " day"] where body.hasSuffix(suffix) { body.removeLast(suffix.count) }
    guard let days = Int(body) else {
      throw FormatterError(formatter: "daysDuration", text: text, accepted: "6 or 6 days")
    }
    return .int(days)
  }
}
