import EnvKeys

extension Qualifier: ContextLiteralConvertible {
  public static var contextTypeName: String { "Qualifier" }

  /// A qualifier is written as quoted text: `"customerId = 1"`.
  public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
    guard case .string(let text) = literal else {
      throw LiteralCoercionError(
        expectedType: "Qualifier", literal: literal, hint: "write it as quoted text")
    }
    do {
      self = try QualifierParser.parse(text)
    } catch {
      throw LiteralCoercionError(expectedType: "Qualifier", literal: literal, hint: error.message)
    }
  }

  public var contextLiteral: Literal { .string(description) }
}
