import Foundation

/// An FTS5 virtual table as `sqlite_master` declares it, and which table's rows it indexes:
/// the one its `content=` option names (`content='film'`, `content="film"`, `content=[film]`,
/// `content=film`), or, without that option, the table whose name it extends with `_fts`
/// (`film_fts`, its rowids the film rows'), as Datasette finds them.
struct FTS5Table: Sendable, Equatable {
  /// The virtual table's name.
  let name: String
  /// The table named by `content=`, if any.
  let content: String?

  /// The FTS5 table `name` declared by `sql`; nil for another module (FTS3/4, R-tree), an
  /// external-content table whose rowids are another column's (`content_rowid=`), or a
  /// contentless one (`content=''`).
  init?(name: String, sql: String) {
    // `USING fts5(`, spaces allowed before the parenthesis (not `fts5vocab`).
    guard let using = sql.range(of: "using fts5", options: .caseInsensitive),
      let open = sql[using.upperBound...].firstIndex(where: { $0 != " " }),
      sql[open] == "("
    else { return nil }
    let arguments = sql[sql.index(after: open)...].dropLast(sql.hasSuffix(")") ? 1 : 0)
    var content: String?
    for argument in arguments.split(separator: ",") {
      let parts = argument.split(separator: "=", maxSplits: 1)
      guard parts.count == 2 else { continue }
      let option = parts[0].trimmingCharacters(in: .whitespaces).lowercased()
      let value = Self.unquoted(parts[1].trimmingCharacters(in: .whitespaces))
      if option == "content_rowid" { return nil }
      if option == "content" {
        guard !value.isEmpty else { return nil }
        content = value
      }
    }
    self.name = name
    self.content = content
  }

  /// Whether the table indexes the rows of `table`.
  func indexes(_ table: String) -> Bool {
    if let content { return content == table }
    return name == table + "_fts"
  }

  /// `'x'`, `"x"`, `[x]` or `` `x` `` without its quotes (doubled quotes made single).
  static func unquoted(_ text: String) -> String {
    guard let first = text.first, let last = text.last, text.count >= 2 else { return text }
    switch (first, last) {
    case ("'", "'"), ("\"", "\""), ("`", "`"):
      return String(text.dropFirst().dropLast()).replacingOccurrences(
        of: String(first) + String(first), with: String(first))
    case ("[", "]"): return String(text.dropFirst().dropLast())
    default: return text
    }
  }
}
