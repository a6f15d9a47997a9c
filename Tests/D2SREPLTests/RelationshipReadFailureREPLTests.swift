import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SREPL

/// In the REPL, a relationship that cannot be read while another program holds the database
/// fails the command that read it, with the database's reason: before, `show object.films`
/// printed an empty list, as if the actor had no films.
@Suite struct RelationshipReadFailureREPLTests {
  @Test(.timeLimit(.minutes(1)))
  func aRelationshipReadUnderALockFailsTheCommand() async throws {
    let path = try SakilaSQLite.copy()
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(path)")
    _ = try session.run("inspect Actor 1")
    // The wait for the busy timeout (5 s) off Swift's shared threads.
    let shown = try await offThePool {
      let locker = try SQLiteAdaptor(path: path)
      try locker.executeScript("BEGIN EXCLUSIVE")
      defer { try? locker.executeScript("COMMIT") }
      return Result { try session.run("show object.films") }
    }
    #expect(throws: (any Error).self, "\((try? shown.get()) ?? "")") { try shown.get() }
    if case .failure(let error) = shown {
      #expect("\(error)".contains("locked"), "\(error)")
    }
    // The next command is not failed by it.
    let again = try session.run("show object.films")
    #expect(again.contains("ACADEMY DINOSAUR"), "\(again)")
  }
}
