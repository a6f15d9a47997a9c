import EnvKeys
import Foundation
import Qualifiers
import RuleCore

/// One parsed command line (no evaluation happens in the parser).
public enum REPLCommand: Equatable, Sendable {
  case open(String)
  case entities
  case list(entity: String, request: ListClauses)
  case next, prev
  case inspect(entity: String, key: [Literal])
  case edit(entity: String, key: [Literal])
  case new(entity: String)
  case setObject(key: String, value: Literal)
  case choose(relationship: String, qualifier: String?)
  case save, revert
  case delete(entity: String, key: [Literal])
  case follow(String)
  case login(user: String, password: String)
  case logout
  case set(key: String, value: Literal)
  case unset(String)
  case show(String)
  case explain(String)
  case rule(String)
  case rules(all: Bool, key: String?)
  case drop(Int)
  case load(String), write(String), source(String)
  case render, context, keys, looks, plugins
  case help(String?)
  case quit
}

/// The clauses of `list ENTITY [where …] [order by …] [limit N] [offset N]`, as text.
public struct ListClauses: Equatable, Sendable {
  public var qualifier: String?
  public var orderings: [(key: String, ascending: Bool)]
  public var limit: Int?
  public var offset: Int?

  public init(qualifier: String? = nil, orderings: [(key: String, ascending: Bool)] = [], limit: Int? = nil, offset: Int? = nil) {
    self.qualifier = qualifier
    self.orderings = orderings
    self.limit = limit
    self.offset = offset
  }

  public static func == (a: ListClauses, b: ListClauses) -> Bool {
    a.qualifier == b.qualifier && a.limit == b.limit && a.offset == b.offset
      && a.orderings.map(\.key) == b.orderings.map(\.key) && a.orderings.map(\.ascending) == b.orderings.map(\.ascending)
  }
}

/// A command line that cannot be understood.
public struct REPLError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public init(_ message: String) { self.message = message }
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

extension ParseError {
  /// The error moved from the part of `line` that was parsed (a qualifier, a value, a rule)
  /// to `line` itself, so that the caret stands under the column the user typed.
  func rebased(into line: String) -> ParseError {
    // Clauses follow what names them, so the last occurrence is the parsed one
    // (`list Language where a`). Columns count Unicode scalars, as the lexer does.
    guard sourceLine != line, let range = line.range(of: sourceLine, options: .backwards) else { return self }
    let offset = line.unicodeScalars.distance(from: line.unicodeScalars.startIndex, to: range.lowerBound)
    // Positions the message names ("the '(' at 1:1") move with it.
    var moved = ""
    var rest = Substring(message)
    while let match = rest.firstMatch(of: /at 1:(\d+)/) {
      moved += rest[..<match.range.lowerBound] + "at 1:\((Int(match.1) ?? 0) + offset)"
      rest = rest[match.range.upperBound...]
    }
    moved += rest
    return ParseError(message: moved, location: SourceLocation(line: 1, column: location.column + offset), sourceLine: line)
  }
}

/// A failure in a `source` file: the file and line, then the command's own error.
struct SourceError: Error, CustomStringConvertible {
  var path: String
  var line: Int
  var underlying: any Error
  var description: String { "\(path):\(line): " + REPLError.describe(underlying) }
}
