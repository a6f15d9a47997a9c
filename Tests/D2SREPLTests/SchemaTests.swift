import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// PostgreSQL: every schema the user can read, not only the search path; the search path's
/// first schema keeps a clashing name, the other takes its schema as a prefix.
@Suite(.enabled(if: TestServer.available.contains(.postgresql))) struct SchemaTests {
  static let sql = """
    CREATE SCHEMA billing;
    CREATE TABLE invoices (id serial PRIMARY KEY, number text NOT NULL);
    CREATE TABLE billing.invoices (id serial PRIMARY KEY, reference text NOT NULL);
    CREATE TABLE billing.payments (
      id serial PRIMARY KEY, invoice_id int REFERENCES billing.invoices (id), amount numeric(8,2));
    INSERT INTO invoices (number) VALUES ('PUB-1');
    INSERT INTO billing.invoices (reference) VALUES ('BILL-1');
    INSERT INTO billing.payments (invoice_id, amount) VALUES (1, 12.50);
    """

  @Test func everyReadableSchemaIsReached() throws {
    let session = try REPLSession(width: 100)
    _ = try session.run("open \(try PostgresSakila.database(from: Self.sql, prefix: "schemas"))")
    let entities = try session.run("entities")
    #expect(entities.contains("\n  Invoices\n"), "the search path's table keeps its name")
    #expect(entities.contains("\n  BillingInvoices  billing.invoices\n"))
    #expect(entities.hasSuffix("\n  Payments  billing.payments"))
    #expect(try session.run("list Invoices").contains("PUB-1"))
    #expect(try session.run("list BillingInvoices").contains("BILL-1"))
    let payment = try session.run("inspect Payments 1")
    #expect(payment.contains("Invoice  BILL-1") && payment.contains("Amount   12.50"))
    _ = try session.run("edit Payments 1")
    _ = try session.run("object.amount = 13")
    #expect(try session.run("save") == "saved Payments 1")
  }
}
