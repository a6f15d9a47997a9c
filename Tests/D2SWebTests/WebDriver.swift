import D2STesting
import Foundation
import Testing

/// The few WebDriver commands the test uses, as JSON over HTTP to chromedriver.
struct WebDriver {
  let endpoint: String

  static let elementKey = "element-6066-11e4-a52e-4f735466cecf"

  /// A headless Chromium session, once chromedriver answers (within 20 s).
  static func start(port: Int, chromium: String, profile: String) async throws -> WebDriver {
    let root = "http://127.0.0.1:\(port)"
    var ready = false
    var last = "no answer"
    for _ in 0..<80 where !ready {
      do {
        let status = try await call("GET", root + "/status")
        ready = (status["ready"] as? Bool) == true
        last = "\(status)"
      } catch {
        last = "\(error)"
      }
      if !ready { try await Task.sleep(for: .milliseconds(250)) }
    }
    guard ready else { throw BrowserError("chromedriver did not start: \(last)") }
    let options: [String: Any] = [
      "binary": chromium,
      "args": [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
        "--window-size=1200,900", "--user-data-dir=\(profile)",
      ],
    ]
    let session = try await call(
      "POST", root + "/session",
      ["capabilities": ["alwaysMatch": ["browserName": "chrome", "goog:chromeOptions": options]]])
    guard let id = session["sessionId"] as? String else {
      throw BrowserError("no session: \(session)")
    }
    return WebDriver(endpoint: root + "/session/" + id)
  }

  func open(_ url: String) async throws {
    _ = try await Self.call("POST", endpoint + "/url", ["url": url])
  }

  func element(_ selector: String) async throws -> String {
    let found = try await Self.call(
      "POST", endpoint + "/element", ["using": "css selector", "value": selector])
    guard let id = found[Self.elementKey] as? String else {
      throw BrowserError("no element \(selector): \(found)")
    }
    return id
  }

  func click(_ selector: String) async throws {
    let id = try await element(selector)
    _ = try await Self.call("POST", endpoint + "/element/\(id)/click", [:])
  }

  func type(_ selector: String, _ text: String) async throws {
    let id = try await element(selector)
    _ = try await Self.call("POST", endpoint + "/element/\(id)/clear", [:])
    _ = try await Self.call("POST", endpoint + "/element/\(id)/value", ["text": text])
  }

  /// The current value of the form control `selector`.
  func value(_ selector: String) async throws -> String {
    let id = try await element(selector)
    return try await Self.value("GET", endpoint + "/element/\(id)/property/value") as? String ?? ""
  }

  func text(_ selector: String) async throws -> String {
    let id = try await element(selector)
    return try await Self.value("GET", endpoint + "/element/\(id)/text") as? String ?? ""
  }

  /// The text of `selector` once it is `expected`, or its last text after 10 s (pages load
  /// after a click; an element of the page before may be gone meanwhile).
  func waitForText(_ selector: String, _ expected: String) async throws -> String {
    var last = ""
    for _ in 0..<50 {
      if let text = try? await text(selector) {
        last = text
        if text == expected { return text }
      }
      try await Task.sleep(for: .milliseconds(200))
    }
    return last
  }

  func screenshot() async throws -> Data {
    guard let text = try await Self.value("GET", endpoint + "/screenshot") as? String,
      let data = Data(base64Encoded: text)
    else { throw BrowserError("no screenshot") }
    return data
  }

  func quit() async throws { _ = try await Self.value("DELETE", endpoint) }

  /// The window's size, in CSS pixels (390 × 844: a phone).
  func resize(width: Int, height: Int) async throws {
    _ = try await Self.call("POST", endpoint + "/window/rect", ["width": width, "height": height])
  }

  /// What `script` returns, run in the page with `arguments`.
  func execute(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
    try await Self.value(
      "POST", endpoint + "/execute/sync", ["script": script, "args": arguments])
  }

  /// What `script` passes to its last argument, a callback (axe-core's run), within 30 s.
  func executeAsync(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
    _ = try await Self.call("POST", endpoint + "/timeouts", ["script": 30_000])
    return try await Self.value(
      "POST", endpoint + "/execute/async", ["script": script, "args": arguments])
  }

  @discardableResult
  static func call(_ method: String, _ url: String, _ body: [String: Any]? = nil) async throws
    -> [String: Any]
  {
    try await value(method, url, body) as? [String: Any] ?? [:]
  }

  static func value(_ method: String, _ url: String, _ body: [String: Any]? = nil) async throws
    -> Any?
  {
    let payload = try body.map { try JSONSerialization.data(withJSONObject: $0) }
    let data = try LoopbackHTTP.request(method, url, body: payload).body
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    if let value = object?["value"] as? [String: Any], let error = value["error"] as? String {
      throw BrowserError("\(method) \(url): \(error): \(value["message"] ?? "")")
    }
    return object?["value"]
  }
}

/// Headless Chromium driven through chromedriver, both started for one test in `folder`.
struct Chromium {
  let driver: ChildProcess
  let browser: WebDriver

  /// Starts chromedriver and a browser session; a machine without them fails the test with
  /// what to install.
  static func start(folder: URL) async throws -> Chromium {
    let chromium = try #require(
      ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
      }, "Chromium is not installed (make deps installs Debian's chromium)")
    try #require(
      FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver"),
      "chromedriver is not installed (make deps installs Debian's chromium-driver)")
    let port = try FreePort.pick()
    let driver = try ChildProcess("/usr/bin/chromedriver", ["--port=\(port)"], folder: folder)
    do {
      let browser = try await WebDriver.start(
        port: port, chromium: chromium, profile: folder.appendingPathComponent("profile").path)
      return Chromium(driver: driver, browser: browser)
    } catch {
      driver.stop()
      throw error
    }
  }

  /// Ends the browser session and chromedriver.
  func stop() async {
    try? await browser.quit()
    driver.stop()
  }
}
