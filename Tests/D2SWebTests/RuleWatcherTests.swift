import D2STesting
import Foundation
import Synchronization
import Testing

@testable import D2SWeb

/// `--watch` compares the rule files with what they were when the rules were loaded, not when
/// its loop happens to begin: on a busy machine the loop may start after a file has changed.
@Suite struct RuleWatcherTests {
  @Test(.timeLimit(.minutes(1)))
  func aChangeBeforeTheWatchBeginsIsReloaded() async throws {
    let file = try WebFixtures.ruleFile("entity.name = 'Film' => displayNameForEntity = 'Movies'")
    let reloads = Mutex(0)
    let log = CapturedLog()
    let watcher = RuleWatcher(files: [file], logger: log.logger) {
      reloads.withLock { $0 += 1 }
    }
    try "entity.name = 'Film' => displayNameForEntity = 'Pictures'\n".write(
      toFile: file, atomically: true, encoding: .utf8)
    let watching = Task { try await watcher.run() }
    defer { watching.cancel() }
    var polls = 0
    while reloads.withLock({ $0 }) == 0, polls < 100 {
      try await Task.sleep(for: .milliseconds(100))
      polls += 1
    }
    #expect(reloads.withLock { $0 } == 1, "reloaded within 10 s")
    #expect(log.lines.withLock { $0 }.contains { $0.contains("reloaded") })
  }
}
