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

  /// `word` as a `like` pattern that matches it literally (`*` and `?` escaped).
  static func literal(_ word: String) -> String {
    var pattern = ""
    for character in word {
      if character == "*" || character == "?" { pattern.append("\\") }
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
