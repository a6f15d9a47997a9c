import D2STesting
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A connection that cannot be made closes its socket once: a second close would end whatever
/// another thread opened in between under the same number (a database connection, a pipe).
/// And a server's having read a request is told by the kernel's queue.
@Suite struct LoopbackSocketTests {
  /// A socket bound to a loopback port of its own (closed by the caller), and that port.
  static func bound() throws -> (Int32, Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let named = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
      }
    }
    guard fd >= 0, named else {
      if fd >= 0 { close(fd) }
      throw LoopbackError("no port")
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
  }

  @Test(.timeLimit(.minutes(1)))
  func aRefusedConnectionLeavesOtherDescriptorsOpen() async throws {
    // A port bound and not listening: refused, and no other test can take it meanwhile.
    let (bound, port) = try Self.bound()
    defer { close(bound) }
    let stop = Mutex(false)
    // Another thread opens descriptors, one at a time, and checks each is still its own.
    let lost = Task.detached { () -> Int in
      var lost = 0
      while !stop.withLock({ $0 }) {
        let fd = open("/dev/null", O_RDONLY)
        var open = true
        for _ in 0..<50 where open { open = fcntl(fd, F_GETFD) != -1 }
        if open { close(fd) } else { lost += 1 }
      }
      return lost
    }
    var refused = 0
    for _ in 0..<2_000 {
      do { _ = try LoopbackSocket(port: port, timeout: 1) } catch { refused += 1 }
    }
    stop.withLock { $0 = true }
    #expect(refused == 2_000)
    #expect(await lost.value == 0, "descriptors of another thread were closed")
  }

  @Test func aRequestIsReadOnceTheServersQueueIsEmpty() throws {
    // A hundred other listeners come first in the kernel's table, past the first page it
    // gives a reader: the table is read whole, as on a machine running many servers.
    var others: [Int32] = []
    defer { for other in others { close(other) } }
    for _ in 0..<100 {
      let (other, _) = try Self.bound()
      others.append(other)
      listen(other, 1)
    }
    let (listener, port) = try Self.bound()
    defer { close(listener) }
    try #require(listen(listener, 4) == 0)
    let client = try LoopbackSocket(port: port, timeout: 5)
    #expect(client.send("GET / HTTP/1.1\r\n\r\n"))
    // Sent, and waiting in the server's queue: not read yet (never accepted, so it stays).
    #expect(!LoopbackSocket.serverHasRead(port: port, from: client.localPort))
    let accepted = accept(listener, nil, nil)
    try #require(accepted >= 0)
    defer { close(accepted) }
    var buffer = [UInt8](repeating: 0, count: 64)
    #expect(recv(accepted, &buffer, buffer.count, 0) == 18)
    #expect(LoopbackSocket.serverHasRead(port: port, from: client.localPort))
  }
}
