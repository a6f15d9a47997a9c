import D2STesting
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A Unix-socket relay in front of a ``PrivatePostgres`` server that can lose a reply: after
/// ``cut()`` the client's side is closed at once, while the server's side is read until the
/// server answers (the COMMIT it was running has then finished), and only then are new
/// connections let through. So a COMMIT is applied and its client never hears of it, as
/// when a network drops the reply.
final class PostgresProxy: @unchecked Sendable {
  let folder: URL
  let port: Int
  private let serverPath: String
  private let listener: Int32
  private let condition = NSCondition()
  private var held = false
  private var clients: [Int32] = []

  /// The URL of database `faults` through the relay.
  var url: String { "postgresql://postgres@/faults?host=\(folder.path)&port=\(port)" }

  struct Failure: Error, CustomStringConvertible { var description: String }

  init(_ server: PrivatePostgres) throws {
    port = server.port
    serverPath = server.base.path + "/.s.PGSQL.\(server.port)"
    folder = server.base.appendingPathComponent("proxy")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard listener >= 0,
      Self.withAddress(folder.path + "/.s.PGSQL.\(port)", { bind(listener, $0, $1) }) == 0,
      listen(listener, 8) == 0
    else { throw Failure(description: "cannot listen: \(String(cString: strerror(errno)))") }
    Thread { [self] in acceptConnections() }.start()
  }

  deinit {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
  }

  /// Drops the clients' side of every connection now; holds new connections until the
  /// server has answered what it was running.
  func cut() {
    condition.lock()
    held = true
    for client in clients { shutdown(client, Int32(SHUT_RDWR)) }
    clients.removeAll()
    condition.unlock()
  }

  private func acceptConnections() {
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 { return }
      Thread { [self] in relay(client) }.start()
    }
  }

  private func relay(_ client: Int32) {
    condition.lock()
    while held { condition.wait() }
    clients.append(client)
    condition.unlock()
    let server = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    guard Self.withAddress(serverPath, { connect(server, $0, $1) }) == 0 else {
      condition.lock()
      clients.removeAll { $0 == client }  // before its number can be reused
      condition.unlock()
      close(server)
      close(client)
      return
    }
    // The client-to-server copy runs on a thread of its own, and both sockets stay open until
    // it has ended: closed under it, their numbers could be reused by another thread's
    // connection (a test's libpq socket), which the copy would then read or shut down.
    let upstreamEnded = DispatchSemaphore(value: 0)
    Thread {
      Self.copy(from: client, to: server)
      upstreamEnded.signal()
    }.start()
    // Server to client; once the client is cut, the server's answer is read and dropped.
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(server, &buffer, buffer.count)
      if count <= 0 { break }
      if send(client, buffer, count, Int32(MSG_NOSIGNAL)) != count {
        condition.lock()
        held = false
        condition.broadcast()
        condition.unlock()
        break
      }
    }
    condition.lock()
    clients.removeAll { $0 == client }
    condition.unlock()
    shutdown(server, Int32(SHUT_RDWR))
    shutdown(client, Int32(SHUT_RDWR))  // ends the copy's read
    upstreamEnded.wait()
    close(server)
    close(client)
  }

  private static func copy(from source: Int32, to target: Int32) {
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(source, &buffer, buffer.count)
      if count <= 0 || send(target, buffer, count, Int32(MSG_NOSIGNAL)) != count { break }
    }
    shutdown(target, Int32(SHUT_WR))
  }

  private static func withAddress(
    _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
  ) -> Int32 {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8) + [0]
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: bytes.prefix(raw.count))
    }
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
  }
}
