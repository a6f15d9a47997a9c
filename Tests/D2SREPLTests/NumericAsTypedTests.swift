import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import Testing

@testable import D2SREPL

/// PostgreSQL stores a number as typed: a `numeric` of more than 38 digits whole, an
/// unconstrained `numeric`'s trailing zeros, a float's `-0` and `1e308`. Before, the first
/// was rounded to 38 digits and saved ("…12345.12340000…"), the zeros dropped, `-0` saved as
/// `0` and `1e308` refused.
@Suite(.enabled(if: TestServer.available.contains(.postgresql)))
struct NumericAsTypedTests {
  @Test func numbersAreStoredAsTyped() throws {
    let target = try PostgresSakila.database(
      from: """
        CREATE TABLE big (id serial PRIMARY KEY, v numeric(70,35), w numeric, f float8);
        INSERT INTO big (v, w, f) VALUES (1, 1, 1);
        """, prefix: "numeric_typed")
    let admin = try PostgreSQLAdaptor(url: target)
    let session = try FixtureSession.open(database: target, width: 120)
    let long = "12345678901234567890123456789012345.12345678901234567890123456789012345"
    _ = try session.run("edit Big 1")
    _ = try session.run("object.v = '\(long)'")
    _ = try session.run("object.w = '1.10'")
    _ = try session.run("object.f = '-0'")
    #expect(try session.run("save").contains("saved"))
    func stored(_ column: String) throws -> String {
      var text = ""
      try admin.query(SQLStatement(raw: "SELECT \(column)::text FROM big"), columns: [nil]) {
        text = $0[0].stringValue ?? ""
      }
      return text
    }
    #expect(try stored("v") == long)
    #expect(try stored("w") == "1.10")
    #expect(try stored("f") == "-0")
    let shown = try session.run("inspect Big 1")
    #expect(
      shown.split(separator: "\n").contains { $0.hasPrefix("F ") && $0.hasSuffix(" -0") },
      "\(shown)")
    _ = try session.run("edit Big 1")
    _ = try session.run("object.f = '1e308'")
    _ = try session.run("object.w = '0.1234567890123456789012345678901234567890'")
    #expect(try session.run("save").contains("saved"))
    #expect(try stored("f") == "1e+308")
    #expect(try stored("w") == "0.1234567890123456789012345678901234567890")
  }
}
