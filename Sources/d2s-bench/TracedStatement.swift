import Foundation

/// The page statement `d2s-repl --trace` shows for a `next`: trace lines on stderr read
/// `sql 1.2 ms, 5 bound: SELECT …` (`, concurrent` before the colon for a statement run on
/// another thread, such as a count).
enum TracedStatement {
  /// The script traced: page 1, then `next`.
  static let script = ["list Event order by happenedAt limit 20", "next"]

  /// Runs `command` (d2s-repl and its database) with `--trace` over ``script``; returns the
  /// last `SELECT … ORDER BY …` run on the command's own thread (the `next` page's), or why
  /// there is none.
  static func page(
    _ command: [String], folder: URL, environment: [String: String] = [:]
  ) throws -> Result<String, BenchError> {
    let errors = folder.appendingPathComponent("trace-stderr.txt").path
    let arguments = command + ["--trace"] + script.flatMap { ["-c", $0] }
    let run = try ProcessRun.run(arguments, environment: environment, standardError: errors)
    let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
    let statements = text.split(separator: "\n").compactMap(statement)
    guard run.status == 0, let page = statements.last(where: { $0.contains(" ORDER BY ") })
    else {
      let excerpt = text.split(separator: "\n").prefix(2).joined(separator: " / ")
      return .failure(
        BenchError(
          "no traced page statement: status \(run.status); stderr: "
            + (excerpt.isEmpty ? "(empty)" : excerpt)))
    }
    return .success(page)
  }

  /// The SQL of a trace line for a statement run on the command's own thread, else nil.
  static func statement(_ line: Substring) -> String? {
    guard line.hasPrefix("sql "), let colon = line.range(of: ": ") else { return nil }
    let head = line[..<colon.lowerBound]
    guard !head.contains("concurrent") else { return nil }
    let sql = line[colon.upperBound...]
    return sql.hasPrefix("SELECT") ? String(sql) : nil
  }
}
