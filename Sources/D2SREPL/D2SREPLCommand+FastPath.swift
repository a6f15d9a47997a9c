/// The command line's plain forms, parsed without ArgumentParser. Its parse reflects on every
/// option of the command (`Mirror`, type metadata by mangled name), which cost about 6 ms of
/// a 30 ms start in a profile: a fifth of a one-shot `d2s-repl DB -c COMMAND`. Anything but
/// the plain forms (help, `--version`, `--option=value`, a value starting with `-`, an option
/// given twice that takes one value, a bad number, an unknown option) goes to ArgumentParser,
/// which parses it, and reports errors, as ever.
extension D2SREPLCommand {
  /// The command's properties the fast path sets, by their names; a test keeps this equal to
  /// the command's own, so that an option added there cannot be left unset here.
  static let fastPathProperties = [
    "database", "ruleFiles", "commands", "script", "bail", "demo", "reset", "copy", "width",
    "format",
    "readOnly", "check", "update", "lint", "lintPlugin", "coverage", "timing", "trace",
    "version", "maxToManyHops", "csvSafe", "csvShown",
  ]

  /// The options that take a value.
  private static let valued: Set<String> = [
    "-c", "-f", "--rules", "--width", "--format", "--check", "--plugin", "--copy",
  ]
  /// The flags.
  private static let flags: Set<String> = [
    "--bail", "--demo", "--reset", "--read-only", "--lint", "--update", "--coverage", "--timing",
    "--trace", "--csv-safe", "--csv-shown",
  ]

  /// `arguments` as ArgumentParser would parse them, when they are in the plain forms; else nil.
  /// The options come as plain values: making the command itself sets up every option's
  /// wrapper, a million instructions of a one-shot command's start.
  static func parseFast(_ arguments: [String]) -> REPLOptions? {
    var values: [String: [String]] = [:]
    var set: Set<String> = []
    var database: String?
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if valued.contains(argument) {
        guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("-") else { return nil }
        values[argument, default: []].append(arguments[index + 1])
        index += 2
      } else if flags.contains(argument) {
        guard set.insert(argument).inserted else { return nil }
        index += 1
      } else {
        guard !argument.hasPrefix("-"), database == nil else { return nil }
        database = argument
        index += 1
      }
    }
    for single in ["-f", "--width", "--format", "--check", "--plugin", "--copy"]
    where values[single, default: []].count > 1 {
      return nil
    }
    var width: Int?
    if let text = values["--width"]?.first {
      guard let number = Int(text) else { return nil }
      width = number
    }
    var command = REPLOptions()
    command.database = database
    command.ruleFiles = values["--rules"] ?? []
    command.commands = values["-c"] ?? []
    command.script = values["-f"]?.first
    command.bail = set.contains("--bail")
    command.demo = set.contains("--demo")
    command.reset = set.contains("--reset")
    command.copy = values["--copy"]?.first
    command.width = width
    command.format = values["--format"]?.first
    command.readOnly = set.contains("--read-only")
    command.check = values["--check"]?.first
    command.update = set.contains("--update")
    command.lint = set.contains("--lint")
    command.lintPlugin = values["--plugin"]?.first
    command.coverage = set.contains("--coverage")
    command.timing = set.contains("--timing")
    command.trace = set.contains("--trace")
    command.csvSafe = set.contains("--csv-safe")
    command.csvShown = set.contains("--csv-shown")
    return command
  }
}
