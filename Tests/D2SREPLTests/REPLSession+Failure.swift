@testable import D2SREPL

extension REPLSession {
  /// The error message `line` fails with, as the REPL prints it, or "no error".
  func failure(of line: String) -> String {
    do {
      _ = try run(line)
      return "no error"
    } catch {
      return REPLError.describe(error)
    }
  }
}
