/// A key made reachable by name: what the registry knows about it, type-erased.
///
/// It coerces literals to the key's value type, prints values back, and checks values that
/// rules compute dynamically. A class: the registry's tables and every rule look-up hold it
/// by one reference, where a copy of its twelve fields retained each of them.
public final class ExposedKey: Sendable, CustomStringConvertible {
  /// The name under which rule text and the REPL reach the key.
  public let name: String
  /// The identity of the key type.
  public let id: ObjectIdentifier
  /// The value type's name (`String`, `[String]`, `Entity?`).
  public let valueTypeName: String
  /// Whether the value type is Optional (nil is a valid value).
  public var allowsNil: Bool { allowsNilCheck() }
  private let allowsNilCheck: @Sendable () -> Bool
  /// The key type's ``DynamicEnvironmentKey/exposedName`` (its usual name), if it has one.
  public let usualName: String?
  let coerceLiteral: @Sendable (Literal, (any KeyValueCoding)?) throws -> any Sendable
  let literalOf: @Sendable (Any) -> Literal?
  let describeValue: @Sendable (Any) -> String
  let castValue: @Sendable (Any?) -> (any Sendable)?
  let defaultValueFn: @Sendable () -> any Sendable
  let boxValue: @Sendable (any Sendable) -> AnyValueBox
  /// The keys removed whenever this one is set or removed by name (its key type's
  /// ``DynamicEnvironmentKey/dependentKeys``).
  public let dependentKeyIDs: [ObjectIdentifier]

  /// Describes `K` under `name`, with explicit coercion and printing.
  public convenience init<K: DynamicEnvironmentKey>(
    _ key: K.Type, name: String? = nil, valueTypeName: String,
    coerce: @escaping @Sendable (Literal) throws -> K.Value,
    literal: @escaping @Sendable (K.Value) -> Literal?,
    describe: (@Sendable (K.Value) -> String)? = nil,
    cast: (@Sendable (Any) -> K.Value?)? = nil
  ) {
    self.init(
      key, name: name, valueTypeName: valueTypeName,
      coerceInContext: { literal, _ in try coerce(literal) }, literal: literal,
      describe: describe, cast: cast)
  }

  /// Describes `K` under `name`, coercing literals with the help of the context they are set
  /// in (an entity name resolved against the context's `model`); `context` is nil for rule
  /// constants.
  public init<K: DynamicEnvironmentKey>(
    _ key: K.Type, name: String? = nil, valueTypeName: String,
    coerceInContext: @escaping @Sendable (Literal, (any KeyValueCoding)?) throws -> K.Value,
    literal: @escaping @Sendable (K.Value) -> Literal?,
    describe: (@Sendable (K.Value) -> String)? = nil,
    cast: (@Sendable (Any) -> K.Value?)? = nil
  ) {
    self.name = name ?? K.exposedName ?? ""
    self.id = ObjectIdentifier(key)
    self.valueTypeName = valueTypeName
    self.usualName = K.exposedName
    self.dependentKeyIDs = K.dependentKeys.map { ObjectIdentifier($0) }
    // By the type's metadata: a protocol check scans the conformance tables the first time
    // it is made for a type.
    let allowsNil: @Sendable () -> Bool = { TypeTraits.isOptionalType(K.Value.self) }
    self.allowsNilCheck = allowsNil
    self.coerceLiteral = { literal, context in try coerceInContext(literal, context) }
    self.literalOf = { ($0 as? K.Value).flatMap(literal) }
    self.describeValue = { value in
      guard let typed = value as? K.Value else { return String(describing: value) }
      if let describe { return describe(typed) }
      return literal(typed)?.description ?? String(describing: typed)
    }
    self.castValue = { value in
      guard let value = KVC.unwrap(value) else {
        // nil fits only an Optional key: K.Value.none.
        return allowsNil() ? (Optional<Any>.none as Any as? K.Value) : nil
      }
      if let typed = value as? K.Value { return typed }
      return cast?(value)
    }
    self.defaultValueFn = { K.defaultValue }
    self.boxValue = { value in
      if let typed = value as? K.Value { return ValueBox(typed: typed) }
      return AnyValueBox(value)
    }
  }

  /// Describes `K`, whose value type is literal-convertible, under `name`.
  ///
  /// Inlinable, so that each call site names `K.Value` directly: a generic body asks the
  /// runtime for it by its mangled name, once for each key, at every start.
  @inlinable
  public convenience init<K: DynamicEnvironmentKey>(_ key: K.Type, name: String? = nil)
  where K.Value: ContextLiteralConvertible {
    self.init(
      key, name: name, valueTypeName: K.Value.contextTypeName,
      coerce: { literal in try K.Value(contextLiteral: literal) },
      literal: { $0.contextLiteral },
      cast: { K.Value.fromContextValue($0) })
  }

  /// The typed value for a rule or REPL literal.
  /// - Throws: ``LiteralCoercionError`` naming this key when the literal does not fit.
  public func coerce(_ literal: Literal, in context: (any KeyValueCoding)? = nil) throws
    -> any Sendable
  {
    do {
      return try coerceLiteral(literal, context)
    } catch var error as LiteralCoercionError {
      error.key = name
      throw error
    } catch {
      throw LiteralCoercionError(
        key: name, expectedType: valueTypeName, literal: literal, hint: "\(error)")
    }
  }

  /// The value (of the key's type) as a literal, when it has one.
  public func literal(for value: Any) -> Literal? { literalOf(value) }

  /// The printed form of a value of this key (`'x'`, `('a', 'b')`, `Staff(1) 'Mike'`).
  public func describe(_ value: Any) -> String { describeValue(value) }

  /// `value` as this key's type, or nil when it does not fit (nil fits Optional keys only).
  public func cast(_ value: Any?) -> (any Sendable)? { castValue(value) }

  /// `value` (of the key's type) in a typed box.
  public func box(_ value: any Sendable) -> AnyValueBox { boxValue(value) }

  /// The key's default value.
  public var defaultValue: any Sendable { defaultValueFn() }

  /// `name: Type = default`, as the REPL lists keys.
  public var description: String { "\(name): \(valueTypeName) = \(describe(defaultValue))" }
}
