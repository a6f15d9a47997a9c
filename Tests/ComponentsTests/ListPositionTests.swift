import Components
import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import Testing

/// A list position is a value bound to its list: it reads back exactly in the same list, and
/// is an error in another (entity, ordering, filter), whatever process made it.
@Suite struct ListPositionTests {
  let byTitle = FetchSpecification(entityName: "Film", sortOrderings: [SortOrdering("title")])

  @Test func aPositionReadsBackExactlyInItsList() throws {
    let list = ListIdentity(byTitle)
    let values: [DatabaseValue] = [.string("ACE. GOLD,FINGER"), .null, .double(0.5), .int(2)]
    let token = try #require(ListPosition(values, in: list).token)
    #expect(try ListPosition(token: token, in: list).values == values)
    #expect(
      ListPosition([.array(["1"])], in: list).token == nil,
      "an array is no position")
  }

  /// The fingerprint is FNV-1a over the list's canonical text: the same in every process
  /// (a seeded hash would make one server's links fail on another).
  @Test func theFingerprintIsTheSameInEveryProcess() {
    #expect(ListIdentity(byTitle).fingerprint == "1t1w3eplgwtx0")
    #expect(
      ListIdentity(byTitle).fingerprint
        == ListIdentity(
          FetchSpecification(
            entityName: "Film", sortOrderings: [SortOrdering("title")], limit: 20, offset: 40)
        ).fingerprint, "the window is not part of the list")
  }

  @Test func aPositionOfAnotherListIsAnError() throws {
    let token = try #require(
      ListPosition([.string("B"), .int(7)], in: ListIdentity(byTitle)).token)
    let others = [
      FetchSpecification(entityName: "Film", sortOrderings: [SortOrdering("description")]),
      FetchSpecification(
        entityName: "Film", sortOrderings: [SortOrdering("title", ascending: false)]),
      FetchSpecification(
        entityName: "Film", sortOrderings: [SortOrdering("title", caseInsensitive: true)]),
      FetchSpecification(
        entityName: "Film", qualifier: .comparison(KVCPath("length"), .greaterThan, .int(60)),
        sortOrderings: [SortOrdering("title")]),
      FetchSpecification(entityName: "Category", sortOrderings: [SortOrdering("title")]),
    ]
    for other in others {
      #expect(throws: PositionTokenError.self, "\(other)") {
        try ListPosition(token: token, in: ListIdentity(other))
      }
    }
    for bad in ["", ".i1", "i1", "abc.", "abc.q1"] {
      #expect(throws: PositionTokenError.self, "\(bad)") {
        try ListPosition(token: bad, in: ListIdentity(byTitle))
      }
    }
  }

  @Test func theUsersAndThePagesQualifiersAreCombinedOnce() {
    let entity = Entity(
      name: "Film", externalName: "film", attributes: [], relationships: [],
      primaryKeyAttributeNames: [], isView: false)
    let user = Qualifier.comparison(KVCPath("length"), .greaterThan, .int(60))
    let page = Qualifier.comparison(KVCPath("languageId"), .equal, .int(1))
    let request = ListRequest(qualifier: user, sortOrderings: [SortOrdering("title")])
    #expect(
      request.rows(of: entity, auxiliary: page).qualifier?.description == "\(user) AND \(page)")
    #expect(request.rows(of: entity, auxiliary: nil).qualifier?.description == user.description)
    #expect(ListRequest().rows(of: entity, auxiliary: nil).qualifier == nil)
    #expect(
      request.identity(of: entity, auxiliary: page) != request.identity(of: entity, auxiliary: nil))
  }
}
