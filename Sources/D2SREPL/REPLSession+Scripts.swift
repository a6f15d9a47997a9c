import D2SModel
import EnvKeys
import Foundation

/// Scripts: `source FILE`.
extension REPLSession {
  /// How deeply `source` files may nest.
  static let maximumSourceDepth = 16

  /// `source FILE`: runs each line; the first failure stops it, naming the file and line.
  func source(_ path: String) throws -> String {
    guard sourceDepth < REPLSession.maximumSourceDepth else {
      throw REPLError("source nests deeper than \(REPLSession.maximumSourceDepth) files")
    }
    let text: String
    do { text = try TextFile.read(path) } catch {
      throw REPLError("cannot read \(path): \(error.reason)")
    }
    sourceDepth += 1
    defer { sourceDepth -= 1 }
    var output: [String] = []
    for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
    {
      do {
        try Interruption.check()  // Ctrl-C stops a long file between lines too
        let result = try run(String(line))
        if !result.isEmpty { output.append(result) }
      } catch var error as SourceError {
        // From a nested file: its own file and line say where.
        error.output = (output + [error.output]).filter { !$0.isEmpty }.joined(separator: "\n")
        throw error
      } catch {
        throw SourceError(
          path: path, line: number + 1, underlying: error,
          output: output.joined(separator: "\n"))
      }
    }
    return output.joined(separator: "\n")
  }
}
