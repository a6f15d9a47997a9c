import Foundation

/// ISO-8601 dates as D2S writes them (`2006-02-15 04:34:33`, UTC), parsed and printed by hand:
/// locale-independent and much cheaper than `DateFormatter`.
public enum ISODateText {
  /// Parses `YYYY-MM-DD`, `YYYY-MM-DD HH:MM[:SS[.fff]]` (space or `T`, optional `Z`) as UTC.
  public static func parse(_ text: String) -> Date? {
    var text = text
    return text.withUTF8 { parse(bytes: $0) }
  }

  /// ``parse(_:)`` over UTF-8 bytes (no copies: dates are read for every row of a page).
  public static func parse(bytes all: UnsafeBufferPointer<UInt8>) -> Date? {
    guard let base = all.baseAddress else { return nil }
    var count = all.count
    if count > 0, base[count - 1] == UInt8(ascii: "Z") { count -= 1 }
    // Digits read straight from the buffer: this runs for every date of every row.
    @inline(__always) func digits(_ start: Int, _ end: Int) -> Int? {
      guard end <= count else { return nil }
      var value = 0
      var index = start
      while index < end {
        let digit = Int(base[index]) &- 48
        guard digit >= 0, digit <= 9 else { return nil }
        value = value &* 10 &+ digit
        index += 1
      }
      return value
    }
    guard count >= 10, base[4] == UInt8(ascii: "-"), base[7] == UInt8(ascii: "-"),
      let year = digits(0, 4), let month = digits(5, 7), let day = digits(8, 10),
      month >= 1, month <= 12, day >= 1, day <= daysIn(month: month, year: year)
    else { return nil }
    var seconds = 0.0
    if count > 10 {
      guard base[10] == UInt8(ascii: " ") || base[10] == UInt8(ascii: "T"), count >= 16,
        base[13] == UInt8(ascii: ":"), let hour = digits(11, 13), let minute = digits(14, 16),
        hour < 24, minute < 60
      else { return nil }
      var whole = hour * 3600 + minute * 60
      if count > 16 {
        guard count >= 19, base[16] == UInt8(ascii: ":"), let second = digits(17, 19), second < 60
        else { return nil }
        whole += second
        if count > 19 {
          guard base[19] == UInt8(ascii: "."), count > 20, count - 20 <= 9,
            let fraction = digits(20, count)
          else { return nil }
          var scale = 1.0
          for _ in 20..<count { scale *= 10 }
          seconds = Double(fraction) / scale
        }
      }
      seconds += Double(whole)
    }
    let days = daysFromCivil(year: year, month: month, day: day)
    return Date(timeIntervalSince1970: Double(days) * 86_400 + seconds)
  }

  /// `YYYY-MM-DD HH:MM:SS` in UTC (fractions of a second are dropped).
  public static func format(_ date: Date) -> String {
    let total = Int(date.timeIntervalSince1970.rounded(.down))
    let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
    let secondsOfDay = total - days * 86_400
    let (y, m, d) = civilFromDays(days)
    guard (0...9999).contains(y) else {
      return "\(y)-\(m)-\(d) \(secondsOfDay / 3600):\(secondsOfDay / 60 % 60):\(secondsOfDay % 60)"
    }
    return String(unsafeUninitializedCapacity: 19) { buffer in
      func two(_ value: Int, at offset: Int) {
        buffer[offset] = UInt8(truncatingIfNeeded: 48 + value / 10)
        buffer[offset + 1] = UInt8(truncatingIfNeeded: 48 + value % 10)
      }
      two(y / 100, at: 0)
      two(y % 100, at: 2)
      buffer[4] = UInt8(ascii: "-")
      two(m, at: 5)
      buffer[7] = UInt8(ascii: "-")
      two(d, at: 8)
      buffer[10] = UInt8(ascii: " ")
      two(secondsOfDay / 3600, at: 11)
      buffer[13] = UInt8(ascii: ":")
      two(secondsOfDay / 60 % 60, at: 14)
      buffer[16] = UInt8(ascii: ":")
      two(secondsOfDay % 60, at: 17)
      return 19
    }
  }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  // Howard Hinnant's days-from-civil algorithm (proleptic Gregorian calendar).
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = (month + 9) % 12
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }

  static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
  }
}
