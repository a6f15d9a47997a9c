import Testing

@testable import Components

/// The durations' texts written by ``ShortText`` are those string interpolation writes.
@Suite struct ShortTextTests {
  let registry = FormatterRegistry()
  let numbers = [
    0, 1, 9, 10, 59, 60, 61, 86, 99, 100, 119, 120, 185, 999, 1_000, 3_599, 3_600, 86_399,
    -1, -9, -10, -59, -60, -61, -86, -1_000, Int.max, Int.min, Int.max - 1, Int.min + 1,
    1_000_000_000_000_000_000, -999_999_999_999_999_999,
  ]

  @Test func minutesAsInterpolated() throws {
    let formatter = try #require(registry.formatter(named: "minutesDuration"))
    for minutes in numbers {
      let expected = minutes >= 60 ? "\(minutes / 60)h \(minutes % 60)m" : "\(minutes)m"
      #expect(formatter.format(.int(minutes), for: nil) == expected)
    }
  }

  @Test func daysAsInterpolated() throws {
    let formatter = try #require(registry.formatter(named: "daysDuration"))
    for days in numbers {
      #expect(formatter.format(.int(days), for: nil) == (days == 1 ? "1 day" : "\(days) days"))
    }
  }

  @Test func integersAsStringWritesThem() {
    for number in numbers + Array(-1_100...1_100) {
      #expect(ShortText.make { $0.append(number) } == String(number))
    }
  }

  @Test func textBeyondItsCapacityIsCutNotWrittenPast() {
    let text = ShortText.make { text in
      for _ in 0..<5 { text.append(Int.min) }
    }
    #expect(text.utf8.count == ShortText.capacity)
    #expect(text.hasPrefix(String(Int.min) + String(Int.min)))
  }
}
