import Components
import D2SModel
import D2STesting
import D2SWeb
import Dispatch
import EnvKeys
import Foundation

/// The web server's request path, in process, on a copy of Sakila with the demo rules: URLs
/// and their queries (`where=`, `order=`, `after=`), form bodies (the login form, and an edit
/// form of a logged-in session), cookies, and the position tokens and array texts forms carry.
/// A 500 is a finding (every bad request is a 4xx), and so is a token or an array text that
/// does not read back as itself.
enum WebFuzz {
  /// The application, and a logged-in session's cookies and edit-form token.
  static let setup: (app: WebApplication, cookies: [String: String], csrf: String)? = {
    guard let path = try? SakilaSQLite.copy() else { return nil }
    let rules = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("data/demo.d2s").path
    guard let app = try? WebApplication.open(path, rules: [rules]) else { return nil }
    var cookies: [String: String] = [:]
    func keep(_ response: WebResponse) {
      for (name, value) in response.headers where name == "Set-Cookie" {
        let pair = value.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
        if pair.count == 2 { cookies[String(pair[0])] = String(pair[1]) }
      }
    }
    let page = respond(app, WebRequest(target: "/-/login"))
    keep(page)
    let token = field("_csrf", in: page.body)
    keep(
      respond(
        app,
        WebRequest(
          method: "POST", target: "/-/login", cookies: cookies,
          body: "_csrf=\(token)&user=Mike&password=12345")))
    let form = respond(app, WebRequest(target: "/Film/1/-/edit", cookies: cookies))
    return (app, cookies, field("_csrf", in: form.body))
  }()

  static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let selector = bytes.first, let setup else { return }
    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes.dropFirst()), as: UTF8.self)
    let request: WebRequest
    switch selector % 8 {
    case 0: request = WebRequest(target: "/" + text)
    case 6:
      // An absolute-form target: its authority is checked as `Host` is (never a 500, and
      // another site's name is a 400).
      let authority = WebRequest.authority(target: text, host: "127.0.0.1")
      request = WebRequest(target: "/Film?limit=1", host: authority)
      let response = respond(setup.app, request)
      if let name = request.hostName, !["localhost", "127.0.0.1", "::1"].contains(name),
        response.status != 400
      {
        fatalError("\(response.status) for the absolute target \(text.debugDescription)")
      }
      return
    case 7:
      // Heads of any size: over the limit a 431, never a 500.
      var large = WebRequest(target: "/Film/1", cookies: setup.cookies)
      large.headerBytes = text.utf8.count * 256
      request = large
    case 1:
      request = WebRequest(method: "POST", target: "/-/login", cookies: setup.cookies, body: text)
    case 2: request = WebRequest(target: "/Film/1", cookies: WebRequest.cookies(text))
    case 3:
      request = WebRequest(
        method: "POST", target: "/Film/1/-/edit", cookies: setup.cookies,
        body: "_csrf=\(setup.csrf)&" + text)
    case 4:
      guard let values = try? PositionToken.decode(text) else { return }
      guard let token = PositionToken.encode(values, arrays: true),
        let again = try? PositionToken.decode(token), again == values
      else { fatalError("position \(text.debugDescription) does not read back as itself") }
      return
    default:
      guard let items = DatabaseValue.parseArrayText(text) else { return }
      guard DatabaseValue.parseArrayText(DatabaseValue.arrayText(items)) == items else {
        fatalError("array text \(text.debugDescription) does not read back as itself")
      }
      return
    }
    let response = respond(setup.app, request)
    if response.status >= 500, response.status != 503 {
      fatalError("\(response.status) for \(request.method) \(request.path)?\(request.query)")
    }
  }

  /// `app`'s answer, waited for.
  static func respond(_ app: WebApplication, _ request: WebRequest) -> WebResponse {
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    Task {
      box.response = await app.respond(to: request)
      done.signal()
    }
    done.wait()
    return box.response ?? WebResponse(status: 0, contentType: "", body: "")
  }

  /// The value of the first hidden field `name` in `html`.
  static func field(_ name: String, in html: String) -> String {
    guard let start = html.range(of: "name=\"\(name)\" value=\"") else { return "" }
    return String(html[start.upperBound...].prefix { $0 != "\"" })
  }

  final class Box: @unchecked Sendable {
    var response: WebResponse?
  }
}
