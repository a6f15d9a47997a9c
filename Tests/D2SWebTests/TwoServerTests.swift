import D2SModel
import D2STesting
import Foundation
import PostgreSQLAdaptor
import Testing

@testable import D2SWeb

/// A browser over real HTTP: cookies kept from `Set-Cookie`, forms posted URL-encoded.
final class LoopbackBrowser {
  var cookies: [String: String] = [:]

  func get(_ url: String) throws -> HTTPAnswer {
    keep(try LoopbackHTTP.request("GET", url, headers: cookieHeader))
  }

  func post(_ url: String, _ fields: [(String, String)]) throws -> HTTPAnswer {
    keep(
      try LoopbackHTTP.request(
        "POST", url, body: Data(HTML.query(fields).utf8),
        contentType: "application/x-www-form-urlencoded", headers: cookieHeader))
  }

  /// Logs in at `base` as `user`; the answer.
  func login(_ base: String, _ user: String, _ password: String) throws -> HTTPAnswer {
    let page = try get(base + "/-/login")
    let token = WebClient.csrf(page.text, form: "login") ?? ""
    return try post(
      base + "/-/login", [("_csrf", token), ("user", user), ("password", password)])
  }

  private var cookieHeader: [(String, String)] {
    cookies.isEmpty
      ? []
      : [
        ("Cookie", cookies.sorted { $0.key < $1.key }.map { "\($0)=\($1)" }.joined(separator: "; "))
      ]
  }

  private func keep(_ answer: HTTPAnswer) -> HTTPAnswer {
    for value in answer.headers("Set-Cookie") {
      let pair = value.split(separator: ";")[0].split(
        separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard pair.count == 2 else { continue }
      cookies[String(pair[0])] = value.contains("Max-Age=0") ? nil : String(pair[1])
    }
    return answer
  }
}

/// Two `d2s-serve` processes over one PostgreSQL database with the same `--secret-file` and
/// `--shared-sessions`: sessions live in the database's `d2s` schema, so either serves any
/// request, and a logout on one ends the session on both.
@Suite(.serialized) struct TwoServerTests {
  static var canRun: Bool {
    ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"] != nil
      && FileManager.default.fileExists(atPath: ServeBinaryTests.binary.path)
  }

  /// Two servers over `conninfo` with the demo rules, one secret and `--shared-sessions`, and
  /// their addresses.
  static func startTwo(_ conninfo: String) throws -> (ChildProcess, String, ChildProcess, String) {
    let folder = try ServeBinaryTests.folder()
    let secret = folder.appendingPathComponent("secret")
    try Data((0..<48).map { _ in UInt8.random(in: 0...255) }).write(to: secret)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: secret.path)
    let arguments = [
      conninfo, "--rules", WebEditingTests.demoRules, "--secret-file", secret.path,
      "--shared-sessions",
    ]
    let (first, a) = try ServeBinaryTests.start(arguments, folder: folder)
    do {
      let (second, b) = try ServeBinaryTests.start(arguments, folder: folder)
      return (first, a, second, b)
    } catch {
      first.stop()
      throw error
    }
  }

  @Test(.enabled(if: canRun), .timeLimit(.minutes(2)))
  func sessionsFormsAndConflictsCrossServersAndOneCanDie() throws {
    let conninfo = try PostgresSakila.copy()
    let (first, a, second, b) = try Self.startTwo(conninfo)
    defer { first.stop() }
    defer { second.stop() }

    // A session made on one server is valid on the other.
    let mike = LoopbackBrowser()
    #expect(try mike.login(a, "Mike", "12345").status == 303)
    #expect(try mike.get(b + "/Film/1").text.contains("Mike Hillyer"))

    // A form fetched from one saves through the other.
    let form = try mike.get(a + "/Film/1/-/edit")
    #expect(form.status == 200)
    let saved = try mike.post(
      b + "/Film/1/-/edit", WebEditingTests.change(form.text, "replacementCost", to: "$19.99"))
    #expect(saved.status == 303, "\(saved.text)")
    #expect(try Self.cost(conninfo) == "19.99")

    // A conflict is found across them: another session saves through B meanwhile.
    let stale = try mike.get(a + "/Film/1/-/edit")
    let jon = LoopbackBrowser()
    #expect(try jon.login(b, "Mike", "12345").status == 303)
    let theirs = try jon.get(b + "/Film/1/-/edit")
    #expect(
      try jon.post(
        b + "/Film/1/-/edit", WebEditingTests.change(theirs.text, "replacementCost", to: "$15.99")
      ).status == 303)
    let conflict = try mike.post(
      a + "/Film/1/-/edit", WebEditingTests.change(stale.text, "replacementCost", to: "$17.99"))
    #expect(conflict.status == 409)
    #expect(try Self.cost(conninfo) == "15.99")

    // A logout on one ends the session on the other: a copy of its cookie is anonymous there.
    let kept = jon.cookies
    let page = try jon.get(a + "/Film/1")
    let logout = try jon.post(
      a + "/-/logout", [("_csrf", WebClient.csrf(page.text, form: "inline") ?? "")])
    #expect(logout.status == 303)
    jon.cookies = kept
    #expect(try jon.get(b + "/Film/1/-/edit").status == 303, "sent to log in")
    #expect(try !jon.get(b + "/Film/1").text.contains("Mike Hillyer"))
    #expect(try mike.get(b + "/Film/1").text.contains("Mike Hillyer"), "Mike's own goes on")
    // The sessions' table is D2S's own: no entity, no page.
    #expect(try mike.get(b + "/Session").status == 404)

    // Killing one loses nothing but its own requests: the other serves and saves on.
    kill(first.process.processIdentifier, SIGKILL)
    for _ in 0..<100 where first.process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
    #expect(try mike.get(b + "/Film/1").status == 200)
    let again = try mike.get(b + "/Film/1/-/edit")
    #expect(
      try mike.post(
        b + "/Film/1/-/edit", WebEditingTests.change(again.text, "replacementCost", to: "$16.99")
      ).status == 303)
    #expect(try Self.cost(conninfo) == "16.99")
  }

  static func cost(_ conninfo: String) throws -> String {
    var value = ""
    try PostgreSQLAdaptor(url: conninfo).query(
      SQLStatement(raw: "SELECT replacement_cost::text FROM film WHERE film_id = 1"), columns: [nil]
    ) { value = $0[0].stringValue ?? "" }
    return value
  }
}
