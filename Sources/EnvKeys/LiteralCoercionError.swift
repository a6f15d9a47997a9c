/// A literal that does not fit the type a key (or a value) expects.
public struct LiteralCoercionError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The key the literal was meant for, when known.
  public var key: String?
  /// The expected value type, e.g. `String` or `[String]`.
  public var expectedType: String
  /// The offending literal.
  public var literal: Literal
  /// An extra hint (e.g. the accepted date forms).
  public var hint: String?

  /// The error of `literal` for `key` (when known), which expects `expectedType`.
  public init(key: String? = nil, expectedType: String, literal: Literal, hint: String? = nil) {
    self.key = key
    self.expectedType = expectedType
    self.literal = literal
    self.hint = hint
  }

  /// `cannot use an integer 5 for key 'task': expected String`.
  public var description: String {
    // `nil` names itself: "cannot use nil", not "nil nil".
    var text = "cannot use " + (literal == .null ? "nil" : "\(literal.kindName) \(literal)")
    if let key { text += " for key '\(key)'" }
    text += ": expected \(expectedType)"
    if let hint { text += " (\(hint))" }
    return text
  }
}
