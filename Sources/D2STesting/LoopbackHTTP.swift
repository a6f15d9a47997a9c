import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A child process whose standard output is read line by line; stopped at the end.
public final class ChildProcess: @unchecked Sendable {
  /// The running process.
  public let process = Process()
  /// The file its standard output and error go to.
  public let output: URL

  /// Starts `program` with `arguments`, its output to a new file in `folder`.
  public init(_ program: String, _ arguments: [String], folder: URL) throws {
    output = folder.appendingPathComponent(
      URL(fileURLWithPath: program).lastPathComponent + "-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let handle = try FileHandle(forWritingTo: output)
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
  }

  /// What the process wrote so far (standard output and error).
  public var log: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

  /// The first line of output starting with `prefix`, waiting at most `seconds`.
  public func waitForLine(prefix: String, seconds: Double) throws -> String? {
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
  public func stop() {
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
public enum FreePort {
  /// A free loopback port.
  public static func pick() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw LoopbackError("no socket") }
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
    guard bound else { throw LoopbackError("no free port") }
    return Int(UInt16(bigEndian: address.sin_port))
  }
}

/// A loopback connection or process that failed.
public struct LoopbackError: Error, CustomStringConvertible {
  /// What went wrong.
  public let description: String
  /// An error saying `description`.
  public init(_ description: String) { self.description = description }
}

/// An HTTP answer: status, head (lowercased) and body.
public struct HTTPAnswer: Sendable {
  /// The values of the header `name` (in any case), as sent, in order.
  public func headers(_ name: String) -> [String] {
    rawHead.split(separator: "\r\n").compactMap { line in
      guard line.lowercased().hasPrefix(name.lowercased() + ":") else { return nil }
      return line.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces)
    }
  }

  /// The status code.
  public var status: Int
  /// The status line and headers, lowercased.
  public var head: String
  /// The status line and headers as sent.
  public var rawHead: String = ""
  /// The body.
  public var body: Data
  /// The body as UTF-8 text.
  public var text: String { String(decoding: body, as: UTF8.self) }
}

/// HTTP/1.1 to a loopback server, one connection per request (`Connection: close`), read
/// to its end (30 s at most): enough for WebDriver's JSON and d2s-serve's pages, with
/// nothing between the test and the socket.
public enum LoopbackHTTP {
  /// One request; `body` is sent with `contentType` (JSON unless told), `host` overrides the
  /// `Host` header, `headers` are added (`Cookie`).
  public static func request(
    _ method: String, _ url: String, body: Data? = nil, host: String? = nil,
    contentType: String = "application/json", headers: [(String, String)] = []
  )
    throws -> HTTPAnswer
  {
    guard let components = URLComponents(string: url), let port = components.port else {
      throw LoopbackError("bad URL \(url)")
    }
    let socket = try LoopbackSocket(port: port, timeout: 30)
    defer { withExtendedLifetime(socket) {} }
    let fd = socket.fd
    var target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
    if let query = components.percentEncodedQuery { target += "?" + query }
    var head =
      "\(method) \(target) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    if let body {
      head += "Content-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n"
    }
    var bytes = Array((head + "\r\n").utf8) + Array(body ?? Data())
    while !bytes.isEmpty {
      let sent = bytes.withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { throw LoopbackError("cannot send to \(url)") }
      bytes.removeFirst(sent)
    }
    var answer: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    let separator: [UInt8] = [13, 10, 13, 10]
    var bodyStart: Int?
    var length: Int?
    var responseHead = ""
    var rawHead = ""
    while answer.count < 64 << 20 {
      let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
      if got == 0 { break }
      guard got > 0 else { throw LoopbackError("no answer from \(url)") }
      answer += buffer[0..<got]
      if bodyStart == nil,
        let end = (0..<max(0, answer.count - 3)).first(where: {
          answer[$0] == separator[0] && answer[$0 + 1] == separator[1]
            && answer[$0 + 2] == separator[2] && answer[$0 + 3] == separator[3]
        })
      {
        bodyStart = end + 4
        rawHead = String(decoding: answer[..<end], as: UTF8.self)
        responseHead = rawHead.lowercased()
        length = responseHead.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
          .flatMap {
            Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
          }
      }
      if let bodyStart, let length, answer.count - bodyStart >= length { break }
    }
    guard let bodyStart else { throw LoopbackError("no HTTP answer from \(url)") }
    let status = responseHead.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    return HTTPAnswer(
      status: status, head: responseHead, rawHead: rawHead, body: Data(answer[bodyStart...]))
  }
}

/// A raw TCP connection to a loopback port, for clients that misbehave on purpose (slow,
/// gone mid-answer); closed when released. Sendable: its descriptor never changes, and one
/// thread sends while another may receive, as the system calls allow.
public final class LoopbackSocket: @unchecked Sendable {
  let fd: Int32

  /// Connects to `port`; reads wait at most `timeout` seconds.
  ///
  /// The socket is closed once: here when the connection fails (before `fd` is set, so that
  /// `deinit` does not run), otherwise when released. A second `close` of the same number would
  /// end whatever another thread had opened under it in between.
  public init(port: Int, timeout: Int = 30) throws {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw LoopbackError("no socket") }
    var limit = timeval(tv_sec: timeout, tv_usec: 0)
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    let connected = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
      }
    }
    guard connected else {
      close(fd)
      throw LoopbackError("cannot connect to port \(port)")
    }
    self.fd = fd
  }

  deinit { close(fd) }

  /// This end's port.
  public var localPort: Int {
    var address = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
    }
    return named ? Int(UInt16(bigEndian: address.sin_port)) : 0
  }

  /// Whether the server on `port` has read everything sent to it on the connection from
  /// `clientPort`, as the kernel tells (`/proc/net/tcp`: the server's end, with nothing left
  /// in its receive queue). Once a request is sent, this says the server has taken it.
  public static func serverHasRead(port: Int, from clientPort: Int) -> Bool {
    // Read to its end: `String(contentsOfFile:)` takes a file's size from `stat`, 0 here, and
    // so reads the kernel's first page only (27 of the table's lines).
    guard let file = FileHandle(forReadingAtPath: "/proc/net/tcp"),
      let bytes = try? file.readToEnd()
    else { return false }
    let table = String(decoding: bytes, as: UTF8.self)
    let local = String(format: ":%04X", port)
    let remote = String(format: ":%04X", clientPort)
    return table.split(separator: "\n").contains { line in
      let fields = line.split(separator: " ")
      guard fields.count > 4, fields[1].hasSuffix(local), fields[2].hasSuffix(remote) else {
        return false
      }
      return fields[4].split(separator: ":").last.map { Int($0, radix: 16) == 0 } ?? false
    }
  }

  /// Sends `text`; false when the peer has closed the connection.
  @discardableResult
  public func send(_ text: String) -> Bool {
    var bytes = Array(text.utf8)
    while !bytes.isEmpty {
      let sent = bytes.withUnsafeBytes {
        Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      guard sent > 0 else { return false }
      bytes.removeFirst(sent)
    }
    return true
  }

  /// Reads what arrives next: the bytes, empty when the peer closed the connection, nil when
  /// nothing came within the timeout.
  public func receive(upTo count: Int = 65536) -> [UInt8]? {
    var buffer = [UInt8](repeating: 0, count: count)
    let got = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
    if got < 0 { return errno == EAGAIN || errno == EWOULDBLOCK ? nil : [] }
    return Array(buffer[0..<got])
  }
}
