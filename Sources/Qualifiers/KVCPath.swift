import EnvKeys

/// A dotted key path as written in qualifiers and rules: `entity.name`, `object.address.phone`.
public struct KVCPath: Hashable, Sendable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// The components, never empty.
  public let components: [String]

  /// A path from its components.
  public init(components: [String]) {
    self.components = components
  }

  /// A path from dotted text (no validation; the parser validates what it reads). It splits
  /// at each `.` scalar, as the lexer reads paths: a dot before a combining mark is one
  /// `Character` but still a separator.
  public init(_ text: String) {
    // At the `.` byte: UTF-8 never has it inside another scalar's bytes.
    var components: [String] = []
    var start = text.utf8.startIndex
    for index in text.utf8.indices where text.utf8[index] == UInt8(ascii: ".") {
      components.append(String(text[start..<index]))
      start = text.utf8.index(after: index)
    }
    components.append(String(text[start...]))
    self.components = components
  }

  public init(stringLiteral value: String) { self.init(value) }

  /// The first component: for rules, the exposed key the path starts at.
  public var first: String { components.first ?? "" }

  /// The components after the first.
  public var rest: ArraySlice<String> { components.dropFirst() }

  public var description: String { components.joined(separator: ".") }

  /// The path as rule and qualifier text write it: a component that is a keyword of the
  /// grammar or not a plain identifier in backticks (`` `order` ``, `` `name with . and
  /// spaces` ``), so that parsing the text gives this path again.
  public var quotedDescription: String {
    components.enumerated().map { index, component in
      // `@count` and the like stand bare after a name, as the lexer reads them; first, `@x`
      // would be a computation.
      let bare =
        component.hasPrefix("@")
        ? index > 0
          && component.dropFirst().unicodeScalars.allSatisfy {
            $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0)
          } : Literal.isPlainIdentifier(component)
      guard !bare, !component.isEmpty, !component.contains("`") else { return component }
      return "`" + component + "`"
    }.joined(separator: ".")
  }
}
