import D2STesting
import Foundation
import Testing

/// The helper that runs the binary and tmux: what a child inherits, and the deadline.
@Suite struct SpawnTests {
  @Test func childrenInheritOnlyTheStandardDescriptors() throws {
    let pipe = Pipe()  // an open descriptor of this process that must not reach the child
    defer { try? pipe.fileHandleForWriting.close() }
    let output = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-fds-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    // `; :` keeps the shell running (bash would exec `ls`, which lists its own directory fd).
    let status = try Spawn.run("/bin/sh", ["-c", "ls /proc/$$/fd; :"], outputPath: output.path)
    #expect(status == 0)
    let descriptors = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
      .compactMap { Int($0) }
    // sh keeps 10 or 255 for itself.
    #expect(descriptors.filter { $0 > 2 && $0 != 10 && $0 != 255 }.isEmpty, "\(descriptors)")
    #expect(descriptors.contains(0) && descriptors.contains(1) && descriptors.contains(2))
  }

  @Test func exitStatusAndEnvironment() throws {
    #expect(try Spawn.run("/bin/sh", ["-c", "exit 3"]) == 3)
    #expect(
      try Spawn.run(
        "/bin/sh", ["-c", "test \"$D2S_SPAWN\" = yes"], environment: ["D2S_SPAWN": "yes"]) == 0)
    #expect(try Spawn.run("/bin/sh", ["-c", "kill -9 $$"]) == -1)
  }

  @Test func programsThatOverrunAreKilled() throws {
    let start = Date()
    #expect(throws: Spawn.Failure.self) { try Spawn.run("/bin/sleep", ["30"], timeout: 0.3) }
    #expect(Date().timeIntervalSince(start) < 10)
  }
}
