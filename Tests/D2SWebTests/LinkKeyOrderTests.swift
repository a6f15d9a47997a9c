import D2SModel
import D2STesting
import Foundation
import Testing

@testable import D2SWeb

/// A link table whose foreign key names the destination's key columns in another order than
/// the destination's primary key (`(part_code, part_maker) REFERENCES part (code, maker)`
/// where the key is `(maker, code)`): links are read, added and removed by the key as the
/// destination declares it, and the stored bytes are the right columns'.
@Suite struct LinkKeyOrderTests {
  static let sqlite = """
    CREATE TABLE part (maker TEXT NOT NULL, code INTEGER NOT NULL, name TEXT,
      PRIMARY KEY (maker, code));
    INSERT INTO part VALUES ('acme', 1, 'bolt'), ('acme', 2, 'nut'), ('zeta', 1, 'gear');
    CREATE TABLE kit (id INTEGER PRIMARY KEY, name TEXT);
    INSERT INTO kit VALUES (1, 'starter');
    CREATE TABLE kit_part (kit_id INTEGER NOT NULL REFERENCES kit (id),
      part_code INTEGER NOT NULL, part_maker TEXT NOT NULL,
      PRIMARY KEY (kit_id, part_code, part_maker),
      FOREIGN KEY (part_code, part_maker) REFERENCES part (code, maker));
    INSERT INTO kit_part VALUES (1, 1, 'zeta');
    """

  static let postgresql = """
    CREATE TABLE part (maker text NOT NULL, code integer NOT NULL, name text,
      PRIMARY KEY (maker, code), UNIQUE (code, maker));
    INSERT INTO part VALUES ('acme', 1, 'bolt'), ('acme', 2, 'nut'), ('zeta', 1, 'gear');
    CREATE TABLE kit (id integer PRIMARY KEY, name text);
    INSERT INTO kit VALUES (1, 'starter');
    CREATE TABLE kit_part (kit_id integer NOT NULL REFERENCES kit (id),
      part_code integer NOT NULL, part_maker text NOT NULL,
      PRIMARY KEY (kit_id, part_code, part_maker),
      FOREIGN KEY (part_code, part_maker) REFERENCES part (code, maker));
    INSERT INTO kit_part VALUES (1, 1, 'zeta');
    """

  @Test(arguments: ShopFixture.kinds)
  func linksAreReadAndWrittenByTheDestinationsKey(kind: ShopFixture.Kind) throws {
    let target =
      switch kind {
      case .sqlite: try TestDatabases.sqliteFile(Self.sqlite, named: "kits")
      case .postgresql: try PostgresSakila.database(from: Self.postgresql, prefix: "kits")
      }
    let backend = TestBackend(kind: kind, target: target)
    let database = try backend.open()
    let kit = try #require(try database.fetchObject("Kit", primaryKey: [.int(1)]))
    let part = try #require(database.model.entity(named: "Part"))
    #expect(part.primaryKeyAttributeNames == ["maker", "code"])
    let relationship = try #require(
      database.model.entity(named: "Kit")?.relationships.first { $0.isFlattened })
    #expect(try database.linkedKeys(relationship.name, of: kit) == [[.string("zeta"), .int(1)]])
    try database.changeLinks(
      relationship.name, of: kit, .add([.string("acme"), .int(2)]),
      expecting: [[.string("zeta"), .int(1)]])
    #expect(
      try backend.stored(
        "SELECT part_code, part_maker FROM kit_part WHERE part_maker = 'acme'") == "2|acme")
    try database.changeLinks(relationship.name, of: kit, .remove([.string("zeta"), .int(1)]))
    #expect(try database.linkedKeys(relationship.name, of: kit) == [[.string("acme"), .int(2)]])
    #expect(try backend.stored("SELECT count(*), 0 FROM kit_part") == "1|0")
  }
}
