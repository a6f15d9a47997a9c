import D2STesting
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A connection that cannot be made closes its socket once: a second close would end whatever
/// another thread opened in between under the same number (a database connection, a pipe).
@Suite struct LoopbackSocketTests {
  @Test(.timeLimit(.minutes(1)))
  func aRefusedConnectionLeavesOtherDescriptorsOpen() async throws {
    let port = try FreePort.pick()
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
}
