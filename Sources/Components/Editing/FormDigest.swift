/// The values an edit form first showed, carried back by their digest when long: a form
/// holds a long value once (its control), not three times (the control, `_shown`, `_text`),
/// and what comes back is still compared with what was shown.
package enum FormDigest {
  /// The longest value a form carries back whole, in bytes.
  package static let wholeLimit = 1_024

  /// What starts a position token that is a digest (`#` and hex SHA-1): no token starts so.
  package static let tokenMark = "#"

  /// What starts a shown text that is known only by its digest, inside the server (a form's
  /// posted text never holds a NUL: forms write one as U+FFFD).
  package static let textMark = "\u{0}#"

  /// The lowercase hex SHA-1 of `text`'s UTF-8.
  package static func digest(_ text: String) -> String {
    LegacyDigest.hex(LegacyDigest.sha1(Array(text.utf8)))
  }

  /// A `_shown` token as the form carries it: whole, or past ``wholeLimit`` its digest.
  package static func token(_ token: String) -> String {
    guard token.utf8.count > wholeLimit, !token.hasPrefix(tokenMark) else { return token }
    return tokenMark + digest(token)
  }

  /// Whether `token`, a value's position token now, is what the form carried as `shown`.
  package static func token(_ token: String, matches shown: String) -> Bool {
    shown.hasPrefix(tokenMark) ? tokenMark + digest(token) == shown : token == shown
  }

  /// The digest of a text shown in a form, its line breaks as a browser sends them back
  /// (each CR LF or CR read as LF).
  package static func textDigest(_ text: String) -> String {
    // A NUL reaches the form as U+FFFD (``HTML/formValue(_:)``), and comes back so.
    digest(
      text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        .replacingOccurrences(of: "\u{0}", with: "\u{FFFD}"))
  }

  /// Whether `text`, posted, is the `shown` text (a text or a ``textMark`` and its
  /// ``textDigest(_:)``).
  package static func text(_ text: String, matches shown: String?) -> Bool {
    guard let shown else { return false }
    guard shown.hasPrefix(textMark) else { return text == shown }
    return shown.utf8.dropFirst(textMark.utf8.count).elementsEqual(textDigest(text).utf8)
  }
}
