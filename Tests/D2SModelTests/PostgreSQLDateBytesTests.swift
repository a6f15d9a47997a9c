import D2SModel
import Testing

@testable import PostgreSQLAdaptor

/// A date read from a PostgreSQL row's bytes is what reading its text gives: the canonical
/// forms as dates, every other form (a zone, `T`, a trailing zero, an impossible day, `infinity`,
/// a BC year) as the text it is, for each kind of date column.
@Suite struct PostgreSQLDateBytesTests {
  static let texts = [
    "2006-02-15", "2006-02-15 05:03:42", "2006-02-15 05:03:42.5", "2006-02-15 05:03:42.50",
    "2006-02-15 05:03:42.123456", "2006-02-15 05:03:42.1234567", "2006-02-15T05:03:42",
    "2006-02-15 05:03:42+01", "2006-02-30 05:03:42", "2006-02-30", "05:03:42", "05:03:42.25",
    "24:00:00", "05:03", "infinity", "-infinity", "0044-03-15 BC", "9999-12-31 23:59:59.999999",
    "", "2006-02-15 05:03:4x", "2006-02-15\u{0}05:03:42",
  ]

  @Test func bytesReadAsTheirTextReads() {
    for kind in [nil, .date, .dateTime, .time] as [Attribute.DateKind?] {
      let type = PostgreSQLTypes.ColumnType(
        Attribute(
          name: "at", columnName: "at", externalType: "timestamp", valueType: .date,
          dateKind: kind, allowsNull: true))
      for text in Self.texts {
        let fromBytes = Array(text.utf8).withUnsafeBytes { PostgreSQLTypes.decode($0, as: type) }
        let fromText = PostgreSQLTypes.decode(text, as: type)
        #expect(fromBytes == fromText, "\(text.debugDescription) \(String(describing: kind))")
      }
    }
  }
}
