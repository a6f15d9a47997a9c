import D2STesting
import Foundation
import Testing

/// Options out of range are refused at start, each with what it takes, before any request:
/// never a server that traps on its first page (`--statement-timeout inf` did), nor one whose
/// timeouts round to nothing.
@Suite struct ServeOptionTests {
  @Test(
    .enabled(if: ClientFaultTests.hasBinary, "build d2s-serve first"),
    arguments: [
      ["--statement-timeout", "inf"], ["--statement-timeout", "2e10"],
      ["--request-timeout", "nan"], ["--anonymous-statement-timeout", "0.0001"],
      ["--connections", "3000000000000000000"], ["--connections-per-client", "100000"],
    ])
  func anOptionOutOfRangeIsRefusedAtStart(option: [String]) throws {
    let folder = try ServeBinaryTests.folder()
    let server = try ChildProcess(
      ServeBinaryTests.binary.path, [try SakilaSQLite.copy(), "--port", "0"] + option,
      folder: folder)
    defer { server.stop() }
    // Refused before the database is opened: at once, however loaded the machine (30 s).
    for _ in 0..<300 where server.process.isRunning { Thread.sleep(forTimeInterval: 0.1) }
    #expect(!server.process.isRunning, "refused within 30 s")
    if !server.process.isRunning {
      #expect(server.process.terminationStatus != 0)
      #expect(server.process.terminationReason == .exit, "an error, not a trap")
    }
    #expect(server.log.contains(option[0]), "\(server.log.suffix(300))")
    #expect(!server.log.contains("listening on"))
  }
}
