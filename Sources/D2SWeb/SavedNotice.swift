import D2SHTML

/// The one-time message of the page a save leads to (`Saved.`), without JavaScript: the 303
/// after a save sets a short-lived cookie naming what was done and where it leads; that page,
/// and no other, shows the message once and clears the cookie.
enum SavedNotice {
  /// The cookie's name.
  static let cookie = "d2s_done"
  /// How long the message waits for its page, in seconds.
  static let lifetime: Double = 60

  /// The `Set-Cookie` of the 303 to `location` after `done` (`saved`, `deleted`).
  static func setCookie(done: String, location: String, secure: Bool) -> (String, String) {
    WebSession.setCookie(
      cookie, HTML.queryComponent(done + "|" + location), secure: secure, lifetime: lifetime)
  }

  /// The message for the page `target` (its path and query) when the cookie leads to it
  /// (`Saved.`), with the `Set-Cookie` that clears it; nil otherwise.
  static func notice(_ request: WebRequest, secure: Bool) -> (String, (String, String))? {
    guard let value = request.cookies[cookie],
      let text = HTML.percentDecoded(Substring(value)),
      let bar = text.firstIndex(of: "|")
    else { return nil }
    let done = text[..<bar]
    let location = text[text.index(after: bar)...]
    let target = request.query.isEmpty ? request.path : request.path + "?" + request.query
    guard location == target, !done.isEmpty, done.count <= 40,
      done.allSatisfy({ $0.isLetter || $0 == " " })
    else { return nil }
    let message = done.prefix(1).uppercased() + done.dropFirst() + "."
    return (message, WebSession.setCookie(cookie, nil, secure: secure, lifetime: 0))
  }
}
