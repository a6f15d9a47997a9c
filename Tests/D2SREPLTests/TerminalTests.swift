import D2STesting
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor
import Testing

/// The real binary in a pseudo-terminal (tmux): line editing, history recall and tab
/// completion of an entity name and a key name.
@Suite(.serialized) struct TerminalTests {
  static let tmuxPath = ["/usr/bin/tmux", "/usr/local/bin/tmux"].first {
    FileManager.default.fileExists(atPath: $0)
  }

  /// Tests that drive the binary in tmux run only where both are there.
  static var needsTmux: ConditionTrait {
    .enabled(
      if: tmuxPath != nil && FileManager.default.fileExists(atPath: BinaryTests.binary.path),
      "needs tmux and the built d2s-repl")
  }

  /// This run's own tmux server (`-L`), so that the test neither uses nor disturbs another.
  let server = "d2s-test-\(ProcessInfo.processInfo.processIdentifier)"

  @discardableResult
  func tmux(_ arguments: [String]) throws -> String {
    let tmux = Self.tmuxPath ?? "/usr/bin/tmux"
    guard arguments.first == "capture-pane" || arguments.first == "display" else {
      try Spawn.run(tmux, ["-L", server] + arguments)
      return ""
    }
    let output = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-pane-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(at: output) }
    try Spawn.run(tmux, ["-L", server] + arguments, outputPath: output.path)
    return (try? String(contentsOf: output, encoding: .utf8)) ?? ""
  }

  /// Waits (up to 10 s) until the pane shows `text`.
  func waitFor(_ text: String, in session: String) throws -> Bool {
    for _ in 0..<100 {
      if try tmux(["capture-pane", "-p", "-t", session]).contains(text) { return true }
      Thread.sleep(forTimeInterval: 0.1)
    }
    return false
  }

  /// Waits (up to 10 s) until the pane shows `text` at least `occurrences` times.
  func waitFor(occurrences: Int, of text: String, in session: String) throws -> Bool {
    for _ in 0..<100 {
      if try tmux(["capture-pane", "-p", "-t", session]).components(separatedBy: text).count
        > occurrences
      {
        return true
      }
      Thread.sleep(forTimeInterval: 0.1)
    }
    return false
  }

  /// Starts the binary on `database` in a new tmux session of 120×40 with its own home
  /// folder (and `environment`, `NAME=VALUE …`); returns the session's name and that folder.
  func start(_ database: String, environment: String = "") throws -> (session: String, home: URL) {
    let session = "d2s-test-\(UUID().uuidString.prefix(8))"
    let home = FileManager.default.temporaryDirectory.appendingPathComponent(session)
    try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
    let command =
      "env HOME=\(home.path) LANG=C.UTF-8 TERM=xterm-256color COLUMNS=100 \(environment) \(BinaryTests.binary.path) '\(database)'; echo \(Self.ended); sleep 30"
    try tmux(["new-session", "-d", "-s", session, "-x", "120", "-y", "40", command])
    return (session, home)
  }

  /// What the pane shows once the binary has ended (the pane stays 30 s more, for its text).
  static let ended = "d2s-repl-ended"

  /// Ends the tmux server and removes the session's home folder.
  func stop(_ home: URL) {
    _ = try? tmux(["kill-server"])
    try? FileManager.default.removeItem(at: home)
  }

  /// A table of 2,000,000 rows: a list of it takes seconds, so Ctrl-C always comes first.
  static func tickTable(postgreSQL: Bool) -> String {
    postgreSQL
      ? """
      CREATE TABLE tick (tick_id integer PRIMARY KEY, note text NOT NULL);
      INSERT INTO tick SELECT i, 'tick ' || i FROM generate_series(1, 2000000) AS i;
      ANALYZE tick;
      """
      : """
      CREATE TABLE tick (tick_id INTEGER PRIMARY KEY, note TEXT NOT NULL);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000000)
      INSERT INTO tick SELECT i, 'tick ' || i FROM n;
      """
  }

  /// Ctrl-C while a long list runs stops it at the next row: an error line, no list, and
  /// the session goes on. `list` names a list long enough (seconds) that Ctrl-C comes
  /// before its end however fast the build is; `end` is its footer.
  func interruptsALongList(
    in session: String, prompt: String, list: String, end: String
  ) throws {
    #expect(try waitFor(prompt, in: session))
    try tmux(["send-keys", "-t", session, "-l", list])
    let row = try tmux(["display", "-p", "-t", session, "#{cursor_y}"])
    try tmux(["send-keys", "-t", session, "Enter"])
    // Ctrl-C once the line is read (the cursor has left its row): before that, it would only
    // drop the typed line, however long a loaded machine takes to get there.
    var polls = 0
    while try tmux(["display", "-p", "-t", session, "#{cursor_y}"]) == row, polls < 200 {
      Thread.sleep(forTimeInterval: 0.05)
      polls += 1
    }
    try tmux(["send-keys", "-t", session, "C-c"])
    #expect(try waitFor("error: interrupted", in: session))
    #expect(try !tmux(["capture-pane", "-p", "-t", session]).contains(end))
    try tmux(["send-keys", "-t", session, "-l", "list Language"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor("6 Language", in: session))
  }

  @Test(TerminalTests.needsTmux)
  func ctrlCStopsARunningCommandInSQLite() throws {
    // Sakila's longest list prints in well under a second: a table of 2,000,000 rows makes
    // one that Ctrl-C always interrupts.
    let path = try SakilaSQLite.copy()
    try SQLiteAdaptor(path: path).executeScript(Self.tickTable(postgreSQL: false))
    let (session, home) = try start(path, environment: "NO_COLOR=1")
    defer { stop(home) }
    try interruptsALongList(
      in: session, prompt: "sakila>", list: "list Tick limit 3000000", end: "2000000 Tick")
    #expect(
      try !tmux(["capture-pane", "-p", "-e", "-t", session]).contains("\u{1B}[31m"),
      "NO_COLOR: no colour")
  }

  @Test(
    .enabled(
      if: tmuxPath != nil && ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil
        && FileManager.default.fileExists(atPath: BinaryTests.binary.path),
      "needs tmux, the test PostgreSQL and the built d2s-repl"))
  func ctrlCStopsARunningCommandInPostgreSQL() throws {
    let url = try PostgresSakila.copy()
    try PostgreSQLAdaptor(url: url).executeScript(Self.tickTable(postgreSQL: true))
    let (session, home) = try start(url)
    defer { stop(home) }
    try interruptsALongList(
      in: session, prompt: ">", list: "list Tick limit 3000000", end: "2000000 Tick")
  }

  @Test(TerminalTests.needsTmux)
  func lineEditingHistoryAndCompletion() throws {
    // An empty NO_COLOR allows colour.
    let (session, home) = try start(try SakilaSQLite.copy(), environment: "NO_COLOR=")
    defer { stop(home) }
    #expect(try waitFor("sakila>", in: session))  // capture-pane drops trailing spaces

    // Completion of an entity name: `list Lang⇥` → `list Language`.
    try tmux(["send-keys", "-t", session, "-l", "list Lang"])
    try tmux(["send-keys", "-t", session, "Tab"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor("6 Language", in: session))

    // Completion of a key name, and history recall with the up arrow.
    try tmux(["send-keys", "-t", session, "-l", "show displayNameForEnt"])
    try tmux(["send-keys", "-t", session, "Tab"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor("displayNameForEntity = 'Language'", in: session))
    try tmux(["send-keys", "-t", session, "Up", "Up", "Enter"])
    #expect(
      try waitFor(occurrences: 2, of: "6 Language", in: session),
      "the recalled `list Language` ran again")

    // Cursor editing: type, go to the start, fix the word.
    try tmux(["send-keys", "-t", session, "-l", "how task"])
    try tmux(["send-keys", "-t", session, "C-a"])
    try tmux(["send-keys", "-t", session, "-l", "s"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor("task = 'list'  # set", in: session))

    // Ctrl-C drops the line being typed: it never runs, and the next line does.
    try tmux(["send-keys", "-t", session, "-l", "list Actor"])
    #expect(try waitFor("> list Actor", in: session), "typed, as a user sees it before Ctrl-C")
    try tmux(["send-keys", "-t", session, "C-c"])
    try tmux(["send-keys", "-t", session, "-l", "show task"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor(occurrences: 2, of: "task = 'list'  # set", in: session))
    let pane = try tmux(["capture-pane", "-p", "-t", session])
    #expect(pane.contains("list Actor^C"))
    #expect(!pane.contains("PENELOPE"), "the cancelled line did not run")

    // Non-ASCII input arrives whole through the UTF-8 key reader.
    try tmux(["send-keys", "-t", session, "-l", "list Lângüage"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor("error: no entity named Lângüage", in: session))

    // On a terminal `error:` is red (tmux shows the colour with -e).
    try tmux(["send-keys", "-t", session, "-l", "frobnicate"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor("error: unknown command 'frobnicate'", in: session))
    #expect(try tmux(["capture-pane", "-p", "-e", "-t", session]).contains("\u{1B}[31merror:"))

    try tmux(["send-keys", "-t", session, "C-d"])
    // libedit writes spaces in its history file as \040.
    let history = try String(
      contentsOf: home.appendingPathComponent(".d2s_history"), encoding: .utf8
    )
    .replacingOccurrences(of: "\\040", with: " ")
    #expect(history.contains("list Language"))
    let historyPath = home.appendingPathComponent(".d2s_history").path
    let mode = try FileManager.default.attributesOfItem(atPath: historyPath)[.posixPermissions]
    #expect(mode as? Int == 0o600)
  }

  /// Completion by position, as a user types: a where clause's key path, through a
  /// relationship, and `follow`'s relationships.
  @Test(TerminalTests.needsTmux)
  func completionByPosition() throws {
    let (session, home) = try start(try SakilaSQLite.copy())
    defer { stop(home) }
    #expect(try waitFor("sakila>", in: session))
    try tmux(["send-keys", "-t", session, "-l", "list Film where ra"])
    try tmux(["send-keys", "-t", session, "Tab"])
    // A unique completion ends with a space, as readline's do.
    try tmux(["send-keys", "-t", session, "-l", "= 'NC-17' and language.na"])
    try tmux(["send-keys", "-t", session, "Tab"])
    try tmux(["send-keys", "-t", session, "-l", "= 'English' order by title limit 1"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor("1–1 of 210 Film", in: session))
    let pane = try tmux(["capture-pane", "-p", "-t", session])
    #expect(pane.contains("list Film where rating = 'NC-17' and language.name = 'English'"))
    try tmux(["send-keys", "-t", session, "-l", "inspect Film 1"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor("ACADEMY DINOSAUR", in: session))
    try tmux(["send-keys", "-t", session, "-l", "follow ac"])
    try tmux(["send-keys", "-t", session, "Tab"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor("10 Actor", in: session))
    try tmux(["send-keys", "-t", session, "C-d"])
  }

  /// Without libedit the REPL says so and reads plain lines: the same prompt and commands,
  /// Ctrl-C drops the line, Ctrl-D ends.
  @Test(TerminalTests.needsTmux)
  func plainLinesWithoutLibedit() throws {
    let (session, home) = try start(
      try SakilaSQLite.copy(), environment: "NO_COLOR=1 D2S_LIBEDIT=/nonexistent/libedit.so.2")
    defer { stop(home) }
    #expect(try waitFor("no line editing", in: session))
    #expect(try waitFor("sakila>", in: session))
    try tmux(["send-keys", "-t", session, "-l", "list Language"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor("6 Language", in: session))
    // The next prompt (`sakila list Language>`) first: keys typed before it is written are
    // echoed before it, and the line would read `list Actorsakila list Language> ` (a loaded
    // machine's full suite once did).
    #expect(try waitFor("list Language>", in: session))
    try tmux(["send-keys", "-t", session, "-l", "list Actor"])
    #expect(try waitFor("> list Actor", in: session), "typed, as a user sees it before Ctrl-C")
    try tmux(["send-keys", "-t", session, "C-c"])
    #expect(try waitFor("^C", in: session))
    try tmux(["send-keys", "-t", session, "-l", "show task"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor("task = 'list'  # set", in: session))
    #expect(!(try tmux(["capture-pane", "-p", "-t", session]).contains("PENELOPE")))
    try tmux(["send-keys", "-t", session, "C-d"])
    #expect(try waitFor(Self.ended, in: session))
    // Ended: a command typed now is not run.
    try tmux(["send-keys", "-t", session, "-l", "list Language"])
    try tmux(["send-keys", "-t", session, "Enter"])
    Thread.sleep(forTimeInterval: 1)
    // The whole scrollback (`-S -`): what the pane shows may have scrolled.
    let pane = try tmux(["capture-pane", "-p", "-S", "-", "-t", session])
    #expect(pane.components(separatedBy: "6 Language").count == 2)
    #expect(
      !FileManager.default.fileExists(atPath: home.appendingPathComponent(".d2s_history").path))
  }

  /// `watch` at an idle prompt: the change lines appear within 2 s with no key pressed, and
  /// the line being typed is drawn again after them.
  @Test(TerminalTests.needsTmux)
  func watchReloadsAtAnIdlePrompt() throws {
    let rules = try RuleToolsTests.ruleFile(
      "entity.name = 'Language' => displayNameForEntity = 'Tongues'\n")
    let (session, home) = try start(try SakilaSQLite.copy(), environment: "NO_COLOR=1")
    defer { stop(home) }
    #expect(try waitFor("sakila>", in: session))
    try tmux(["send-keys", "-t", session, "-l", "watch \(rules)"])
    try tmux(["send-keys", "-t", session, "Enter"])
    try tmux(["send-keys", "-t", session, "-l", "list Language"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor("6 Tongues", in: session))
    try tmux(["send-keys", "-t", session, "-l", "show ta"])
    #expect(try waitFor("> show ta", in: session))
    try "entity.name = 'Language' => displayNameForEntity = 'Languages'\n".write(
      toFile: rules, atomically: true, encoding: .utf8)
    let changed = Date()
    #expect(try waitFor("displayNameForEntity: 'Tongues' → 'Languages'  (\(rules):1)", in: session))
    // The files are polled every second; the bound leaves room for a loaded machine (tmux and
    // the terminal are other processes) and still fails a watch that waits for the next command.
    #expect(Date().timeIntervalSince(changed) < 5, "within a poll or two of the save")
    #expect(
      try waitFor("sakila list Language> show ta", in: session), "the typed line is drawn again")
    try tmux(["send-keys", "-t", session, "-l", "sk"])
    try tmux(["send-keys", "-t", session, "Enter"])
    #expect(try waitFor("task = 'list'  # set", in: session))
  }
}
