import Synchronization

extension Database {
  /// The failures that mean the database could not answer, not that the answer is empty: a
  /// lock held past the busy timeout, the statement timeout or Ctrl-C, a lost connection, the
  /// disk.
  static let unansweredCodes: Set<DatabaseError.Code> = [.locked, .interrupted, .connection, .io]

  /// Keeps `error`, raised by a relationship read that key-value coding cannot throw (a rule,
  /// a component or a page reading `object.owner`), when it means the database could not
  /// answer; the first one is kept until ``throwFailedRead()`` throws it.
  func noteFailedRead(_ error: any Error) {
    guard let failure = error as? DatabaseError, Self.unansweredCodes.contains(failure.code)
    else { return }
    failedRead.withLock { kept in
      if kept == nil { kept = failure }
    }
  }

  /// Throws, once, the first relationship read the database could not answer since the last
  /// call: a value read then was taken for nil (no owner, no items), so what was made of it
  /// (a page, a permission, a title) must not be shown or acted on. A save, a delete and a
  /// change of links call it before they write; the front ends call it after each page,
  /// command or tool call.
  public func throwFailedRead() throws {
    if let failure = failedRead.withLock({ kept in kept.take() }) { throw failure }
  }
}

extension Database {
  /// Forgets a failed read left by work that ended in an error of its own, before the next
  /// page, command or tool call begins.
  package func forgetFailedRead() {
    failedRead.withLock { $0 = nil }
  }

  /// `body`'s value, unless a relationship it read could not be answered: then that failure,
  /// whether `body` returned or threw an error of its own (a refusal made on the missing
  /// value, "you may not edit", is not the answer). A failure left by earlier work is
  /// forgotten first.
  package func readingAnswered<T>(_ body: () throws -> T) throws -> T {
    forgetFailedRead()
    let value: T
    do {
      value = try body()
    } catch {
      try throwFailedRead()
      throw error
    }
    try throwFailedRead()
    return value
  }
}
