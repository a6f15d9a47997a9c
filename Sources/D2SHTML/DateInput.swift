/// Dates and date-times between the text D2S shows (`2006-02-15 05:03:42`) and the values of
/// a browser's `date` and `datetime-local` inputs (`2006-02-15T05:03:42`, seconds optional).
package enum DateInput {
  /// Whether `text` is a day a `date` input can hold (`2006-02-15`).
  package static func isDay(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    return bytes.count == 10 && digits(bytes, [0, 1, 2, 3, 5, 6, 8, 9])
      && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-")
  }

  /// `text` as a `datetime-local` input's value, when it is a plain date and time (no zone,
  /// no fraction of a second); nil otherwise.
  package static func inputForm(_ text: String) -> String? {
    guard let parts = split(text, separator: " ") else { return nil }
    return parts.day + "T" + parts.time
  }

  /// A posted date-time in the form D2S shows: `T` as a space, seconds added when the
  /// browser left them out. Other text is returned as it is.
  package static func storedForm(_ text: String) -> String {
    guard let parts = split(text, separator: "T") else { return text }
    return parts.day + " " + (parts.time.utf8.count == 5 ? parts.time + ":00" : parts.time)
  }

  private static func split(_ text: String, separator: Character) -> (day: String, time: String)? {
    let pieces = text.split(separator: separator, omittingEmptySubsequences: false)
    guard pieces.count == 2, isDay(String(pieces[0])) else { return nil }
    let time = Array(pieces[1].utf8)
    guard time.count == 5 || time.count == 8, digits(time, [0, 1, 3, 4]),
      time[2] == UInt8(ascii: ":"),
      time.count == 5 || (time[5] == UInt8(ascii: ":") && digits(time, [6, 7]))
    else { return nil }
    return (String(pieces[0]), String(pieces[1]))
  }

  private static func digits(_ bytes: [UInt8], _ positions: [Int]) -> Bool {
    positions.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }
  }
}
