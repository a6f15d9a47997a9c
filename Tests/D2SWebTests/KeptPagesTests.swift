import D2STesting
import Testing

@testable import D2SWeb

/// Each pooled connection keeps the pages it renders with (``Reader/keptPages``): rules
/// replaced (`--watch`) reach every connection from its next request on, and back again.
@Suite struct KeptPagesTests {
  /// The bodies of `count` list pages asked at once, over as many connections as the pool
  /// gives one client.
  static func lists(_ app: WebApplication, count: Int = 24) async -> [String] {
    await withTaskGroup(of: String.self) { group in
      for _ in 0..<count { group.addTask { await app.get("/Note").body } }
      var bodies: [String] = []
      for await body in group { bodies.append(body) }
      return bodies
    }
  }

  @Test func replacedRulesReachEveryPooledConnection() async throws {
    let path = try TestDatabases.sqliteFile(PageCacheTests.schema, named: "kept-pages")
    let app = try WebApplication.open(
      path, configuration: .init(pageCacheBytes: 0), connections: 4)
    let before = await Self.lists(app)
    #expect(before.count == 24 && before.allSatisfy { $0.contains("first") })
    #expect(!before.contains { $0.contains("Remark") })

    let relabeled = try WebApplication.open(
      path,
      rules: [
        try WebFixtures.ruleFile(
          "entity.name = 'Note' AND propertyKey = 'text' => displayNameForProperty = 'Remark'")
      ], connections: 1)
    let original = app.pageApplication
    app.replace(relabeled.pageApplication)
    let after = await Self.lists(app)
    #expect(after.count == 24 && after.allSatisfy { $0.contains("Remark") })

    app.replace(original)
    let again = await Self.lists(app)
    #expect(again.count == 24 && !again.contains { $0.contains("Remark") })
  }
}
