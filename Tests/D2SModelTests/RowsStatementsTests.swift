import EnvKeys
import Qualifiers
import Testing

@testable import D2SModel

/// A database keeps the rows statements it made for lists; a kept statement answers only the
/// fetch it was made for: every fetch read from a database that made all the others first
/// gives the rows a database that made none gives.
@Suite struct RowsStatementsTests {
  /// Fetches differing from each other in one part each.
  func fetches(_ database: Database) throws -> [(FetchSpecification, [Attribute]?, [PropertyPath])]
  {
    let film = try database.entity("Film")
    let title = try #require(film.attribute(named: "title"))
    let id = try #require(film.attribute(named: "id"))
    let length = try #require(film.attribute(named: "length"))
    let language = try PropertyPath("language.name", from: film, in: database.model)
    func filter(_ text: String) throws -> Qualifier { try QualifierParser.parse(text) }
    let base = FetchSpecification(
      entityName: "Film", sortOrderings: [SortOrdering("title")], limit: 5)
    func with(_ change: (inout FetchSpecification) throws -> Void) rethrows -> FetchSpecification {
      var changed = base
      try change(&changed)
      return changed
    }
    let variants = [
      base, with { $0.limit = 6 }, with { $0.offset = 3 },
      with { $0.sortOrderings = [SortOrdering("title", ascending: false)] },
      with { $0.sortOrderings = [SortOrdering("length"), SortOrdering("title")] },
      try with { $0.qualifier = try filter("rating = 'PG'") },
      try with { $0.qualifier = try filter("rating = 'G'") },
      try with { $0.qualifier = try filter("length > 100") },
      try with { $0.qualifier = try filter("length > 101") },
    ]
    let actors = FetchSpecification(entityName: "Actor", sortOrderings: [SortOrdering("lastName")])
    var result: [(FetchSpecification, [Attribute]?, [PropertyPath])] = [(actors, nil, [])]
    for variant in variants {
      result.append((variant, nil, []))
      result.append((variant, [id, title], []))
      result.append((variant, [id, length], []))
      result.append((variant, [id, title], [language]))
    }
    return result
  }

  func rows(
    _ database: Database, _ fetch: (FetchSpecification, [Attribute]?, [PropertyPath]),
    positions: Bool
  ) throws -> [[DatabaseValue]] {
    var rows: [[DatabaseValue]] = []
    try database.fetchRows(fetch.0, attributes: fetch.1, paths: fetch.2, positions: positions) {
      rows.append($0)
    }
    return rows
  }

  @Test(arguments: TestDatabase.available)
  func aKeptStatementAnswersOnlyItsOwnFetch(kind: TestDatabase) throws {
    let database = try kind.open()
    let all = try fetches(database)
    for positions in [false, true] {
      for fetch in all { _ = try rows(database, fetch, positions: positions) }
    }
    #expect(database.rowsStatements.count == all.count * 2)
    // Each fetch's kept statement, after all the others were made, is the one made anew.
    for positions in [true, false] {
      for fetch in all.reversed() {
        let (kept, keptColumns) = try database.rowsStatement(
          fetch.0, attributes: fetch.1, paths: fetch.2, positions: positions, tallying: false)
        let (made, madeColumns) = try database.makeRowsStatement(
          fetch.0, attributes: fetch.1, paths: fetch.2, positions: positions, tallying: false)
        #expect(kept.sql == made.sql, "\(fetch.0)")
        #expect(kept.bindings == made.bindings, "\(fetch.0)")
        #expect(kept.rowBound == made.rowBound)
        #expect(
          keptColumns.map { $0.map(ObjectIdentifier.init) }
            == madeColumns.map { $0.map(ObjectIdentifier.init) })
      }
    }
    #expect(database.rowsStatements.count == all.count * 2, "nothing made anew")
    // And its rows are those a database that kept nothing reads.
    let fresh = try kind.reopen(database)
    for fetch in all.prefix(8) {
      #expect(try rows(database, fetch, positions: true) == rows(fresh, fetch, positions: true))
    }
  }

  /// The statements counting a fetch's rows are kept beside its rows statements, each
  /// answering only its own fetch, and never taken for one another.
  @Test(arguments: TestDatabase.available)
  func keptCountsAnswerOnlyTheirOwnFetch(kind: TestDatabase) throws {
    let database = try kind.open()
    let fresh = try kind.reopen(database)
    let specifications = try fetches(database).filter { $0.1 == nil }.map(\.0)
    for specification in specifications {
      _ = try rows(database, (specification, nil, []), positions: false)
      #expect(try database.count(specification) == fresh.count(specification))
    }
    #expect(database.rowsStatements.count == specifications.count * 2)
    for specification in specifications.reversed() {
      let kept = try database.countStatement(specification)
      let made = try database.makeCountStatement(specification)
      #expect(kept.sql == made.sql, "\(specification)")
      #expect(kept.bindings == made.bindings)
      #expect(
        try rows(database, (specification, nil, []), positions: false)
          == rows(fresh, (specification, nil, []), positions: false))
    }
    #expect(database.rowsStatements.count == specifications.count * 2, "nothing made anew")
  }

  @Test func keysetWindowsSearchesAndLargeStatementsAreMadeAnew() throws {
    let database = try TestDatabase.sqlite.open()
    var keyset = FetchSpecification(
      entityName: "Film", sortOrderings: [SortOrdering("title")], limit: 5)
    keyset.keyset = .after([.string("ACE GOLDFINGER"), .int(2)])
    _ = try rows(database, (keyset, nil, []), positions: true)
    var search = FetchSpecification(entityName: "Film", limit: 5)
    search.fullText = FullTextSearch(words: ["dinosaur"])
    _ = try? rows(database, (search, nil, []), positions: false)
    let long = String(repeating: "x", count: RowsStatements.maximumBoundBytes + 1)
    var typed = FetchSpecification(entityName: "Film", limit: 5)
    typed.qualifier = try QualifierParser.parse("title = '\(long)'")
    _ = try rows(database, (typed, nil, []), positions: false)
    #expect(database.rowsStatements.count == 0)
    let numbers = (1...(RowsStatements.maximumBindings + 1)).map(String.init)
    typed.qualifier = try QualifierParser.parse("id IN (\(numbers.joined(separator: ", ")))")
    #expect(try rows(database, (typed, nil, []), positions: false).count == 5)
    #expect(database.rowsStatements.count == 0)
    typed.qualifier = try QualifierParser.parse("title = 'x'")
    _ = try rows(database, (typed, nil, []), positions: false)
    #expect(database.rowsStatements.count == 1)
  }

  /// Strings equal as Swift compares them (canonically equivalent) but not as the database
  /// does (by bytes) never share a statement; NaN, equal to nothing, is never kept.
  @Test func textThatIsNotASCIIAndNaNAreMadeAnew() throws {
    let database = try TestDatabase.sqlite.open()
    func boundBytes(_ text: String) throws -> [[UInt8]] {
      var fetch = FetchSpecification(entityName: "Film", limit: 5)
      fetch.qualifier = try QualifierParser.parse("title = '\(text)'")
      let (statement, _) = try database.rowsStatement(
        fetch, attributes: nil, paths: [], positions: false, tallying: false)
      return statement.bindings.map { value in
        if case .string(let bound) = value { Array(bound.utf8) } else { [] }
      }
    }
    for (first, second) in [
      ("K", "\u{212A}"), ("caf\u{E9}", "cafe\u{301}"), ("\u{212B}", "\u{C5}"),
    ] {
      #expect(first == second, "canonically equivalent")
      #expect(try boundBytes(first).contains(Array(first.utf8)))
      #expect(try boundBytes(second).contains(Array(second.utf8)))
    }
    #expect(database.rowsStatements.count == 1, "only the ASCII K kept")
    var nan = FetchSpecification(entityName: "Film", limit: 5)
    nan.qualifier = .comparison(KVCPath("length"), .greaterThan, .double(.nan))
    _ = try database.rowsStatement(
      nan, attributes: nil, paths: [], positions: false, tallying: false)
    #expect(database.rowsStatements.count == 1)
  }

  @Test func atMostTheCapacityIsKept() throws {
    let database = try TestDatabase.sqlite.open()
    for limit in 1...(RowsStatements.capacity + 10) {
      let fetch = FetchSpecification(entityName: "Language", limit: limit)
      #expect(try rows(database, (fetch, nil, []), positions: false).count == min(limit, 6))
      #expect(database.rowsStatements.count <= RowsStatements.capacity)
    }
  }
}
