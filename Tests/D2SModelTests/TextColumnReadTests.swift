import D2SModel
import EnvKeys
import Foundation
import Testing

/// A SQLite TEXT column is read row after row byte for byte: no row gets another row's value,
/// whatever their order, their lengths, bytes that are not UTF-8 (kept as bytes, never
/// repaired), texts equal as `String`s but not in their bytes, or how many of them differ.
@Suite struct TextColumnReadTests {
  /// A stored text: SQL for it, and the value it must read as.
  private struct Stored {
    let sql: String
    let value: DatabaseValue

    init(_ text: String) {
      sql = "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
      value = .string(text)
    }

    init(hex: String, bytes: [UInt8]) {
      sql = "CAST(X'\(hex)' AS TEXT)"
      value = .textBytes(Data(bytes))
    }

    init(null: Void) {
      sql = "NULL"
      value = .null
    }
  }

  @Test func eachRowGetsItsOwnTextAmongRepeatedAndManyValues() throws {
    var stored: [Stored] = []
    // Few values, repeated out of order: neighbours one byte apart, one the other's prefix,
    // the empty text, NULL, bytes that are not UTF-8 and the text they would be repaired
    // into, long texts that differ in their last byte.
    let few: [Stored] = [
      Stored("PG"), Stored("PG-13"), Stored("G"), Stored("PH"), Stored(""), Stored("PG"),
      Stored(null: ()), Stored(hex: "61C0", bytes: [0x61, 0xC0]), Stored("a\u{FFFD}"),
      Stored("a long title, past fifteen bytes A"), Stored("a long title, past fifteen bytes B"),
      Stored("R"), Stored("NC-17"), Stored("G"), Stored("é"), Stored("e\u{301}"), Stored("PG"),
      Stored("a long title, past fifteen bytes A"), Stored(hex: "61C0", bytes: [0x61, 0xC0]),
      Stored("G "), Stored("g"), Stored("PG-13"), Stored(""), Stored("R"),
    ]
    stored += few
    // Then many values that never repeat, then the few again.
    stored += (0..<40).map { Stored("title \($0)") }
    stored += few.reversed()
    var script = "CREATE TABLE label (id INTEGER PRIMARY KEY, name TEXT, code VARCHAR(20));\n"
    for (index, value) in stored.enumerated() {
      // The second column holds the same values in another order.
      let other = stored[(index * 7) % stored.count]
      script += "INSERT INTO label VALUES (\(index + 1), \(value.sql), \(other.sql));\n"
    }
    let byKey = try rowsByID(script: script, entity: "Label")
    #expect(byKey.count == stored.count)
    for (index, row) in byKey.enumerated() {
      let name = Self.bytes(row.databaseValue(at: 1))
      #expect(name == Self.bytes(stored[index].value), "row \(index + 1), name")
      let other = stored[(index * 7) % stored.count].value
      #expect(Self.bytes(row.databaseValue(at: 2)) == Self.bytes(other), "row \(index + 1), code")
    }
  }

  /// A value's case and its bytes: two texts equal as `String`s (`é` written as one scalar or
  /// two) differ here.
  private static func bytes(_ value: DatabaseValue) -> String {
    switch value {
    case .null: "NULL"
    case .string(let text): "text " + text.utf8.map { String($0, radix: 16) }.joined(separator: " ")
    case .textBytes(let data): "bytes " + data.map { String($0, radix: 16) }.joined(separator: " ")
    default: "other \(value)"
    }
  }
}
