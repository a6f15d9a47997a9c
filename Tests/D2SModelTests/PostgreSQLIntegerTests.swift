import Testing

@testable import PostgreSQLAdaptor

/// An integer read from a PostgreSQL row's bytes (`PostgreSQLTypes.integer`) is what `Int(_:)`
/// reads from its text, for every form PostgreSQL writes; anything else is left to `Int(_:)`.
@Suite struct PostgreSQLIntegerTests {
  func integer(_ text: String) -> Int? {
    var text = text
    return text.withUTF8 { PostgreSQLTypes.integer(UnsafeRawBufferPointer($0)) }
  }

  @Test func whatPostgreSQLWritesIsReadAsIntReadsIt() {
    for text in [
      "0", "-0", "7", "-7", "2006", "123456789012345678", "-123456789012345678", "007",
    ] {
      #expect(integer(text) == Int(text), "\(text)")
    }
  }

  @Test func anythingElseIsLeftToInt() {
    for text in [
      "", "-", "+1", " 1", "1 ", "1e3", "1.5", "--1", "1-", "１", "9223372036854775807",
      "-9223372036854775808", "1234567890123456789", "99999999999999999999",
    ] {
      #expect(integer(text) == nil, "\(text)")
    }
  }
}
