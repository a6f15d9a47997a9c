import D2SHTML

extension WebResponse {
  /// `/-/static/d2s.css`: the stylesheet, built into the binary.
  static let stylesheet = WebResponse(
    contentType: "text/css; charset=utf-8", headers: [("Cache-Control", "max-age=3600")],
    body: Stylesheet.text)
}
