import D2SModel
import Foundation
import Qualifiers

/// Tab completion by position, as pgcli and litecli complete: what may stand where the
/// cursor is, read from the line before it. Commands at the start; entities after the
/// commands that take one; after `where`, `order by` and `with`, that entity's key paths
/// (`language.na` → `language.name`), then operators and clause words; relationships after
/// `follow`, to-ones after `choose`, the edited entity's attributes after `object.`, exposed
/// keys after `show`, `explain` and `unset`, file names after `load`, `source`, `write`,
/// `watch` and `open`. Names that need them come in backticks.
enum Completion {
  /// The commands followed by an entity name.
  static let entityCommands: Set<String> = [
    "list", "search", "count", "facets", "query", "inspect", "edit", "new", "delete",
    "link", "unlink",
  ]
  /// The commands followed by a file name.
  static let fileCommands: Set<String> = ["load", "source", "write", "watch", "unwatch", "open"]
  /// The clause words of `list` and `count`.
  static let clauseWords = ["where", "with", "order", "by", "limit", "offset", "asc", "desc"]
  /// What may follow a complete key path in a where clause.
  static let operators = ["=", "!=", "<", "<=", ">", ">=", "like", "in", "and", "or", "not"]

  /// The completions of `prefix`, the word at the cursor, with `line` the text before it.
  static func candidates(for prefix: String, after line: String, in session: REPLSession)
    -> [String]
  {
    let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    guard let first = words.first?.lowercased() else {
      if prefix.hasPrefix("object."), let entity = session.editing?.object.entity {
        // A column whose own name differs from its property's comes backticked too.
        return matching(
          prefix,
          entity.attributes.map { "object." + $0.name }
            + columnNames(of: entity).map { "object.`\($0)`" })
      }
      return matching(prefix, CommandParser.commandWords + keyNames(session))
    }
    if fileCommands.contains(first) { return LineEditor.fileNames(prefix) }
    let model = session.context.database?.model
    if entityCommands.contains(first), words.count == 1 {
      return matching(prefix, model?.entities.map(\.name) ?? [])
    }
    switch first {
    case "list", "count":
      guard let entity = model?.lookupEntity(words[1]) else { return [] }
      return listClause(prefix, words: Array(words.dropFirst(2)), entity: entity, model: model)
    case "follow":
      let entity = session.context.object?.entity ?? session.context.entity
      return matching(prefix, entity?.relationships.map(\.name) ?? [])
    case "link", "unlink":
      // `link Film 1 ac` → the entity's many-to-manys.
      guard words.count == 3, let entity = model?.lookupEntity(words[1]) else { return [] }
      return matching(prefix, entity.relationships.filter(\.isFlattened).map(\.name))
    case "choose":
      let entity = session.editing?.object.entity
      return words.count == 1 ? matching(prefix, entity?.toOneRelationships.map(\.name) ?? []) : []
    case "show", "explain", "unset":
      return matching(prefix, keyNames(session))
    default:
      return []
    }
  }

  /// What may stand in a `list ENTITY …` line after `words` (the clauses so far).
  static func listClause(_ prefix: String, words: [String], entity: Entity, model: Model?)
    -> [String]
  {
    let keywords: Set<String> = ["where", "with", "order", "by", "limit", "offset"]
    let clause = words.last { keywords.contains($0.lowercased()) }?.lowercased()
    guard let clause, ["where", "by", "with", "order"].contains(clause), let model else {
      return matching(prefix, ["where", "with", "order by", "limit", "offset"])
    }
    if clause == "where" {
      // After a whole key path comes an operator.
      let previous = words.last.map { $0.lowercased() } ?? ""
      let afterPath =
        !clauseWords.contains(previous) && !operators.contains(previous)
        && (try? PropertyPath(previous, from: entity, in: model)) != nil
      if afterPath { return matching(prefix, operators) }
    }
    var candidates = keyPaths(prefix, from: entity, in: model)
    if clause == "where" {
      candidates += matching(prefix, ["order by", "limit", "offset"])
    } else {
      candidates += matching(prefix, ["where", "limit", "offset", "asc", "desc"])
    }
    return candidates
  }

  /// The key paths from `entity` that `prefix` begins: through its relationships, each name
  /// in backticks where it needs them (`` `order` ``).
  static func keyPaths(_ prefix: String, from entity: Entity, in model: Model) -> [String] {
    var components = prefix.split(separator: ".", omittingEmptySubsequences: false).map(
      String.init)
    let last = components.removeLast()
    let walk = KeyPathWalk(components, from: entity, in: model, toMany: true)
    guard walk.rest.isEmpty else { return [] }
    let current = walk.owner
    let names = current.attributes.map(\.name) + current.relationships.map(\.name)
    let lead = components.isEmpty ? "" : components.joined(separator: ".") + "."
    let typed = last.hasPrefix("`") ? String(last.dropFirst()) : last
    let byName = names.filter { $0.lowercased().hasPrefix(last.lowercased()) }.sorted().map {
      name in
      // A clause word of the list command needs backticks too (`` order by `order` ``).
      let quoted = KVCPath(components: [name]).quotedDescription
      return lead + (clauseWords.contains(name.lowercased()) ? "`\(name)`" : quoted)
    }
    // Columns by their own names, where they differ from their properties'.
    let byColumn = columnNames(of: current).filter {
      $0.lowercased().hasPrefix(typed.lowercased())
    }.sorted().map { lead + "`\($0)`" }
    return byName + byColumn
  }

  /// The column names of `entity` that only backticks can name, where they differ from their
  /// properties' (`name with . and spaces` of `nameWithAndSpaces`; never `first_name`, which
  /// `firstName` names).
  static func columnNames(of entity: Entity) -> [String] {
    entity.attributes.filter { attribute in
      let column = attribute.columnName
      return column != attribute.name && !column.contains("`")
        && KVCPath(components: [column]).quotedDescription != column
    }.map(\.columnName)
  }

  /// The names the session's engine exposes.
  static func keyNames(_ session: REPLSession) -> [String] {
    session.registry.allKeys.map(\.name)
  }

  /// The `candidates` that begin with `prefix`, sorted, each once.
  static func matching(_ prefix: String, _ candidates: [String]) -> [String] {
    Array(Set(candidates.filter { $0.hasPrefix(prefix) })).sorted()
  }
}
