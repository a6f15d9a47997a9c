import Foundation
import Testing

@testable import D2STesting

/// The child processes that set up and drive Python clients are bounded: one that hangs (a
/// stalled package index) is killed and reported with what it wrote, never left to hang the
/// test run.
@Suite struct PythonEnvironmentTests {
  @Test(.timeLimit(.minutes(1))) func aHungToolIsKilledAndReported() throws {
    let start = ContinuousClock.now
    let error = #expect(throws: PythonEnvironmentError.self) {
      // 5 s: time for the shell to write its line first, however loaded the machine.
      try PythonEnvironment.run("/bin/sh", ["-c", "echo stalled >&2; sleep 30"], timeout: 5)
    }
    #expect(ContinuousClock.now - start < .seconds(20), "killed, not waited for")
    #expect(error?.description.contains("ran over 5.0 s and was killed") == true)
    #expect(error?.description.contains("stalled") == true, "what it wrote to stderr")
  }

  @Test func aFailingToolSaysWhatItWrote() throws {
    let error = #expect(throws: PythonEnvironmentError.self) {
      try PythonEnvironment.run("/bin/sh", ["-c", "echo no such package >&2; exit 3"], timeout: 10)
    }
    #expect(error?.description.contains("status 3") == true)
    #expect(error?.description.contains("no such package") == true)
  }

  @Test func aToolThatSucceedsReturns() throws {
    try PythonEnvironment.run("/bin/sh", ["-c", "exit 0"], timeout: 10)
  }
}
