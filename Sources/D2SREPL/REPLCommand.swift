import EnvKeys
import Qualifiers

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
