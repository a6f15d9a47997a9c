import Components
import D2SModel
import D2STesting
import D2SWeb
import Testing

@testable import D2SHTML

/// A list page's forms and table head are kept by what they are made from (`ListHeads`): a
/// page whose head was kept is the page made anew, whatever was asked before it, for every
/// parameter the head shows (search, filter and its error, order and direction, window,
/// facets, the list's path) and for other rules' labels.
@Suite(.serialized) struct ListHeadTests {
  /// Targets whose heads differ from the first's in one thing each.
  static let targets = [
    "/Film", "/Film?limit=7", "/Film?order=title", "/Film?order=" + "title desc".webQuery,
    "/Film?order=length", "/Film?q=dino", "/Film?where=" + "length > 60".webQuery,
    "/Film?where=" + "length >>".webQuery, "/Film?facet=rating",
    "/Film?where.rating=" + "'PG'".webQuery, "/Actor", "/Film/1/actors",
  ]

  static func app(label: String) throws -> WebApplication {
    let rules = try WebFixtures.ruleFile(
      "task = 'list' AND propertyKey = 'title' => displayNameForProperty = '\(label)' ; high")
    // Every page made anew: the page cache would answer a target asked before whole. The
    // demo's facets are counted however slow the run, so that pages compare byte for byte.
    return try WebApplication.open(
      try SakilaSQLite.copy(),
      rules: [WebEditingTests.demoRules, rules, try WebFixtures.unhurriedFacets()],
      configuration: .init(pageCacheBytes: 0), connections: 1)
  }

  @Test func aKeptHeadIsTheHeadMadeAnew() async throws {
    let app = try Self.app(label: "Heads Kept")
    var fresh: [String: String] = [:]
    for target in Self.targets {
      ListHeads.removeAll()
      fresh[target] = await app.get(target).body
    }
    #expect(Set(fresh.values).count == Self.targets.count, "every target's page differs")
    // Each target after the first, whose head is kept: one that took it would differ.
    for target in Self.targets.dropFirst() {
      ListHeads.removeAll()
      _ = await app.get(Self.targets[0])
      #expect(await app.get(target).body == fresh[target], "\(target) after \(Self.targets[0])")
      #expect(await app.get(Self.targets[0]).body == fresh[Self.targets[0]], "after \(target)")
    }
  }

  @Test func anotherRulesLabelIsNeverAKeptOnes() async throws {
    let first = try Self.app(label: "First Label")
    let second = try Self.app(label: "Second Label")
    for _ in 1...2 {
      let one = await first.get("/Film?limit=3").body
      let two = await second.get("/Film?limit=3").body
      #expect(one.contains("First Label") && !one.contains("Second Label"))
      #expect(two.contains("Second Label") && !two.contains("First Label"))
    }
  }

  /// Pages whose heads differ in one parameter and what follows from it.
  static let pairs = [
    ("/Film?order=title", "/Film?order=" + "title desc".webQuery),
    ("/Film?limit=7", "/Film?limit=8"),
    ("/Film?where=" + "length > 60".webQuery, "/Film?where=" + "length > 61".webQuery),
    ("/Film?q=dino", "/Film?q=dinos"),
    ("/Film?where.rating=" + "'PG'".webQuery, "/Film?where.rating=" + "'G'".webQuery),
  ]

  @Test func eitherOfTwoHeadsThatDifferInOneThingIsNeverTheOther() async throws {
    let app = try Self.app(label: "Heads Paired")
    for (one, other) in Self.pairs {
      for (first, second) in [(one, other), (other, one)] {
        ListHeads.removeAll()
        let fresh = await app.get(second).body
        ListHeads.removeAll()
        _ = await app.get(first)
        #expect(await app.get(second).body == fresh, "\(second) after \(first)")
      }
    }
  }

  @Test func aLongTypedTextIsMadeButNotKept() async throws {
    let app = try Self.app(label: "Heads Long")
    let long = String(repeating: "dino ", count: 60)
    for _ in 1...2 {
      let page = await app.get("/Film?q=" + long.webQuery)
      #expect(page.status == 200 && page.body.contains("value=\"\(long.dropLast())\""))
    }
    func head(search: String, path: String) -> ListHead {
      let identity = ListIdentity(FetchSpecification(entityName: "Film"))
      return ListHead(
        list: WebListQuery(path: path, searchText: search, identity: identity), example: "title",
        columns: [], sortable: nil, whys: [])
    }
    let path = "/Heads\(UInt64.random(in: 0...UInt64.max))"
    #expect(!head(search: long, path: path).isKeepable)
    #expect(head(search: "dino", path: path).isKeepable)
    for (search, made) in [(long, 2), ("dino", 1)] {
      var calls = 0
      for _ in 1...2 {
        _ = ListHeads.bytes(head(search: search, path: path)) {
          calls += 1
          return "head"
        }
      }
      #expect(calls == made, "\(search.count) bytes of search")
    }
  }
}
