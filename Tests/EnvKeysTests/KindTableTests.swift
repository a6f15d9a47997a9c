import Testing

@testable import EnvKeys

/// The kinds of types, read without a lock: the latest entry for a type wins, past the
/// table's capacity the overflow answers (and a declaration there still wins), and threads
/// recording while others read each see a whole entry.
@Suite struct KindTableTests {
  /// `count` distinct identities (objects kept alive for the test's length).
  final class Token {}
  func identities(_ count: Int) -> ([Token], [ObjectIdentifier]) {
    let tokens = (0..<count).map { _ in Token() }
    return (tokens, tokens.map(ObjectIdentifier.init))
  }

  @Test func theLatestEntryForATypeIsItsKind() {
    let table = KindTable()
    let (tokens, ids) = identities(2)
    #expect(table.kind(ids[0]) == nil)
    table.record(ids[0], .hashable)
    table.record(ids[1], .object)
    #expect(table.kind(ids[0]) == .hashable)
    #expect(table.kind(ids[1]) == .object)
    // A declaration made later hides what was found before.
    table.record(ids[0], .uncacheable)
    #expect(table.kind(ids[0]) == .uncacheable)
    withExtendedLifetime(tokens) {}
  }

  @Test func pastItsCapacityTheOverflowAnswersAndDeclarationsStillWin() {
    let table = KindTable()
    let (tokens, ids) = identities(KindTable.capacity + 10)
    for id in ids { table.record(id, .hashable) }
    #expect(ids.allSatisfy { table.kind($0) == .hashable })
    // The first type, published in the table, declared again once the table is full.
    table.record(ids[0], .uncacheable)
    #expect(table.kind(ids[0]) == .uncacheable)
    #expect(table.kind(ids.last ?? ids[0]) == .hashable)
    withExtendedLifetime(tokens) {}
  }

  @Test func theSameAnswerTwiceIsOneEntry() {
    let table = KindTable()
    let (tokens, ids) = identities(KindTable.capacity)
    // The same type recorded over and over takes one place: the others still fit.
    for _ in 0..<100 { table.record(ids[0], .object) }
    for id in ids.dropFirst() { table.record(id, .int) }
    #expect(table.kind(ids[0]) == .object)
    #expect(ids.dropFirst().allSatisfy { table.kind($0) == .int })
    withExtendedLifetime(tokens) {}
  }

  @Test func readersSeeWholeEntriesWhileOthersRecord() async {
    let table = KindTable()
    let (tokens, ids) = identities(KindTable.capacity + 16)
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for (index, id) in ids.enumerated() where index % 8 == task {
            table.record(id, index % 2 == 0 ? .object : .hashable)
          }
          for (index, id) in ids.enumerated() {
            let kind = table.kind(id)
            #expect(kind == nil || kind == (index % 2 == 0 ? .object : .hashable))
          }
        }
      }
    }
    for (index, id) in ids.enumerated() {
      #expect(table.kind(id) == (index % 2 == 0 ? .object : .hashable))
    }
    withExtendedLifetime(tokens) {}
  }
}
