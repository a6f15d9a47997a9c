import Components
import D2SModel
import D2STesting
import EnvKeys
import Foundation
import PostgreSQLAdaptor
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// Four HTTP clients, each logged in as a user of its own, edit the same two rows at once
/// through two `d2s-serve` processes over one database (over PostgreSQL, with
/// `--shared-sessions`, each form fetched from one server and saved through the other; over
/// SQLite, whose servers keep their own sessions, each client logged in on both, alternating
/// between them): every save is applied (303) or answered 409, and the database's
/// change log shows no lost update and no phantom write. `make stress` runs it longer
/// (`D2S_STRESS_ITERATIONS`).
@Suite(.serialized) struct HTTPEditorStressTests {
  static let iterations =
    ProcessInfo.processInfo.environment["D2S_STRESS_ITERATIONS"].flatMap(Int.init) ?? 20
  static let editors = 4
  static let accounts = """
    CREATE TABLE account (id INTEGER PRIMARY KEY, login TEXT NOT NULL, password TEXT);
    INSERT INTO account (login, password) VALUES ('e0', 'pw'), ('e1', 'pw'), ('e2', 'pw'), ('e3', 'pw');
    """

  static var hasBinary: Bool {
    FileManager.default.fileExists(atPath: ServeBinaryTests.binary.path)
  }

  @Test(.enabled(if: hasBinary, "build d2s-serve first"), .timeLimit(.minutes(5)))
  func sqlite() throws {
    let path = try TestDatabases.sqliteFile(
      EditorStressCheck.sqliteSchema + Self.accounts, named: "stress")
    let report = try Self.run(target: path, adaptor: try SQLiteAdaptor(path: path), shared: false)
    Self.expectNoLostUpdate(report, "web sqlite")
  }

  @Test(
    .enabled(
      if: hasBinary && ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil,
      "needs d2s-serve and the test PostgreSQL"), .timeLimit(.minutes(5)))
  func postgresql() throws {
    let url = try PostgresSakila.database(
      from: EditorStressCheck.postgresSchema
        + Self.accounts.replacingOccurrences(
          of: "id INTEGER PRIMARY KEY", with: "id serial PRIMARY KEY"),
      prefix: "webstress")
    let report = try Self.run(target: url, adaptor: try PostgreSQLAdaptor(url: url), shared: true)
    Self.expectNoLostUpdate(report, "web postgresql")
  }

  static func expectNoLostUpdate(_ report: EditorStressCheck.Report, _ label: String) {
    print("stress \(label): \(editors) HTTP clients × \(iterations) saves: \(report)")
    #expect(report.saves > 0)
    #expect(report.otherErrors == [])
    #expect(report.lostUpdates == [])
    #expect(report.phantomWrites == [])
    #expect(report.wrongFinalValues == [])
  }

  /// Two servers over `target` with one secret; the clients at once; the check.
  static func run(target: String, adaptor: any DatabaseAdaptor, shared: Bool) throws
    -> EditorStressCheck.Report
  {
    let folder = try ServeBinaryTests.folder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let secret = folder.appendingPathComponent("secret")
    try Data((0..<48).map { _ in UInt8.random(in: 0...255) }).write(to: secret)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
    let arguments = [target, "--secret-file", secret.path] + (shared ? ["--shared-sessions"] : [])
    let (first, a) = try ServeBinaryTests.start(arguments, folder: folder)
    defer { first.stop() }
    let (second, b) = try ServeBinaryTests.start(arguments, folder: folder)
    defer { second.stop() }
    let bases = [a, b]
    let results = ResultsBox(count: editors)
    DispatchQueue.concurrentPerform(iterations: editors) { editor in
      results.set(editor, edit(editor: editor, bases: bases, shared: shared))
    }
    var report = EditorStressCheck.Report()
    var attempts: [EditorStressCheck.Attempt] = []
    for (editorAttempts, conflicts, errors) in results.all {
      attempts += editorAttempts
      report.conflicts += conflicts
      report.otherErrors += errors
    }
    report.saves = attempts.filter(\.saved).count
    if report.saves + report.conflicts != editors * iterations {
      report.otherErrors.append(
        "\(report.saves) saves + \(report.conflicts) conflicts != \(editors * iterations) attempts")
    }
    try EditorStressCheck.check(attempts, adaptor: adaptor, into: &report)
    return report
  }

  /// One client's edits: fetch the form from one server, save through the other (`shared`),
  /// or through the same one.
  static func edit(editor: Int, bases: [String], shared: Bool) -> (
    [EditorStressCheck.Attempt], conflicts: Int, errors: [String]
  ) {
    var random = SplitMix64(seed: 14 &+ UInt64(editor))
    var attempts: [EditorStressCheck.Attempt] = []
    var conflicts = 0
    var errors: [String] = []
    let one = LoopbackBrowser()
    let browsers = shared ? [one, one] : [one, LoopbackBrowser()]
    do {
      for index in shared ? [editor % bases.count] : Array(bases.indices) {
        let login = try browsers[index].login(bases[index], "e\(editor)", "pw")
        guard login.status == 303 else {
          return ([], 0, ["editor \(editor): login \(login.status)"])
        }
      }
      for iteration in 0..<iterations {
        let item = 1 + random.next(EditorStressCheck.items)
        let columns = [["name"], ["qty"], ["name", "qty"]][random.next(3)]
        let values = columns.map {
          ($0, $0 == "name" ? "e\(editor)i\(iteration)" : "\((editor + 1) * 100_000 + iteration)")
        }
        let readIndex = (editor + iteration) % bases.count
        let writeIndex = shared ? (readIndex + 1) % bases.count : readIndex
        let (read, write) = (bases[readIndex], bases[writeIndex])
        let browser = browsers[readIndex]
        let form = try browser.get(read + "/Item/\(item)/-/edit")
        guard form.status == 200 else {
          errors.append("editor \(editor): GET form \(form.status)")
          continue
        }
        var fields = [("_csrf", WebClient.csrf(form.text, form: "edit") ?? "")]
        var fetched: [String: String] = [:]
        for (column, value) in values {
          let change = WebEditingTests.change(form.text, column, to: value)
          fields += change.dropFirst()
          let token = change.first { $0.0 == "_shown." + column }?.1 ?? ""
          fetched[column] = (try? PositionToken.decode(token).first).map(Self.text) ?? "?"
        }
        let answer = try browser.post(write + "/Item/\(item)/-/edit", fields)
        switch answer.status {
        case 303: break
        case 409: conflicts += 1
        default: errors.append("editor \(editor): POST \(answer.status)")
        }
        attempts.append(
          EditorStressCheck.Attempt(
            editor: editor, item: item,
            changes: values.map { (column: $0.0, fetched: fetched[$0.0] ?? "?", new: $0.1) },
            saved: answer.status == 303))
      }
    } catch {
      errors.append("editor \(editor): \(error)")
    }
    return (attempts, conflicts, errors)
  }

  /// A fetched value as the change log writes it.
  static func text(_ value: DatabaseValue) -> String {
    switch value {
    case .int(let number): "\(number)"
    case .string(let text): text
    default: value.description
    }
  }
}

/// Each client's results, set from its own thread.
final class ResultsBox: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [([EditorStressCheck.Attempt], conflicts: Int, errors: [String])]

  init(count: Int) { items = Array(repeating: ([], 0, []), count: count) }

  func set(_ index: Int, _ value: ([EditorStressCheck.Attempt], conflicts: Int, errors: [String])) {
    lock.withLock { items[index] = value }
  }

  var all: [([EditorStressCheck.Attempt], conflicts: Int, errors: [String])] {
    lock.withLock { items }
  }
}
