import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor
import Testing

@Suite struct CatalogEdgeTests {
  @Test func openingAMissingSQLiteFileIsAnError() {
    let error = #expect(throws: DatabaseError.self) {
      try SQLiteAdaptor(path: "/nonexistent/d2s/nothing.db")
    }
    #expect(error?.code == .connection)
    #expect(FileManager.default.fileExists(atPath: "/nonexistent/d2s/nothing.db") == false)
  }

  /// Foreign keys are read only for tables whose SQL says REFERENCES: in every case and
  /// place it may be written, and after a column added with one.
  @Test func foreignKeysWrittenAnyWayInSQLite() throws {
    let adaptor = try SQLiteAdaptor(path: "sqlite::memory:")
    try adaptor.executeScript(
      """
      CREATE TABLE parent (id INTEGER PRIMARY KEY, name TEXT);
      CREATE TABLE lower_child (id INTEGER PRIMARY KEY, parent_id INTEGER references parent(id));
      CREATE TABLE mixed_child (id INTEGER PRIMARY KEY, parent_id INTEGER,
        foreign key (parent_id) ReFeReNcEs "parent" ("id"));
      CREATE TABLE later_child (id INTEGER PRIMARY KEY);
      ALTER TABLE later_child ADD COLUMN parent_id INTEGER REFERENCES parent (id);
      CREATE TABLE "references" (id INTEGER PRIMARY KEY, note TEXT DEFAULT 'no references here');
      """)
    let model = try Database(adaptor: adaptor).model
    for child in ["LowerChild", "MixedChild", "LaterChild"] {
      #expect(model.entity(named: child)?.relationship(named: "parent") != nil, "\(child)")
    }
    #expect(model.entity(named: "Parent")?.relationships.filter(\.isToMany).count == 3)
    #expect(model.entity(named: "References")?.relationships.isEmpty == true)
  }

  @Test func compositeForeignKeysInSQLite() throws {
    let adaptor = try SQLiteAdaptor(path: "sqlite::memory:")
    try adaptor.executeScript(
      """
      CREATE TABLE "order" (region TEXT NOT NULL, number INTEGER NOT NULL, PRIMARY KEY (region, number));
      CREATE TABLE order_line (id INTEGER PRIMARY KEY, region TEXT NOT NULL, order_number INTEGER NOT NULL, qty INTEGER,
        FOREIGN KEY (region, order_number) REFERENCES "order" (region, number));
      INSERT INTO "order" VALUES ('eu', 1); INSERT INTO order_line VALUES (1, 'eu', 1, 5);
      """)
    let database = try Database(adaptor: adaptor)
    let line = try #require(database.model.entity(named: "OrderLine"))
    #expect(
      line.relationship(named: "order")?.joins == [
        .init(source: "region", destination: "region"),
        .init(source: "orderNumber", destination: "number"),
      ])
    #expect(
      database.model.entity(named: "Order")?.relationship(named: "orderLines")?.isToMany == true)
    let fetched = try #require(try database.fetchObject("OrderLine", primaryKey: [.int(1)]))
    #expect(fetched.value(forKeyPath: "order.number") as? Int == 1)
    let order = try #require(
      try database.fetchObject("Order", primaryKey: [.string("eu"), .int(1)]))
    #expect(try database.countToMany("orderLines", of: order) == 1)
  }

  @Test(.enabled(if: TestDatabase.postgresURL != nil, "set D2S_TEST_POSTGRES_URL (make test does)"))
  func partitionedTablesButNotPartitions() throws {
    let url = try PostgresSakila.copy()
    let adaptor = try PostgreSQLAdaptor(url: url)
    try adaptor.executeScript(
      """
      CREATE TABLE measurement (id int NOT NULL, taken date NOT NULL, value numeric(6,2), PRIMARY KEY (id, taken))
        PARTITION BY RANGE (taken);
      CREATE TABLE measurement_2024 PARTITION OF measurement FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
      INSERT INTO measurement VALUES (1, '2024-05-01', 12.50);
      """)
    let database = try Database(adaptor: adaptor)
    #expect(database.model.entity(named: "Measurement") != nil)
    #expect(database.model.entity(named: "Measurement2024") == nil)
    let row = try database.fetch(FetchSpecification(entityName: "Measurement")).first
    #expect(row?.value(forKey: "value") as? Decimal == Decimal(string: "12.5"))
  }
}
