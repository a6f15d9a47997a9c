import EnvKeys
import Foundation

/// A lexical token of qualifier and rule text.
package struct Token: Sendable, Equatable {
  package enum Kind: Sendable, Equatable {
    /// A name or dotted key path (`task`, `entity.name`, `@prettyPropertyKey`); keywords too.
    case identifier(String)
    /// A key path with a component in backticks (`` `order` ``, `` address.`zip code` ``):
    /// never a keyword.
    case quotedPath([String])
    case string(String)
    case int(Int)
    case decimal(Decimal)
    /// `*true*` / `*false*`.
    case boolConstant(Bool)
    /// Operators and punctuation: `= == != <> < <= > >= => ! && || ( ) [ ] { } , ; :`.
    case symbol(String)
    case end
  }
  package var kind: Kind
  package var location: SourceLocation
  /// The offset of the token's first scalar in the lexed text.
  package var offset: Int

  /// The identifier's text when it is a keyword (lower-cased), else nil.
  package var keyword: String? {
    guard case .identifier(let name) = kind, !name.utf8.contains(UInt8(ascii: ".")) else {
      return nil
    }
    let lower = name.lowercased()
    return Literal.keywords.contains(lower) ? lower : nil
  }

  package func isSymbol(_ s: String) -> Bool { kind == .symbol(s) }

  /// A bare or backticked key path (or a keyword: check ``keyword``).
  package var isKeyPath: Bool {
    switch kind {
    case .identifier, .quotedPath: true
    default: false
    }
  }

  /// How the token reads in an error message.
  package var display: String {
    switch kind {
    case .identifier(let s): "'\(s)'"
    case .quotedPath(let components): "'\(KVCPath(components: components).quotedDescription)'"
    case .string(let s): Literal.quote(s)
    case .int(let i): "\(i)"
    case .decimal(let d): Literal.format(decimal: d)
    case .boolConstant(let b): b ? "*true*" : "*false*"
    case .symbol(let s): "'\(s)'"
    case .end: "end of input"
    }
  }
}
