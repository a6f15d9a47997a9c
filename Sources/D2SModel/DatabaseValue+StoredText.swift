import EnvKeys
import Foundation

extension DatabaseValue {
  /// The value as a database shell shows it: numbers as SQLite prints them (`-Inf` for an
  /// infinite REAL), text as it is (quoted when `quotingText`: text in a column of another
  /// type), blobs as their size and a hex prefix (never their bytes), arrays in PostgreSQL's
  /// form with `NULL` elements, dates with their fraction of a second, NULL as nothing.
  public func storedText(quotingText: Bool = false) -> String {
    switch self {
    case .null: ""
    case .int(let i): String(i)
    case .double(let d): DatabaseValue.shellText(d)
    case .decimal(let d): DecimalText.format(d)
    case .string(let s): quotingText ? Literal.quote(s) : s
    case .bool(let b): b ? "true" : "false"
    case .date(let d): DatabaseValue.formatDate(d, kind: .dateTime)
    case .data(let data): DatabaseValue.blobText(data)
    case .array(let items): DatabaseValue.arrayText(items)
    case .verbatim(let s): s
    case .textBytes(let bytes): DatabaseValue.escapedText(bytes)
    case .list(let items):
      "(" + items.map { $0.storedText(quotingText: true) }.joined(separator: ", ") + ")"
    }
  }

  /// A double as `sqlite3` prints it: `2.5`, `-Inf`, `Inf`.
  static func shellText(_ d: Double) -> String {
    if d.isNaN { return "NaN" }
    if d.isInfinite { return d < 0 ? "-Inf" : "Inf" }
    return String(d)
  }

  /// How many bytes of a blob its text shows in hex.
  static let blobPrefixBytes = 8

  /// `<3 bytes: 00ff41>`, `<1024 bytes: 0001020304050607…>`.
  static func blobText(_ data: Data) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var hex: [UInt8] = []
    hex.reserveCapacity(blobPrefixBytes * 2)
    for byte in data.prefix(blobPrefixBytes) {
      hex.append(digits[Int(byte >> 4)])
      hex.append(digits[Int(byte & 0x0F)])
    }
    let more = data.count > blobPrefixBytes ? "…" : ""
    let unit = data.count == 1 ? "byte" : "bytes"
    if data.isEmpty { return "<0 bytes>" }
    return "<\(data.count) \(unit): \(String(decoding: hex, as: UTF8.self))\(more)>"
  }

  /// `{7,8}`, `{a,NULL,"NULL","b c"}`: PostgreSQL's array text, as `psql` shows it.
  public static func arrayText(_ items: [String?]) -> String {
    "{" + items.map { item in item.map(arrayElementText) ?? "NULL" }.joined(separator: ",") + "}"
  }

  /// An element quoted as PostgreSQL quotes it: when empty, `NULL` in any case, or holding a
  /// delimiter, brace, quote, backslash or space.
  private static func arrayElementText(_ item: String) -> String {
    let needsQuotes =
      item.isEmpty || item.lowercased() == "null"
      || item.unicodeScalars.contains { " ,{}\"\\\t\n\r\u{0B}\u{0C}".unicodeScalars.contains($0) }
    guard needsQuotes else { return item }
    var out = "\""
    for c in item.unicodeScalars {
      if c == "\"" || c == "\\" { out += "\\" }
      out.unicodeScalars.append(c)
    }
    return out + "\""
  }
}

extension DatabaseValue {
  /// The elements of a one-dimensional array in PostgreSQL's text (`{7,8}`,
  /// `{a,NULL,"NULL","b c"}`), as ``arrayText(_:)`` writes it; nil when `text` is not one.
  /// Unquoted `NULL` (in any case) is a NULL element; a quoted one is the word.
  public static func parseArrayText(_ text: String) -> [String?]? {
    let scalars = Array(text.unicodeScalars)
    var start = 0
    var end = scalars.count
    // PostgreSQL's whitespace (isspace in the C locale), the only kind it skips and quotes.
    func isSpace(_ scalar: Unicode.Scalar) -> Bool {
      " \t\n\r\u{0B}\u{0C}".unicodeScalars.contains(scalar)
    }
    while start < end, isSpace(scalars[start]) { start += 1 }
    while end > start, isSpace(scalars[end - 1]) { end -= 1 }
    guard end - start >= 2, scalars[start] == "{", scalars[end - 1] == "}" else { return nil }
    var items: [String?] = []
    var index = start + 1
    let last = end - 1
    func skipSpaces() { while index < last, isSpace(scalars[index]) { index += 1 } }
    skipSpaces()
    if index == last { return [] }
    while true {
      skipSpaces()
      var item = String.UnicodeScalarView()
      if index < last, scalars[index] == "\"" {
        index += 1
        while true {
          guard index < last else { return nil }
          let scalar = scalars[index]
          index += 1
          if scalar == "\"" { break }
          if scalar == "\\" {
            guard index < last else { return nil }
            item.append(scalars[index])
            index += 1
          } else {
            item.append(scalar)
          }
        }
        items.append(String(item))
        skipSpaces()
      } else {
        while index < last, scalars[index] != ",", scalars[index] != "\"" {
          let scalar = scalars[index]
          if scalar == "{" || scalar == "}" || scalar == "\\" { return nil }
          item.append(scalar)
          index += 1
        }
        while let tail = item.last, isSpace(tail) { item.removeLast() }
        let word = String(item)
        guard !word.isEmpty else { return nil }
        items.append(word.lowercased() == "null" ? nil : word)
      }
      if index == last { return items }
      guard scalars[index] == "," else { return nil }
      index += 1
    }
  }
}
