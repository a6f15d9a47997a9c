import CLibPQ
import D2SModel
import Foundation

/// Noticing a lost connection (a server restart closes it) and connecting again, once.
extension PostgreSQLConnection {
  /// Whether the connection is gone, asked without blocking: libpq knows it already, or the
  /// idle socket has something to read, which then turns out to be the server's goodbye
  /// (`terminating connection due to administrator command`) and the end of the stream.
  var isLost: Bool {
    lock.lock()
    defer { lock.unlock() }
    if PQstatus(handle) == CONNECTION_BAD { return true }
    // Rows still coming are no goodbye (a statement from inside a row callback asks).
    if let stream = activeStream, !stream.isFinished { return false }
    // The goodbye and the end of the stream are read one after the other.
    for _ in 0..<8 {
      var socket = pollfd(fd: PQsocket(handle), events: Int16(POLLIN), revents: 0)
      guard poll(&socket, 1, 0) > 0 else { return false }
      if PQconsumeInput(handle) == 0 || PQstatus(handle) == CONNECTION_BAD { return true }
    }
    return false
  }

  /// Connects again with the same parameters when the connection is lost (one attempt), and
  /// sends the session settings again.
  /// - Throws: a `connection` error when the server cannot be reached.
  func reconnectIfLost() throws {
    lock.lock()
    defer { lock.unlock() }
    guard isLost else { return }
    PQreset(handle)
    // A new session: the old one's prepared statements are gone.
    prepared.removeAll()
    sentOnce.removeAll()
    guard PQstatus(handle) == CONNECTION_OK else {
      let reason = String(cString: PQerrorMessage(handle)).trimmingCharacters(
        in: .whitespacesAndNewlines)
      throw DatabaseError(
        .connection, "the connection to PostgreSQL was lost and could not be made again: \(reason)")
    }
    _ = try run(SQLStatement(raw: sessionSettings), simple: true)
  }
}
