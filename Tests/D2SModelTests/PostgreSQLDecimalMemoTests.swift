import D2SModel
import EnvKeys
import Testing

@testable import PostgreSQLAdaptor

/// A numeric column's values read through the memo of its last texts are those read anew:
/// texts that share their first bytes, differ only past the eighth, or only in length (a
/// trailing NUL), more distinct texts than the memo keeps, and texts too long to keep.
@Suite struct PostgreSQLDecimalMemoTests {
  static let texts = [
    "0.99", "2.99", "0.99", "4.99", "1.5", "1.50", "1.5\u{0}", "1.50", "12345678.91", "12345678.92",
    "12345678.91", "1234567890123456", "1234567890123457", "12345678901234567", "NaN", "-0.00",
    "0.99", "2.99", "4.99", "9.99", "0.99", "12345678901234567", "", "1.5",
  ]

  @Test func theMemoGivesWhatReadingAnewGives() {
    for scale in [nil, 0, 2] as [Int?] { check(scale: scale) }
  }

  private func check(scale: Int?) {
    var memo = PostgreSQLTypes.DecimalMemo()
    var made = 0
    for text in Self.texts + Self.texts {
      Array(text.utf8).withUnsafeBytes { bytes in
        let type = PostgreSQLTypes.ColumnType(
          Attribute(
            name: "rate", columnName: "rate", externalType: "numeric", valueType: .decimal,
            allowsNull: true, scale: scale))
        let anew = PostgreSQLTypes.decode(bytes, as: type)
        let kept = memo.value(bytes) {
          made += 1
          return PostgreSQLTypes.decode($0, as: type)
        }
        #expect(kept == anew, "\(text.debugDescription) with scale \(String(describing: scale))")
      }
    }
    // The repeated texts came from the memo.
    #expect(made < 2 * Self.texts.count)
  }
}
