import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SREPL

/// Only a surrogate key is renamed `id`; natural keys, and the foreign keys that name them,
/// keep their names (`Fixtures/natural-keys.sql`), on SQLite and PostgreSQL.
@Suite struct NaturalKeyTests {
  func session(on server: TestServer) throws -> REPLSession {
    try FixtureSession.open("natural-keys", on: server)
  }

  @Test(arguments: TestServer.available)
  func naturalKeysKeepTheirNames(server: TestServer) throws {
    let session = try session(on: server)
    let model = try session.database.model
    func names(_ entity: String) -> [String] {
      (model.entity(named: entity)?.attributes.map(\.name) ?? [])
        + (model.entity(named: entity)?.relationships.map(\.name) ?? [])
    }
    #expect(names("Product") == ["sku", "name", "orderItems"])
    #expect(names("Tag") == ["tag"])
    #expect(names("Invoice") == ["invoiceNo", "customer", "orderItems"])
    #expect(names("OrderItem") == ["id", "productSku", "invoiceNo", "qty", "product", "invoice"])
    #expect(names("Employees") == ["id", "fullName"])
    #expect(try session.run("list Tag where tag = 'sale'").contains("sale"))
    #expect(
      try session.run("list OrderItem where productSku = 'P-200'").withoutKeyHint.hasSuffix(
        "1 OrderItem"))
    #expect(try session.run("inspect Product P-100").contains("Order Items  1 (follow orderItems)"))
    #expect(try session.run("inspect OrderItem 1").contains("Product  Lantern"))
  }
}
