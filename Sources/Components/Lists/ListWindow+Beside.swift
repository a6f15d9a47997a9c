/// Where a window beside the one shown starts: the number of its first row and the position
/// it starts after or before (the REPL's `offset 20 after TOKEN`, a URL's `after=` and
/// `offset=`).
public struct WindowStart: Sendable, Equatable {
  /// The number of the window's first row, from 0.
  public var offset: Int
  /// The position token the window starts after (the next window) or ends before (the
  /// previous one).
  public var token: String
}

extension ListWindow {
  /// The window after this one, when more rows follow: after its last row, numbered on from
  /// `offset` (this window's).
  public func next(offset: Int, in identity: ListIdentity) -> WindowStart? {
    guard more, let token = ListPosition(last, in: identity).token else { return nil }
    return WindowStart(offset: offset + rows, token: token)
  }

  /// The window before this one, when it is not the list's first (`offset` above 0, or the
  /// window was reached by a position): before its first row, `limit` rows back.
  public func previous(offset: Int, limit: Int, positioned: Bool, in identity: ListIdentity)
    -> WindowStart?
  {
    guard offset > 0 || positioned, let token = ListPosition(first, in: identity).token else {
      return nil
    }
    return WindowStart(offset: max(0, offset - limit), token: token)
  }
}
