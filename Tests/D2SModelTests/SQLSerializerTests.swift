import D2SModel
import PostgreSQLAdaptor
import SQLiteAdaptor
import Testing

/// SQL as values: each statement's exact text in both dialects, names quoted, values bound in
/// the order their placeholders appear, and a change with no condition reaching no row.
@Suite struct SQLSerializerTests {
  let sqlite = SQLiteAdaptor.sqlDialect
  let postgres = PostgreSQLAdaptor.sqlDialect
  let table = SQLExpression.table(#"od"d"#, schema: "s")

  @Test func aSelectWithJoinsSubqueriesAndWindow() {
    var select = SQLSelect(
      [.column("a", of: "t0"), .function(.lower, [.column(#"b"c"#, of: "t1")])],
      from: SQLSource(table, alias: "t0"))
    select.joins = [
      SQLJoin(
        SQLSource(.table("other", schema: nil), alias: "t1"),
        on: .compare(.column("id", of: "t1"), .equal, .column("other_id", of: "t0")))
    ]
    var inner = SQLSelect([.one], from: SQLSource(.table("x", schema: nil), alias: "t1s0"))
    inner.conditions = [.compare(.column("v", of: "t1s0"), .greaterThan, .bind(.int(3)))]
    select.conditions = [
      .parenthesized(
        .any([
          .isNull(.column("a", of: "t0")),
          .compare(.column("a", of: "t0"), .lessThan, .bind(.string("z"))),
        ])),
      .exists(inner),
    ]
    select.orderBy = [
      SQLOrdering(.column("a", of: "t0"), ascending: false, nulls: .first),
      SQLOrdering(.column("id", of: "t0"), ascending: true),
    ]
    select.limit = .int(20)
    select.offset = .int(40)
    let expected =
      #"SELECT t0."a", lower(t1."b""c") FROM "s"."od""d" t0 LEFT JOIN "other" t1 ON t1."id" = t0."other_id" WHERE (t0."a" IS NULL OR t0."a" < ?) AND EXISTS (SELECT 1 FROM "x" t1s0 WHERE t1s0."v" > ?) ORDER BY t0."a" DESC NULLS FIRST, t0."id" ASC LIMIT ? OFFSET ?"#
    #expect(sqlite.statement(select).sql == expected)
    #expect(
      postgres.statement(select).sql
        == expected.replacingOccurrences(of: "< ?", with: "< $1")
        .replacingOccurrences(of: "> ?", with: "> $2")
        .replacingOccurrences(of: "LIMIT ?", with: "LIMIT 20")
        .replacingOccurrences(of: "OFFSET ?", with: "OFFSET $3"))
    #expect(sqlite.statement(select).bindings == [.string("z"), .int(3), .int(20), .int(40)])
    // PostgreSQL's LIMIT is a number (a parameter would have it plan the statement anew on
    // every run): D2S's own, never a request's text.
    #expect(postgres.statement(select).bindings == [.string("z"), .int(3), .int(40)])
    #expect(postgres.statement(select).rowBound == 20)
  }

  @Test func patternMatchesAndNullSafeComparisonsAreTheDialects() {
    var select = SQLSelect([.star], from: SQLSource(table))
    select.conditions = [
      .like(.castToText(.identifier("n")), pattern: "a%", caseInsensitive: true),
      .compare(.identifier("m"), .nullSafeEqual, .bind(.null)),
      .compare(.identifier("k"), .in, .list([.bind(.int(1)), .bind(.int(2))])),
    ]
    #expect(
      sqlite.statement(select).sql
        == #"SELECT * FROM "s"."od""d" WHERE d2s_lower(CAST("n" AS TEXT)) GLOB d2s_lower(?) AND "m" IS ? AND "k" IN (?, ?)"#
    )
    #expect(
      postgres.statement(select).sql
        == #"SELECT * FROM "s"."od""d" WHERE CAST("n" AS text) ILIKE $1 ESCAPE '\' AND "m" IS NOT DISTINCT FROM $2 AND "k" IN ($3, $4)"#
    )
    #expect(postgres.statement(select).bindings == [.string("a%"), .null, .int(1), .int(2)])
  }

  @Test func insertsUpdatesAndDeletes() {
    var insert = SQLInsert(into: table, values: [("a", .int(1)), (#"b"b"#, .string("x"))])
    insert.returning = ["id"]
    #expect(
      postgres.statement(insert).sql
        == #"INSERT INTO "s"."od""d" ("a", "b""b") VALUES ($1, $2) RETURNING "id""#)
    #expect(
      sqlite.statement(SQLInsert(into: table, values: [])).sql
        == #"INSERT INTO "s"."od""d" DEFAULT VALUES"#)
    let update = SQLUpdate(
      table, set: [("a", .int(2))],
      where: [
        .compare(.identifier("id"), .equal, .bind(.int(7))),
        .compare(.identifier("a"), .nullSafeEqual, .bind(.int(1))),
      ])
    #expect(
      postgres.statement(update).sql
        == #"UPDATE "s"."od""d" SET "a" = $1 WHERE "id" = $2 AND "a" IS NOT DISTINCT FROM $3"#)
    #expect(postgres.statement(update).bindings == [.int(2), .int(7), .int(1)])
    let delete = SQLDelete(
      from: table, where: [.compare(.identifier("id"), .equal, .bind(.int(7)))])
    #expect(sqlite.statement(delete).sql == #"DELETE FROM "s"."od""d" WHERE "id" = ?"#)
  }

  @Test func aChangeWithoutConditionsReachesNoRow() {
    #expect(
      sqlite.statement(SQLDelete(from: table, where: [])).sql
        == #"DELETE FROM "s"."od""d" WHERE 1 = 0"#)
    #expect(
      sqlite.statement(SQLUpdate(table, set: [("a", .int(1))], where: [])).sql
        == #"UPDATE "s"."od""d" SET "a" = ? WHERE 1 = 0"#)
  }

  @Test func valuesAreNeverSplicedIntoTheText() {
    let hostile = "x'); DROP TABLE film; --"
    var select = SQLSelect([.star], from: SQLSource(.table("film", schema: nil)))
    select.conditions = [.compare(.identifier("title"), .equal, .bind(.string(hostile)))]
    let statement = sqlite.statement(select)
    #expect(!statement.sql.contains("DROP"))
    #expect(statement.bindings == [.string(hostile)])
  }

  @Test func transactionsNestAsSavepoints() {
    #expect(sqlite.text(.begin, depth: 0) == "BEGIN IMMEDIATE")
    #expect(postgres.text(.begin, depth: 0) == "BEGIN")
    #expect(postgres.text(.begin, depth: 2) == "SAVEPOINT d2s_2")
    #expect(sqlite.text(.commit, depth: 1) == "RELEASE SAVEPOINT d2s_1")
    #expect(
      sqlite.text(.rollback, depth: 1) == "ROLLBACK TO SAVEPOINT d2s_1; RELEASE SAVEPOINT d2s_1")
    #expect(postgres.text(.rollback, depth: 0) == "ROLLBACK")
  }

  @Test func disjunctionsInConjunctionsAreParenthesisedAndOddAliasesQuoted() {
    func equals(_ name: String, _ value: Int) -> SQLExpression {
      .compare(.identifier(name), .equal, .bind(.int(value)))
    }
    let delete = SQLDelete(
      from: table, where: [.any([equals("a", 1), equals("b", 2)]), equals("c", 3)])
    #expect(
      sqlite.statement(delete).sql
        == #"DELETE FROM "s"."od""d" WHERE ("a" = ? OR "b" = ?) AND "c" = ?"#)
    let nested = SQLSelect(
      [.all([.any([equals("a", 1), equals("b", 2)]), equals("c", 3)])], from: nil)
    #expect(sqlite.statement(nested).sql == #"SELECT ("a" = ? OR "b" = ?) AND "c" = ?"#)
    let odd = SQLSelect(
      [.named(.column("x", of: #"t"0"#), as: "1 k")], from: SQLSource(table, alias: #"t"0"#))
    #expect(
      sqlite.statement(odd).sql == #"SELECT "t""0"."x" AS "1 k" FROM "s"."od""d" "t""0""#)
  }
}
