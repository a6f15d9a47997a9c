import D2SModel
import Foundation
import Synchronization
import Testing

@testable import SQLiteAdaptor

/// Ctrl-C arrives on another thread than the one running the statement (the signal handler's
/// flag is read by SQLite's progress handler): the statement stops. Run under
/// ThreadSanitizer by `make test-sanitized`.
@Suite struct InterruptionThreadTests {
  final class Flag: Sendable {
    let raised = Mutex(false)
  }

  @Test func aRequestFromAnotherThreadStopsTheStatement() throws {
    let adaptor = try SQLiteAdaptor(path: ":memory:")
    let flag = Flag()
    adaptor.connection.isInterrupted = { flag.raised.withLock { $0 } }
    Thread {  // a thread of its own: a busy dispatch pool would delay it
      usleep(100_000)
      flag.raised.withLock { $0 = true }
    }.start()
    let slow = SQLStatement(
      raw:
        "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 100000000) SELECT count(*) FROM n"
    )
    let start = Date()
    #expect { try adaptor.query(slow, columns: [nil]) { _ in } } throws: { error in
      (error as? DatabaseError)?.code == .interrupted
    }
    #expect(Date().timeIntervalSince(start) < 5)
  }
}
