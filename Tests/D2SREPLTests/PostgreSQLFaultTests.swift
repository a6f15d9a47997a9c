import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import Testing

@testable import D2SREPL

/// PostgreSQL connection loss, on a server of each test's own: restarted between commands,
/// down during a save, and gone during a COMMIT (the outcome then is unknown).
@Suite(.enabled(if: PrivatePostgres.binaries != nil, "no PostgreSQL server installed"))
struct PostgreSQLFaultTests {
  static let schema = """
    CREATE TABLE item (id serial PRIMARY KEY, name text NOT NULL, qty integer NOT NULL);
    INSERT INTO item (name, qty) VALUES ('apple', 1), ('pear', 2), ('plum', 3);
    -- A save that renames an item to 'doomed' loses its connection during COMMIT: the
    -- deferred trigger runs inside the COMMIT and its backend ends itself there.
    CREATE FUNCTION doom() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.name = 'doomed' THEN
        PERFORM pg_terminate_backend(pg_backend_pid());
        PERFORM pg_sleep(5);
      END IF;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER doom AFTER UPDATE ON item DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION doom();
    """
  static let rows = "SELECT id, name, qty FROM item ORDER BY id"
  /// Renaming an item to 'slow' adds 1 to its quantity (a BEFORE trigger) and makes its
  /// COMMIT wait for advisory lock 42 (a deferred trigger), which the test holds until the
  /// relay has dropped the connection: no window to catch, however loaded the machine.
  static let slowCommit = """
    CREATE FUNCTION bump() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.name = 'slow' AND OLD.name <> 'slow' THEN NEW.qty := NEW.qty + 1; END IF;
      RETURN NEW;
    END $$;
    CREATE TRIGGER bump BEFORE UPDATE ON item FOR EACH ROW EXECUTE FUNCTION bump();
    CREATE FUNCTION slow() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.name = 'slow' AND OLD.name <> 'slow' THEN PERFORM pg_advisory_xact_lock(42); END IF;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER slow AFTER UPDATE ON item DEFERRABLE INITIALLY DEFERRED
      FOR EACH ROW EXECUTE FUNCTION slow();
    """

  func session(_ server: PrivatePostgres) throws -> REPLSession {
    let session = try REPLSession(width: 100)
    _ = try session.run("open \(server.url)")
    return session
  }

  @Test func aRestartBetweenCommandsReconnectsOnceAndKeepsTheEdit() throws {
    let server = try PrivatePostgres(sql: Self.schema)
    let session = try session(server)
    #expect(try session.run("list Item").contains("apple"))
    try server.restart()
    #expect(try session.run("list Item").contains("pear"))  // the next command just works
    _ = try session.run("edit Item 1")
    _ = try session.run("object.name = 'apricot'")
    try server.restart()
    #expect(try session.run("show object.name").hasPrefix("object.name = 'apricot'"))
    #expect(try session.run("save") == "saved Item 1")
    #expect(try server.psql(Self.rows) == "1|apricot|1\n2|pear|2\n3|plum|3")
    // One connection: the session's, made again in place.
    #expect(
      try server.psql(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = 'faults' AND pid <> pg_backend_pid()"
      ) == "1")
  }

  @Test func aSaveWhileTheServerIsDownFailsThenSucceeds() throws {
    let server = try PrivatePostgres(sql: Self.schema)
    let session = try session(server)
    _ = try session.run("edit Item 2")
    _ = try session.run("object.qty = 20")
    let before = try server.psql(Self.rows)
    try server.stop()
    let message = session.failure(of: "save")
    #expect(message.hasPrefix("the connection to PostgreSQL was lost and could not be made again"))
    #expect(message.hasSuffix("; nothing was saved"))
    #expect(try session.run("show object.qty").hasPrefix("object.qty = 20"))
    try server.start()
    #expect(try server.psql(Self.rows) == before)
    #expect(try session.run("save") == "saved Item 2")
    #expect(try server.psql(Self.rows) == "1|apple|1\n2|pear|20\n3|plum|3")
  }

  @Test func aCommitWhoseOutcomeIsUnknownIsNeverSentAgain() throws {
    let server = try PrivatePostgres(sql: Self.schema)
    let session = try session(server)
    _ = try session.run("edit Item 3")
    _ = try session.run("object.name = 'doomed'")
    _ = try session.run("object.qty = 30")
    let before = try server.psql(Self.rows)
    let message = session.failure(of: "save")
    #expect(
      message.hasPrefix(
        "the connection was lost during COMMIT, so whether it was applied is unknown"))
    #expect(
      message.hasSuffix(
        "; Item 3 was fetched again: no change is in the database, still pending: name, qty (save again)"
      ))
    #expect(try server.psql(Self.rows) == before)
    _ = try session.run("object.name = 'damson'")
    #expect(try session.run("save") == "saved Item 3")
    #expect(try server.psql(Self.rows) == "1|apple|1\n2|pear|2\n3|damson|30")
  }

  @Test(.timeLimit(.minutes(2)))
  func aCommitAppliedButNeverAcknowledgedDropsTheChangesItMade() throws {
    let server = try PrivatePostgres(sql: Self.schema + Self.slowCommit)
    let proxy = try PostgresProxy(server)
    let session = try REPLSession(width: 100)
    _ = try session.run("open \(proxy.url)")
    _ = try session.run("edit Item 1")
    _ = try session.run("object.name = 'slow'")
    _ = try session.run("object.qty = 30")
    let holder = try PostgreSQLAdaptor(url: server.url)
    try holder.executeScript("SELECT pg_advisory_lock(42)")
    let outcome = Failures()  // the save's message, from its thread
    Thread { outcome.add(session.failure(of: "save")) }.start()
    // Once the server runs the COMMIT's deferred trigger, its reply is lost on the way.
    let waiting =
      "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'"
    let deadline = Date().addingTimeInterval(20)
    while try server.psql(waiting) != "1", Date() < deadline { usleep(20_000) }
    proxy.cut()
    try holder.executeScript("SELECT pg_advisory_unlock(42)")
    while outcome.all.isEmpty, Date() < deadline { usleep(20_000) }
    let message = try #require(outcome.all.first)
    #expect(
      message.hasPrefix(
        "the connection was lost during COMMIT, so whether it was applied is unknown"))
    #expect(
      message.hasSuffix(
        "; Item 1 was fetched again: in the database now: name, still pending: qty (save again)"))
    #expect(try server.psql(Self.rows) == "1|slow|31\n2|pear|2\n3|plum|3")
    #expect(try session.run("save") == "saved Item 1")
    #expect(try server.psql(Self.rows) == "1|slow|30\n2|pear|2\n3|plum|3")
  }
}
