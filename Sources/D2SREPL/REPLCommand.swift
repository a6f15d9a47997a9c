import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import RuleCore

/// One parsed command line (no evaluation happens in the parser): qualifiers and orderings
/// are typed values, parsed at the columns where they were typed.
public enum REPLCommand: Equatable, Sendable {
  case open(String)
  /// `entities [--all]`: the entity list page; with `--all`, internal tables too.
  case entities(all: Bool)
  case list(entity: String, clauses: ListClauses)
  /// `count ENTITY [where QUALIFIER]`: the exact number of rows.
  case count(entity: String, qualifier: Qualifier?)
  /// `facets ENTITY [where QUALIFIER] by KEY, …`: each key's values among the rows, with
  /// their counts, the most frequent first.
  case facets(entity: String, qualifier: Qualifier?, keys: [String])
  /// `query ENTITY`: the entity's query form, its fields and their operators.
  case queryForm(entity: String)
  case next, prev
  /// `position`: where the shown list window begins and ends, as the clauses that list the
  /// windows before and after it (`offset N after TOKEN`), for a transcript or a later session.
  case position
  /// `inspect ENTITY KEY`.
  case inspect(entity: String, key: [Literal])
  /// `inspect --explain`: the current page's rows, each with the rules behind its component
  /// and its label.
  case inspectExplained
  /// `edit ENTITY KEY`.
  case edit(entity: String, key: [Literal])
  /// `new ENTITY`.
  case new(entity: String)
  case setObject(key: String, value: Literal)
  case choose(relationship: String, qualifier: Qualifier?)
  case save, revert
  /// `delete ENTITY KEY`.
  case delete(entity: String, key: [Literal])
  /// `link ENTITY KEY RELATIONSHIP KEY` (`unlink …`: `remove`): adds (removes) one link of a
  /// many-to-many through a link table, to the destination with the last key.
  case link(
    entity: String, key: [Literal], relationship: String, destination: [Literal], remove: Bool)
  case follow(String)
  case login(user: String, password: String)
  case logout
  case set(key: String, value: Literal)
  case unset(String)
  case show(String)
  /// `explain KEY [for PROPERTY]`: every candidate rule of KEY, on the current page or for
  /// one of its properties.
  case explain(String, property: String?)
  /// `explain --tree KEY [for PROPERTY]`: the nested look-ups of one resolution.
  case explainTree(String, property: String?)
  /// `why-not LABEL [for PROPERTY]`.
  case whyNot(label: String, property: String?)
  /// `lint [--all]`.
  case lint(all: Bool)
  /// `lint --plugin NAME`: that installed plugin's rules only.
  case lintPlugin(String)
  /// `coverage [--all]`.
  case coverage(all: Bool)
  /// `watch FILE`: load a rule file and reload it when it changes.
  case watch(String)
  /// `unwatch FILE`: stop reloading it.
  case unwatch(String)
  /// Rule text, parsed by the session's engine (which knows the exposed keys).
  case rule(LineSlice)
  case rules(all: Bool, key: String?)
  case drop(Int)
  case load(String)
  /// `write [--force] FILE`: `force` replaces a file that does not hold rules.
  case write(String, force: Bool)
  case source(String)
  /// `timing on|off`: a line of cost after each command, on stderr.
  case timing(Bool)
  /// `trace on|off`: each command's statements and rule look-ups after it, on stderr.
  case trace(Bool)
  case render, context, keys, looks, plugins, formatters
  case help(String?)
  case quit
}

/// The clauses of `list ENTITY [with …] [where …] [order by …] [limit N] [offset N]
/// [after|before POSITION]`, as typed values;
/// property names are matched against the model when the command runs.
public struct ListClauses: Equatable, Sendable {
  /// The `where` clause.
  public var qualifier: Qualifier?
  /// The `order by` clause, keys as typed.
  public var orderings: [SortOrdering]
  /// The `limit` clause.
  public var limit: Int?
  /// The `offset` clause.
  public var offset: Int?
  /// The `with` clause: key paths shown before the rules' columns, as typed.
  public var columns: [String]
  /// The `after POSITION` clause: the window starts after the row at that position (a
  /// ``ListPosition`` token, as `position` prints it).
  public var after: String?
  /// The `before POSITION` clause: the window ends before the row at that position.
  public var before: String?
  /// The `search 'WORDS'` clause (or the words of `search ENTITY WORDS`).
  public var search: String?

  /// Clauses from their parts.
  public init(
    qualifier: Qualifier? = nil, orderings: [SortOrdering] = [], limit: Int? = nil,
    offset: Int? = nil, columns: [String] = [], after: String? = nil, before: String? = nil
  ) {
    self.after = after
    self.before = before
    self.columns = columns
    self.qualifier = qualifier
    self.orderings = orderings
    self.limit = limit
    self.offset = offset
  }
}

/// A part of a command line that another grammar reads later: the whole line and the part's
/// range, so that an error points at the column the user typed.
public struct LineSlice: Equatable, Sendable {
  /// The whole line.
  public let line: String
  /// Where the part is in ``line``.
  public let range: Range<String.Index>

  /// The part `text` of `line` (a slice of it).
  public init(_ line: String, _ text: Substring) {
    self.line = line
    self.range = text.startIndex..<text.endIndex
  }

  /// The part's text.
  public var text: Substring { line[range] }
}

/// A command line that cannot be understood.
public struct REPLError: Error, Sendable, CustomStringConvertible {
  /// What went wrong.
  public var message: String
  /// An error saying `message`.
  public init(_ message: String) { self.message = message }
  /// The message.
  public var description: String { message }
}

extension REPLError {
  /// What follows `error: ` for any error: parse errors with their line and caret but without
  /// their own `error:` word, every error of a rule file on its own `error:` line.
  public static func describe(_ error: any Error) -> String {
    switch error {
    case let parse as ParseError: parse.diagnostic
    case let file as RuleFileError: file.errors.map(\.diagnostic).joined(separator: "\nerror: ")
    default: "\(error)"
    }
  }
}

/// A failure in a `source` file: the file and line, then the command's own error.
struct SourceError: Error, CustomStringConvertible {
  var path: String
  var line: Int
  var underlying: any Error
  /// What the lines before the failing one printed (nested files' too), shown before the
  /// error: their work is done (a save is made).
  var output = ""
  var description: String { "\(path):\(line): " + REPLError.describe(underlying) }
}
