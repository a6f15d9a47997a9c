import EnvKeys

/// A text area's line breaks as the stored text had them. Browsers send every line break of
/// a form as CR LF, which the server reads as LF; a stored text whose lines end with CR LF
/// (or CR alone) keeps that form when edited, on the lines left alone as on the new ones.
enum LineBreaks {
  /// `posted` (its lines ending with LF) with the line breaks of `stored`: CR LF when the
  /// stored text's line breaks are all CR LF, CR when they are all CR; else as posted.
  static func restore(_ posted: String, like stored: DatabaseValue?) -> String {
    guard case .string(let text)? = stored, posted.utf8.contains(UInt8(ascii: "\n")) else {
      return posted
    }
    var crlf = 0
    var cr = 0
    var lf = 0
    var previous: UInt8 = 0
    for byte in text.utf8 {
      if byte == UInt8(ascii: "\n") {
        if previous == UInt8(ascii: "\r") { crlf += 1 } else { lf += 1 }
      } else if previous == UInt8(ascii: "\r") {
        cr += 1
      }
      previous = byte
    }
    if previous == UInt8(ascii: "\r") { cr += 1 }
    let breakText =
      switch (crlf, cr, lf) {
      case (1..., 0, 0): "\r\n"
      case (0, 1..., 0): "\r"
      default: "\n"
      }
    return breakText == "\n" ? posted : posted.replacingOccurrences(of: "\n", with: breakText)
  }
}
