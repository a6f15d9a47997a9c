import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SModel

/// After a COMMIT whose outcome is unknown, the row is fetched again: pending changes it now
/// holds are dropped, the others stay pending, and the message says which.
@Suite struct UnknownOutcomeTests {
  @Test func matchingChangesAreDroppedAndTheOthersKept() throws {
    let database = try TestDatabase.sqlite.open()
    let actor = try #require(try database.fetchObject("Actor", primaryKey: [.int(1)]))
    try actor.setValue(.string("PENNY"), forAttribute: "firstName")
    try actor.setValue(.string("GUINESSY"), forAttribute: "lastName")
    // Someone's save gave the row the same last name meanwhile (or ours was applied).
    try database.adaptor.execute(
      SQLStatement(raw: "UPDATE actor SET last_name = 'GUINESSY' WHERE actor_id = 1"))
    let lost = DatabaseError(.outcomeUnknown, "the connection was lost during COMMIT")
    let error = database.refetchAfterUnknownOutcome(actor, lost)
    #expect(error.code == .outcomeUnknown)
    #expect(
      error.message
        == "the connection was lost during COMMIT; Actor 1 was fetched again: in the database now: lastName, still pending: firstName (save again)"
    )
    #expect(actor.changedKeys == ["firstName"])
    #expect(actor.snapshotValue(forAttribute: "lastName") == .string("GUINESSY"))
    try database.save(actor)  // the fetched values are the new base for optimistic locking
    #expect(
      try database.fetchObject("Actor", primaryKey: [.int(1)])?.value(forKey: "firstName")
        as? String == "PENNY")
  }

  @Test func aNewObjectMayHaveBeenInserted() throws {
    let database = try TestDatabase.sqlite.open()
    let actor = try database.newObject("Actor")
    let error = database.refetchAfterUnknownOutcome(actor, DatabaseError(.outcomeUnknown, "lost"))
    #expect(
      error.message == "lost; Actor (new) may have been inserted: look for it before saving again")
  }
}
