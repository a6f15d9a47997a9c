import D2STesting
import Foundation
import Logging
import Synchronization
import Testing

@testable import D2SWeb

/// What operators see: one log line per request (without query values), `/-/health`, and
/// `--timing`'s `Server-Timing`.
@Suite struct OperationsTests {
  @Test func aRequestsTimeIsLoggedInMillisecondsToATenth() {
    #expect(WebApplication.loggedMilliseconds(.milliseconds(12.34)) == 12.3)
    #expect(WebApplication.loggedMilliseconds(.milliseconds(999.96)) == 1_000)
    // Past a second (a page that waited 5 s for a lock was logged as 511 ms).
    #expect(WebApplication.loggedMilliseconds(.milliseconds(5_011)) == 5_011)
    #expect(WebApplication.loggedMilliseconds(.seconds(61) + .microseconds(250)) == 61_000.3)
  }

  @Test func everyRequestIsOneLogLineWithoutItsQueryValues() async throws {
    let log = CapturedLog()
    let app = try WebApplication.open(try SakilaSQLite.copy(), logger: log.logger)
    _ = await app.get("/Film?where=title%20like%20'SECRET*'&limit=5")
    _ = await app.get("/Nothing")
    let lines = log.lines.withLock { $0 }
    #expect(lines.count == 2, "\(lines)")
    // At the default level (notice): method, target, status, bytes, milliseconds, client.
    #expect(lines.first?.hasPrefix("notice: GET /Film?where=…&limit=… 200 ") == true, "\(lines)")
    #expect(lines.first?.hasSuffix(" ms 127.0.0.1") == true)
    #expect(lines.first?.contains(" B ") == true)
    #expect(!lines.joined().contains("SECRET"), "a filter's values are never logged")
    #expect(lines.last?.hasPrefix("notice: GET /Nothing 404 ") == true, "\(lines)")
  }

  @Test func timingGivesEveryResponseAServerTimingHeader() async throws {
    let app = try WebApplication.open(
      try SakilaSQLite.copy(), configuration: .init(timing: true))
    let page = await app.get("/Film?limit=5")
    let timing = try #require(page.header("Server-Timing"))
    #expect(timing.hasPrefix("total;dur="), "\(timing)")
    #expect(timing.contains(#"sql;dur="#) && timing.contains(" statement"), "\(timing)")
    #expect(timing.contains(#"rules;desc=""#) && timing.contains("look-up"), "\(timing)")
    #expect(timing.contains("render;dur="), "\(timing)")
    let again = await app.get("/Film?limit=5")
    #expect(again.header("Server-Timing")?.contains("% cached") == true)
    let plain = try WebApplication.open(try SakilaSQLite.copy())
    #expect(await plain.get("/Film?limit=5").header("Server-Timing") == nil)
  }
}
