/// Words searched through an entity's full-text index: each must begin a word the index
/// holds (a prefix query), in any of the indexed columns, or in `columns` only when given.
public struct FullTextSearch: Sendable, Hashable {
  /// The words, as typed.
  public var words: [String]
  /// The columns searched (a subset of the index's); nil for all it indexes.
  public var columns: [String]?

  /// A search for `words` in `columns` (nil: every indexed column).
  public init(words: [String], columns: [String]? = nil) {
    self.words = words
    self.columns = columns
  }

  /// The FTS5 query: each word a quoted prefix (`"dino"*`), all required, within the columns
  /// when given (`{"title" "description"} : ("dino"* AND "park"*)`).
  public var fts5Query: String {
    func quoted(_ text: String) -> String {
      "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
    let terms = words.map { quoted($0) + "*" }.joined(separator: " AND ")
    guard let columns, !columns.isEmpty else { return terms }
    return "{" + columns.map(quoted).joined(separator: " ") + "} : (" + terms + ")"
  }

  /// The `to_tsquery` text: each run of letters and digits of the words a prefix
  /// (`dino:* & park:*`), all required; nil when the words hold none.
  public var tsQuery: String? {
    let runs = words.flatMap { word in
      word.split { !($0.isLetter || $0.isNumber) }.map(String.init)
    }
    guard !runs.isEmpty else { return nil }
    return runs.map { $0 + ":*" }.joined(separator: " & ")
  }
}
