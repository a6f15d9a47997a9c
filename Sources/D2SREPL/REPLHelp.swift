/// `help` and `help COMMAND`.
enum REPLHelp {
  static let commands: [(String, String)] = [
    ("open DATABASE", "connect to an SQLite file or a postgresql:// URL and read its model"),
    ("entities [--all]", "the entity list page (--all: internal tables too)"),
    (
      "list ENTITY [with KEY, …] [where Q] [search 'WORDS'] [order by KEY [asc|desc], …] [limit N] [offset N] [after|before POSITION]",
      "the list page (with: columns shown first, such as the key: with id)"
    ),
    (
      "search ENTITY WORDS…",
      "the list of rows where each word begins a word of the searched properties (searchPropertyKeys, else the title)"
    ),
    ("count ENTITY [where Q]", "the exact number of rows, alone on a line"),
    (
      "query ENTITY",
      "the entity's query form (as d2s-serve's /ENTITY/-/query): each field, its control and operators"
    ),
    (
      "facets ENTITY [where Q] by KEY, …",
      "each property's values among the rows, with how many rows hold each, the most frequent first"
    ),
    (
      "next · prev · position",
      "the next or previous window of the last list, from its rows; position: as list clauses"
    ),
    ("inspect ENTITY KEY", "the inspect page of one object (a key of several columns: 1,23)"),
    ("edit ENTITY KEY · new ENTITY", "start editing"),
    ("object.KEY = VALUE", "while editing: set an attribute, or a to-one by the destination's key"),
    ("choose REL [where Q]", "while editing: the candidates for a to-one"),
    ("save · revert", "write / discard pending changes"),
    ("delete ENTITY KEY", "delete an object, if the rules allow it"),
    (
      "link · unlink ENTITY KEY REL KEY",
      "add or remove one link of a many-to-many (link Film 1 actors 5)"
    ),
    ("follow REL", "from the inspected object: a to-many's list or a to-one's page"),
    ("login USER PASSWORD · logout", "set / clear the user"),
    ("KEY = VALUE · unset KEY", "set or clear a context key"),
    ("show KEY", "KEY = VALUE  # where the value comes from"),
    (
      "explain KEY [for PROPERTY]",
      "every candidate rule and what happened to it (rules from files with FILE:LINE, the first false condition of each that did not match)"
    ),
    (
      "inspect --explain",
      "each row of the page shown with the rules behind its component and label"
    ),
    (
      "explain --tree KEY [for PROPERTY]",
      "the nested look-ups of KEY, one per line, with their rules and cache hits"
    ),
    (
      "why-not LABEL [for PROPERTY]",
      "why rule LABEL (N, PLUGIN:N, builtin:N) does or does not win here"
    ),
    ("rule RULE · rules [--all] [KEY] · drop N", "add, list (with labels), remove rules"),
    (
      "load FILE · write [--force] FILE",
      "load a rule file (all or nothing) / write the user rules (--force: over a non-rule file)"
    ),
    (
      "watch FILE · unwatch FILE",
      "load a rule file and reload it when it changes, printing what changed"
    ),
    (
      "lint [--all | --plugin NAME]",
      "rules that can never win, ambiguous pairs, duplicates, unknown names"
    ),
    ("coverage [--all]", "how often each rule won and was evaluated; the rules that never won"),
    ("source FILE", "run a script of commands"),
    (
      "timing on|off",
      [
        "after each command, one line on stderr (Documentation/Tracing.md):",
        "15.3 ms · 3 statements 12.1 ms · 412 rule look-ups, 97% cached · render 3.2 ms · 20 rows",
        "total · statements and their time · look-ups the rule engine answered, % from its cache",
        "(rounded down; left out with no look-ups) · render: total less the SQL time on the",
        "command's thread · rows shown (left out when no list rows were shown)",
        #"JSON: {"timing":{"ms","statements","sqlMs","lookups","cachedLookups","renderMs","rows"}}"#,
      ].joined(separator: "\n    ")
    ),
    (
      "trace on|off",
      [
        "after each command, on stderr: each statement with its time and number of bound values",
        "(never the values: D2S_LOGLEVEL=trace logs them), then the rule look-ups per key, with",
        "their counts and the rule (or default) that answered:",
        "sql 0.052 ms, 1 bound: SELECT …",
        "rule look-ups: 412, 400 cached",
        "  component: 40, 38 cached",
        "    24, 22 cached: builtin rule 12: …",
        #"JSON: {"sql","ms","bound"} a statement, then"#,
        #"{"lookups":[{"key","count","cached","rules":[{"rule","count","cached"}]}]}"#,
      ].joined(separator: "\n    ")
    ),
    ("render", "the current page again"),
    ("context · keys · looks · plugins", "set keys / exposed keys / looks / plugins"),
    ("formatters", "every formatter: its plugin and an example"),
    (
      "platform = 'json' · unset platform",
      "print pages as JSON Lines (or 'markdown'); unset returns to the rules"
    ),
    (
      "d2s-repl --width N · --format json|markdown|terminal",
      "page width: --width, else COLUMNS, else the terminal's; scripts have no limit (nothing is cut)"
    ),
    (
      "d2s-repl --timing · --trace",
      "timing on / trace on for every command of the run (never in --check transcripts)"
    ),
    ("help [COMMAND] · quit", ""),
  ]

  static func text(for word: String?) throws -> String {
    guard let word else {
      return commands.map { $0.1.isEmpty ? $0.0 : "\($0.0)\n    \($0.1)" }.joined(separator: "\n")
    }
    let matches = commands.filter {
      $0.0.lowercased().split(separator: " ").contains { $0 == word || $0.hasPrefix(word + ".") }
        || $0.0.lowercased().hasPrefix(word)
    }
    guard !matches.isEmpty else { throw REPLError("no command '\(word)' (try `help`)") }
    return matches.map { $0.1.isEmpty ? $0.0 : "\($0.0)\n    \($0.1)" }.joined(separator: "\n")
  }
}
