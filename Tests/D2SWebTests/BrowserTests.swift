import D2STesting
import Foundation
import Testing

/// A real browser (Debian's headless Chromium, driven by chromedriver over the WebDriver
/// protocol) against the built `d2s-serve`: the entity list, a list, a filter, the next page
/// and an inspect page, with a screenshot of each step in the test's folder. A machine
/// without the browser fails this test: `make deps` installs it.
@Suite(.serialized) struct BrowserTests {
  static var serveBinary: URL {
    URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent("d2s-serve")
  }

  @Test(.timeLimit(.minutes(2)))
  func browseFilterPageAndInspectInChromium() async throws {
    let chromium = try #require(
      ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
      }, "Chromium is not installed (make deps installs Debian's chromium)")
    let driverPath = "/usr/bin/chromedriver"
    try #require(
      FileManager.default.isExecutableFile(atPath: driverPath),
      "chromedriver is not installed (make deps installs Debian's chromium-driver)")
    try #require(
      FileManager.default.fileExists(atPath: Self.serveBinary.path), "build d2s-serve first")

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-browser-" + UUID().uuidString)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let server = try ChildProcess(
      Self.serveBinary.path, [try SakilaSQLite.copy(), "--port", "0"], folder: folder)
    defer { server.stop() }
    let base = try #require(
      try server.waitForLine(prefix: "listening on ", seconds: 20).map {
        String($0.dropFirst("listening on ".count))
      }, "d2s-serve did not say where it listens")

    let driverPort = try FreePort.pick()
    let driver = try ChildProcess(driverPath, ["--port=\(driverPort)"], folder: folder)
    defer { driver.stop() }
    let browser = try await WebDriver.start(
      port: driverPort, chromium: chromium, profile: folder.appendingPathComponent("profile").path)
    var screenshots: [String] = []
    func shoot(_ name: String) async throws {
      let path = folder.appendingPathComponent(name + ".png")
      try await browser.screenshot().write(to: path)
      screenshots.append(path.path)
    }
    do {
      try await browser.open(base + "/")
      try await shoot("1-entities")
      #expect(try await browser.text("h1").isEmpty == false)
      try await browser.click("a[href='/Film']")
      #expect(try await browser.text("h1") == "Film")
      try await shoot("2-list")

      try await browser.type("#f-where", "title like 'A*'")
      try await browser.type("#f-order", "title")
      try await browser.type("#f-limit", "5")
      try await browser.click("form.filter button")
      #expect(try await browser.text("tbody tr td a") == "ACADEMY DINOSAUR")
      #expect(try await browser.text("p.total") == "1–5 of 46 Film")
      try await shoot("3-filtered")

      try await browser.click("a[rel='next']")
      #expect(try await browser.text("p.total") == "6–10 of 46 Film")
      let row = try await browser.text("tbody tr td a")
      #expect(row == "AGENT TRUMAN")
      try await shoot("4-next")

      try await browser.click("tbody tr td a")
      #expect(try await browser.text("h1") == row)
      try await shoot("5-inspect")
    } catch {
      try? await browser.quit()
      throw error
    }
    try await browser.quit()
    print("browser screenshots:\n" + screenshots.joined(separator: "\n"))
    #expect(screenshots.count == 5)
  }
}

/// A child process whose standard output is read line by line; stopped at the end.
final class ChildProcess: @unchecked Sendable {
  let process = Process()
  let output: URL

  init(_ program: String, _ arguments: [String], folder: URL) throws {
    output = folder.appendingPathComponent(
      URL(fileURLWithPath: program).lastPathComponent + "-\(UUID().uuidString).log")
    FileManager.default.createFile(atPath: output.path, contents: nil)
    let handle = try FileHandle(forWritingTo: output)
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
  }

  /// The first line of output starting with `prefix`, waiting at most `seconds`.
  func waitForLine(prefix: String, seconds: Double) throws -> String? {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
      let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
      if let line = text.split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
        return String(line)
      }
      guard process.isRunning else { return nil }
      Thread.sleep(forTimeInterval: 0.1)
    }
    return nil
  }

  /// Ends the process (SIGTERM, then SIGKILL after 5 s); waits at most 10 s in all.
  func stop() {
    guard process.isRunning else { return }
    let pid = process.processIdentifier
    kill(pid, SIGTERM)
    for step in 0..<100 where process.isRunning {
      if step == 50 { kill(pid, SIGKILL) }
      Thread.sleep(forTimeInterval: 0.1)
    }
  }
}

/// A port no one listens on now.
enum FreePort {
  static func pick() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BrowserError("no socket") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard bound else { throw BrowserError("no free port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}

struct BrowserError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

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

  func text(_ selector: String) async throws -> String {
    let id = try await element(selector)
    return try await Self.value("GET", endpoint + "/element/\(id)/text") as? String ?? ""
  }

  func screenshot() async throws -> Data {
    guard let text = try await Self.value("GET", endpoint + "/screenshot") as? String,
      let data = Data(base64Encoded: text)
    else { throw BrowserError("no screenshot") }
    return data
  }

  func quit() async throws { _ = try await Self.value("DELETE", endpoint) }

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
    let data = try LoopbackHTTP.request(method, url, body: payload)
    let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
    if let value = object?["value"] as? [String: Any], let error = value["error"] as? String {
      throw BrowserError("\(method) \(url): \(error): \(value["message"] ?? "")")
    }
    return object?["value"]
  }
}

/// HTTP/1.1 to a loopback server, one connection per request (`Connection: close`), read to its end (30 s at
/// most): enough for WebDriver's JSON, with nothing between the test and the socket.
enum LoopbackHTTP {
  static func request(_ method: String, _ url: String, body: Data?) throws -> Data {
    guard let components = URLComponents(string: url), let port = components.port else {
      throw BrowserError("bad URL \(url)")
    }
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw BrowserError("no socket") }
    defer { close(fd) }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard connected else { throw BrowserError("cannot connect to \(url)") }
    let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    if let body {
      head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
    }
    var bytes = Array((head + "\r\n").utf8) + Array(body ?? Data())
    while !bytes.isEmpty {
      let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
      guard sent > 0 else { throw BrowserError("cannot send to \(url)") }
      bytes.removeFirst(sent)
    }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    let separator: [UInt8] = [13, 10, 13, 10]
    var bodyStart: Int?
    var length: Int?
    while answer.count < 64 << 20 {
      let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if got == 0 { break }
      guard got > 0 else { throw BrowserError("no answer from \(url)") }
      answer += buffer[0..<got]
      if bodyStart == nil,
        let end = (0..<max(0, answer.count - 3)).first(where: {
          Array(answer[$0..<$0 + 4]) == separator
        })
      {
        bodyStart = end + 4
        let head = String(decoding: answer[..<end], as: UTF8.self).lowercased()
        length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
          .flatMap {
            Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
          }
      }
      if let bodyStart, let length, answer.count - bodyStart >= length { break }
    }
    guard let bodyStart else { throw BrowserError("no HTTP answer from \(url)") }
    return Data(answer[bodyStart...])
  }
}
