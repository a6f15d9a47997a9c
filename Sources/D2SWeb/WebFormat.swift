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

  /// Whether an `Accept` header prefers `application/json` to HTML: its quality (`q=`,
  /// 1 when not given) is above 0 and not below `text/html`'s (or `text/*`'s, or `*/*`'s, when
  /// HTML is not named). Media types are read in any case. A header that does not mention
  /// JSON (a browser's) is answered without being parsed.
  static func prefersJSON(_ accept: String) -> Bool {
    guard mentionsJSON(accept) else { return false }
    var json: Double?
    var html: Double?
    var htmlSpecificity = -1
    for range in accept.split(separator: ",") {
      let parts = range.split(separator: ";")
      guard let type = parts.first?.trimmingCharacters(in: .whitespaces).lowercased() else {
        continue
      }
      var quality = 1.0
      for parameter in parts.dropFirst() {
        let pair = parameter.split(separator: "=", maxSplits: 1).map {
          $0.trimmingCharacters(in: .whitespaces).lowercased()
        }
        if pair.count == 2, pair[0] == "q" {
          quality = Double(pair[1]).map { min(max($0, 0), 1) } ?? 0
        }
      }
      switch type {
      case "application/json": json = max(json ?? 0, quality)
      case "text/html", "text/*", "*/*":
        let specificity = type == "text/html" ? 2 : type == "text/*" ? 1 : 0
        if specificity > htmlSpecificity {
          htmlSpecificity = specificity
          html = quality
        }
      default: continue
      }
    }
    guard let json, json > 0 else { return false }
    return json >= (html ?? 0)
  }

  /// Whether `text` holds `json` in any case, read in place (Foundation's search bridges to
  /// NSString and costs more than the scan of a header).
  static func mentionsJSON(_ text: String) -> Bool {
    var text = text
    return text.withUTF8 { bytes in
      guard bytes.count >= 4 else { return false }
      for start in 0...(bytes.count - 4)
      where bytes[start] | 0x20 == UInt8(ascii: "j") && bytes[start + 1] | 0x20 == UInt8(ascii: "s")
        && bytes[start + 2] | 0x20 == UInt8(ascii: "o")
        && bytes[start + 3] | 0x20 == UInt8(ascii: "n")
      {
        return true
      }
      return false
    }
  }

  /// The format `parameters` and an `Accept` header ask for: `format=` wins; `csv=` takes
  /// `safe` and `shown`, separated by commas.
  static func requested(_ parameters: [(String, String)], accept: String?) throws -> WebFormat {
    guard let format = parameters.last(where: { $0.0 == "format" })?.1 else {
      return accept.map(prefersJSON) == true ? .json : .html
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
