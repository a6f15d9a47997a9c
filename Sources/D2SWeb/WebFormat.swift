import Components

/// What a page is written as: HTML for a browser, JSON for programs (`format=json` or
/// `Accept: application/json`), CSV for a download (`format=csv`, with `csv=safe` and
/// `csv=shown` as ``CSVOptions`` say).
enum WebFormat: Sendable, Equatable {
  /// A page for a browser.
  case html
  /// The page's view tree as JSON.
  case json
  /// The page as CSV: a list whole (unless `limit=` is given), as an attachment.
  case csv(CSVOptions)

  /// The renderer's platform.
  var platform: String {
    switch self {
    case .html: "html"
    case .json: "json"
    case .csv: "csv"
    }
  }

  /// The response's `Content-Type`.
  var contentType: String {
    switch self {
    case .html: "text/html; charset=utf-8"
    case .json: "application/json; charset=utf-8"
    case .csv: "text/csv; charset=utf-8; header=present"
    }
  }

  /// Whether the page is JSON.
  var isJSON: Bool { self == .json }

  /// The CSV options, when the page is CSV.
  var csvOptions: CSVOptions? {
    if case .csv(let options) = self { return options }
    return nil
  }

  /// Whether `text` holds `word`, byte for byte (Foundation's `contains` bridges to
  /// NSString, the standard library's `firstRange(of:)` sets up a generic search: each costs
  /// more than the whole scan of a header).
  static func contains(_ text: String, _ word: StaticString) -> Bool {
    var text = text
    let count = word.utf8CodeUnitCount
    let word = UnsafeBufferPointer(start: word.utf8Start, count: count)
    return text.withUTF8 { bytes in
      guard count > 0, bytes.count >= count else { return count == 0 }
      for start in 0...(bytes.count - count)
      where bytes[start] == word[0] && bytes[start..<start + count].elementsEqual(word) {
        return true
      }
      return false
    }
  }

  /// The format `parameters` and an `Accept` header ask for: `format=` wins; `csv=` takes
  /// `safe` and `shown`, separated by commas.
  static func requested(_ parameters: [(String, String)], accept: String?) throws -> WebFormat {
    guard let format = parameters.last(where: { $0.0 == "format" })?.1 else {
      return accept.map { contains($0, "application/json") } == true ? .json : .html
    }
    switch format {
    case "json": return .json
    case "csv":
      var options = CSVOptions()
      let words = parameters.last { $0.0 == "csv" }?.1.split(separator: ",") ?? []
      for word in words {
        switch word {
        case "safe": options.spreadsheetSafe = true
        case "shown": options.shownText = true
        default: throw WebError(.badRequest, "csv: expected safe, shown or both (csv=safe,shown)")
        }
      }
      return .csv(options)
    case "html": return .html
    default: throw WebError(.badRequest, "format: expected html, json or csv")
    }
  }
}
