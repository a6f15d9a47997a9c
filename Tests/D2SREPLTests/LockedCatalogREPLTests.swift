import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SREPL

/// In the REPL, a list asked for while another program holds the database as the table's
/// columns are first read fails or shows what it can; once the lock is gone the list has its
/// columns: nothing worked out without them is taken again.
@Suite struct LockedCatalogREPLTests {
  @Test(.timeLimit(.minutes(1)))
  func aListAfterTheLockHasItsColumns() throws {
    let path = try SakilaSQLite.copy()
    let session = try REPLSession(width: 120)
    _ = try session.run("open \(path)")
    let locker = try SQLiteAdaptor(path: path)
    try locker.executeScript("BEGIN EXCLUSIVE")
    let locked = (try? session.run("list Film limit 3")) ?? ""
    try locker.executeScript("COMMIT")
    #expect(!locked.contains("ACADEMY DINOSAUR"), "the lock was held: \(locked)")
    Thread.sleep(forTimeInterval: 1.2)
    let list = try session.run("list Film limit 3")
    #expect(list.contains("ACADEMY DINOSAUR"), "\(list)")
    #expect(list.contains("Title") || list.contains("title"), "\(list)")
  }
}
