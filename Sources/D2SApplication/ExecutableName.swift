/// The name a command's help and usage lines give it: the name it was started by, so that a
/// custom REPL or server (`dvd-repl`, built on `D2SREPLCommand.main(plugins:)`) says its own.
package enum ExecutableName {
  /// The last path component of `argument0` (`CommandLine.arguments[0]`), or `fallback` when
  /// there is none.
  package static func of(_ argument0: String?, fallback: String) -> String {
    // Over the bytes: splitting made an array of substrings, a type the runtime built anew
    // at each start.
    guard let argument0 else { return fallback }
    let bytes = argument0.utf8
    let slash = UInt8(ascii: "/")
    var end = bytes.endIndex
    while end > bytes.startIndex, bytes[bytes.index(before: end)] == slash {
      end = bytes.index(before: end)
    }
    let start = bytes[..<end].lastIndex(of: slash).map(bytes.index(after:)) ?? bytes.startIndex
    let name = String(argument0[start..<end])
    return name.isEmpty ? fallback : name
  }
}
