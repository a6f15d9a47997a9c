/// The name a command's help and usage lines give it: the name it was started by, so that a
/// custom REPL or server (`dvd-repl`, built on `D2SREPLCommand.main(plugins:)`) says its own.
package enum ExecutableName {
  /// The last path component of `argument0` (`CommandLine.arguments[0]`), or `fallback` when
  /// there is none.
  package static func of(_ argument0: String?, fallback: String) -> String {
    let name = argument0?.split(separator: "/").last.map(String.init) ?? ""
    return name.isEmpty ? fallback : name
  }
}
