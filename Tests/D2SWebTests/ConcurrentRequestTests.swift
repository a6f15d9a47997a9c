import D2STesting
import D2SWeb
import Foundation
import Testing

/// Many requests at once, through a pool smaller than their number, with and without the page
/// cache: every page is the one a lone request gets. (Run under ThreadSanitizer by
/// `make test-sanitized`.)
@Suite struct ConcurrentRequestTests {
  static let targets = [
    "/", "/Film?order=title&limit=20", "/Film/1", "/Film/1/actors", "/Rental?limit=30",
    "/Customer?where=lastName%20like%20%27S*%27&order=firstName", "/FilmActor/1,1",
    "/City?limit=25&format=json",
  ]

  /// Rendered every time (a cache of 0 bytes), and through the page cache.
  @Test(arguments: [0, 16 << 20])
  func concurrentPagesAreTheSerialPages(pageCacheBytes: Int) async throws {
    let app = try WebApplication.open(
      try SakilaSQLite.copy(), configuration: .init(pageCacheBytes: pageCacheBytes),
      connections: 3)
    var serial: [String] = []
    for target in Self.targets { serial.append(await app.get(target).body) }
    #expect(Set(serial).count == Self.targets.count)
    let rounds = 10
    let results = await withTaskGroup(of: (Int, Int, String).self) { group in
      for round in 0..<rounds {
        for (index, target) in Self.targets.enumerated() {
          group.addTask { (round, index, await app.get(target).body) }
        }
      }
      var all: [(Int, Int, String)] = []
      for await result in group { all.append(result) }
      return all
    }
    #expect(results.count == rounds * Self.targets.count)
    let wrong = results.filter { $0.2 != serial[$0.1] }
    #expect(
      wrong.isEmpty,
      "\(wrong.count) pages differ, first: \(wrong.first.map { Self.targets[$0.1] } ?? "")")
  }
}
