import Foundation

/// A text file read whole, with a reason a person can act on when it cannot be: it is a
/// directory, it does not exist, it may not be read, it is not UTF-8. (Foundation's own
/// errors read "NSCocoaErrorDomain error 256" for a directory, and "You don't have
/// permission" for `/dev/null`, which it cannot size.)
public enum TextFile {
  /// Why a file could not be read.
  public struct ReadError: Error, CustomStringConvertible, Sendable {
    /// The path as given.
    public let path: String
    /// `it is a directory`, `no such file`, `it may not be read`, `it is not UTF-8 text`.
    public let reason: String
    /// `PATH: REASON`.
    public var description: String { "\(path): \(reason)" }
  }

  /// The text of the file at `path`; a device such as `/dev/null` is read as it gives.
  public static func read(_ path: String) throws(ReadError) -> String {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw ReadError(path: path, reason: "no such file")
    }
    guard !isDirectory.boolValue else { throw ReadError(path: path, reason: "it is a directory") }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      throw ReadError(path: path, reason: "it may not be read")
    }
    defer { try? handle.close() }
    let data: Data
    do {
      data = try handle.readToEnd() ?? Data()
    } catch {
      throw ReadError(path: path, reason: "it could not be read (\(error.localizedDescription))")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ReadError(path: path, reason: "it is not UTF-8 text")
    }
    return text
  }
}
