import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

/// A search as a person types it in a search box: words, each of which must begin a word of
/// one of the searched properties' values, without regard to case (`dino` finds ACADEMY
/// DINOSAUR). What is typed is matched as it is: `*`, `?`, `%` and `_` are the characters
/// themselves, never wildcards.
public struct SearchText: Sendable, Equatable {
  /// The words, in the order typed.
  public let words: [String]

  /// The search for `text`, split into words at white space.
  public init(_ text: String) {
    words = text.split(whereSeparator: \.isWhitespace).map(String.init)
  }

  /// Whether nothing was typed.
  public var isEmpty: Bool { words.isEmpty }

  /// The qualifier of the search over the key paths `keys`: every word begins a word (at the
  /// value's start or after a space) of one of their values; nil when nothing was typed or
  /// nothing is searched.
  public func qualifier(keys: [String]) -> Qualifier? {
    guard !words.isEmpty, !keys.isEmpty else { return nil }
    let parts = words.map { word -> Qualifier in
      let literal = Self.literal(word)
      return .or(
        keys.flatMap { key -> [Qualifier] in
          [
            .comparison(KVCPath(key), .caseInsensitiveLike, .string(literal + "*")),
            .comparison(KVCPath(key), .caseInsensitiveLike, .string("* " + literal + "*")),
          ]
        })
    }
    return parts.count == 1 ? parts[0] : .and(parts)
  }

  /// The search through `entity`'s full-text index, when it has one that holds every one of
  /// `keys` (attributes of the entity, not paths): nil otherwise, and when nothing was typed.
  public func fullText(keys: [String], of entity: Entity) -> FullTextSearch? {
    guard !words.isEmpty, !keys.isEmpty, let index = entity.fullTextIndex else { return nil }
    let columns = keys.compactMap { entity.attribute(named: $0)?.columnName }
    guard columns.count == keys.count, index.covers(columns) else { return nil }
    if case .tsvector = index.kind {
      let search = FullTextSearch(words: words)
      return search.tsQuery == nil ? nil : search
    }
    return FullTextSearch(
      words: words, columns: Set(columns) == Set(index.columns ?? []) ? nil : columns)
  }

  /// What the search over `keys` of `entity` asks of a fetch: through an FTS5 index that
  /// holds the keys' columns, that index alone (ranked); through a `tsvector` index, the index
  /// (ranked) and the words matched in the keys' values, since which columns a `tsvector`
  /// holds is its trigger's secret; without an index, the words matched in the values.
  public func conditions(keys: [String], of entity: Entity) -> (
    qualifier: Qualifier?, fullText: FullTextSearch?
  ) {
    let fullText = self.fullText(keys: keys, of: entity)
    if let fullText, case .fts5? = entity.fullTextIndex?.kind { return (nil, fullText) }
    return (qualifier(keys: keys), fullText)
  }

  /// `word` as a `like` pattern that matches it literally (`*`, `?` and `\` escaped).
  public static func literal(_ word: String) -> String {
    var pattern = ""
    for character in word {
      if character == "*" || character == "?" || character == "\\" { pattern.append("\\") }
      pattern.append(character)
    }
    return pattern
  }
}

extension RuleContext {
  /// The key paths a search of the context's entity looks in: the rules'
  /// `searchPropertyKeys`, else the entity's title attributes; never a password.
  public var searchKeys: [String] {
    guard let entity else { return [] }
    let keys =
      searchPropertyKeys.isEmpty ? (entity.titleAttributeChoices.first ?? []) : searchPropertyKeys
    return keys.filter { entity.attribute(named: $0)?.isPassword != true }
  }
}
