import D2STesting
import Qualifiers
import Testing

@testable import D2SModel

/// The SQL of keyset pages: plain `ORDER BY` for keys that cannot be NULL (so an ordinary
/// index serves them), `NULLS FIRST` for those that can, and the position's condition written
/// out in full with a leading range on the first key.
@Suite struct KeysetSQLTests {
  static let schema = """
    CREATE TABLE item (item_id INTEGER PRIMARY KEY, score INTEGER, seq INTEGER NOT NULL);
    """

  func sql(_ orderings: [SortOrdering], _ keyset: KeysetBound? = nil) throws -> SQLStatement {
    let database = try TestDatabases.sqlite(Self.schema)
    let entity = try #require(database.model.entity(named: "Item"))
    var builder = database.builder(for: entity)
    return try builder.select(
      FetchSpecification(
        entityName: "Item", qualifier: .comparison(KVCPath("score"), .greaterThan, .int(0)),
        sortOrderings: orderings, limit: 20, keyset: keyset),
      attributes: [], positions: true)
  }

  @Test func notNullKeysAreOrderedPlainly() throws {
    let statement = try sql([SortOrdering("seq")], .after([.int(50), .int(5)]))
    #expect(
      statement.sql
        == #"SELECT t0."seq", t0."item_id" FROM "item" t0 WHERE (t0."score" IS NOT NULL AND t0."score" > ?) AND (t0."seq" >= ? AND ((t0."seq" > ?) OR (t0."seq" = ? AND t0."item_id" > ?))) ORDER BY t0."seq" ASC, t0."item_id" ASC LIMIT ?"#
    )
    #expect(statement.bindings == [.int(0), .int(50), .int(50), .int(50), .int(5), .int(20)])
  }

  @Test func nullableKeysSortNullsFirstAndReadBackwardsNullsLast() throws {
    let forward = try sql([SortOrdering("score", ascending: false)], .after([.null, .int(5)]))
    #expect(
      forward.sql.hasSuffix(
        #"AND ((t0."score" IS NOT NULL) OR (t0."score" IS NULL AND t0."item_id" > ?)) ORDER BY t0."score" DESC NULLS FIRST, t0."item_id" ASC LIMIT ?"#
      ))
    let backward = try sql([SortOrdering("score")], .before([.int(2), .int(7)]))
    #expect(
      backward.sql.hasSuffix(
        #"AND (((t0."score" < ? OR t0."score" IS NULL)) OR (t0."score" = ? AND t0."item_id" < ?)) ORDER BY t0."score" DESC NULLS LAST, t0."item_id" DESC LIMIT ?"#
      ))
    let from = try sql([SortOrdering("seq")], .from([.int(50), .int(5)]))
    #expect(from.sql.contains(#"(t0."seq" = ? AND t0."item_id" >= ?)"#))
  }

  @Test func aPositionOfTheWrongLengthIsAClearError() throws {
    #expect(throws: DatabaseError.self) { try sql([SortOrdering("seq")], .after([.int(1)])) }
  }
}
