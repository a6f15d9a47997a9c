import EnvKeys
import Qualifiers

/// A scope of the dynamic environment that answers every key from explicit values, then
/// rules, then the key's default.
///
/// ```swift
/// var context = RuleContext(engine: engine)
/// context.task = "edit"
/// let child = context.with(\.propertyKey, "lastName")
/// child.displayNameForProperty  // resolved by rules in the child's scope
/// ```
/// A context is a value: a child is a copy, and setting a value in it never reaches the parent
/// or a sibling.
public struct RuleContext: Sendable, KeyValueCoding, DynamicEnvironmentScoping {
  /// The explicitly set values of this scope.
  public var values: DynamicEnvironmentValues
  /// The rules, registry and cache shared by related contexts.
  public let engine: RuleEngine
  /// Set while a lookup is in progress in this context.
  @usableFromInline var state: ResolutionState?
  /// Set while the Swift DSL records which key a key path reads.
  @usableFromInline var recorder: KeyPathRecorder?
  /// Set while a plan is made (``planned(_:_:)``): every key read is recorded there.
  @usableFromInline var planRecorder: PlanRecorder?

  /// A root context over `engine` with `values` set.
  public init(engine: RuleEngine = RuleEngine(), values: DynamicEnvironmentValues = .init()) {
    self.engine = engine
    self.values = values
  }

  /// A root context over `ruleModel`, then `fallbacks`, with the shared registry.
  /// - Throws: ``RuleDSLError`` when rules written in Swift cannot be made rules in `registry`.
  public init(ruleModel: RuleModel, fallbacks: [RuleModel] = [], registry: D2SContextKVC = .shared)
    throws(RuleDSLError)
  {
    self.init(
      engine: try RuleEngine(ruleModel: ruleModel, fallbacks: fallbacks, registry: registry))
  }

  // MARK: - Typed access

  /// The value of `key`: explicit, else the best rule's, else the default.
  ///
  /// Reading never crashes: if resolution fails (a rule cycle), the default is returned and the
  /// error is logged; use ``resolve(_:)`` to get the error.
  @inlinable
  public subscript<K: DynamicEnvironmentKey>(key: K.Type) -> K.Value {
    get {
      if let recorder { return recorder.read(key) }
      // A value set here, read outside a lookup or inside one (a computation reading its
      // inputs, recorded as such), is its own answer.
      if planRecorder == nil, let explicit = values.explicitValue(for: key),
        state?.recordExplicitRead(ObjectIdentifier(key)) ?? true
      {
        return explicit
      }
      guard let resolution = lookupLoggingErrors(ObjectIdentifier(key)) else {
        return K.defaultValue
      }
      return RuleContext.typedValue(resolution, for: key)
    }
    set {
      values[key] = newValue
      dropResolutionState()
    }
  }

  /// The value of `key`, or the error that resolution ran into.
  @inlinable
  public func resolve<K: DynamicEnvironmentKey>(_ key: K.Type) throws -> K.Value {
    if planRecorder == nil, let explicit = values.explicitValue(for: key),
      state?.recordExplicitRead(ObjectIdentifier(key)) ?? true
    {
      return explicit
    }
    guard let resolution = try lookup(ObjectIdentifier(key)) else { return K.defaultValue }
    return RuleContext.typedValue(resolution, for: key)
  }

  @inlinable
  static func typedValue<K: DynamicEnvironmentKey>(_ resolution: RuleResolution, for key: K.Type)
    -> K.Value
  {
    if let typed = resolution.boxed as? ValueBox<K.Value> { return typed.typed }
    return resolution.value as? K.Value ?? K.defaultValue
  }

  /// The resolution for the key `id`, or nil for "use the key's default".
  @usableFromInline
  func lookup(_ id: ObjectIdentifier) throws -> RuleResolution? {
    let resolution = try resolve(id: id, exposed: nil, explicitChecked: state == nil)
    return resolution.isDefault ? nil : resolution
  }

  /// ``lookup(_:)`` that records or logs an error and answers the default instead.
  @usableFromInline
  func lookupLoggingErrors(_ id: ObjectIdentifier) -> RuleResolution? {
    do {
      return try lookup(id)
    } catch {
      report(error)
      return nil
    }
  }

  /// Hands an error of a non-throwing read to the lookup in progress (which throws it), or
  /// logs it when there is none.
  @usableFromInline
  func report(_ error: any Error) {
    planRecorder?.failed = true
    if let state {
      state.error = state.error ?? error
    } else if !engine.collect(error) {
      ruleLogger.error("\(error)")
    }
  }

  /// Removes the explicit value of `key`, so it is derived by rules again.
  public mutating func removeValue<K: DynamicEnvironmentKey>(for key: K.Type) {
    values.removeValue(for: key)
    dropResolutionState()
  }

  /// A context changed while a lookup is in progress starts its own lookups; the lookup that
  /// derived it cannot know what the change means, so it is not cached.
  @usableFromInline
  mutating func dropResolutionState() {
    state?.markUncacheable()
    state = nil
  }

  // MARK: - Access by name

  /// The exposed key named `name`.
  public func exposedKey(named name: String) throws -> ExposedKey {
    guard let key = engine.registry.key(named: name) else {
      throw UnknownKeyError(name: name, suggestions: engine.registry.suggestions(for: name))
    }
    return key
  }

  /// Resolves the key named `name`, with the source of its value.
  public func resolution(forKeyNamed name: String) throws -> RuleResolution {
    let key = try exposedKey(named: name)
    return try resolve(id: key.id, exposed: key)
  }

  /// Sets the key named `name` from a literal, coerced through the key's type.
  public mutating func setValue(_ literal: Literal, forKeyNamed name: String) throws {
    let key = try exposedKey(named: name)
    values.setValue(try key.coerce(literal, in: self), forKeyID: key.id)
    removeDependents(of: key)
  }

  /// Sets the key named `name` to a value of its type (checked).
  public mutating func setValue(_ value: Any?, forKeyNamed name: String) throws {
    let key = try exposedKey(named: name)
    guard let typed = key.cast(value) else {
      throw LiteralCoercionError(
        key: name, expectedType: key.valueTypeName,
        literal: .string(String(describing: value ?? "nil")))
    }
    values.setValue(typed, forKeyID: key.id)
    removeDependents(of: key)
  }

  /// Removes the explicit value of the key named `name`.
  public mutating func removeValue(forKeyNamed name: String) throws {
    let key = try exposedKey(named: name)
    values.setValue(nil, forKeyID: key.id)
    removeDependents(of: key)
  }

  /// Removes the set values that follow from `key`'s (``ExposedKey/dependentKeyIDs``), after
  /// it was set or removed by name; then drops the resolution state.
  private mutating func removeDependents(of key: ExposedKey) {
    for id in key.dependentKeyIDs { values.setValue(nil, forKeyID: id) }
    dropResolutionState()
  }

  /// The explicitly set keys with their values, sorted by name.
  public var explicitKeys: [(key: ExposedKey, value: any Sendable)] {
    values.keyIDs.compactMap { id in
      guard let key = engine.registry.key(forID: id), let value = values.explicitValue(forKeyID: id)
      else { return nil }
      return (key, value)
    }.sorted { $0.key.name < $1.key.name }
  }

  // MARK: - KeyValueCoding

  /// The resolved value of the exposed key `key` (nil for unknown names).
  public func value(forKey key: String) -> Any? {
    guard let exposed = engine.registry.key(named: key) else { return nil }
    do {
      return KVC.unwrap(try resolve(id: exposed.id, exposed: exposed).value)
    } catch {
      report(error)
      return nil
    }
  }

  /// The value at a dotted key path (`entity.name`), each step resolved here.
  public func value(forKeyPath keyPath: String) -> Any? {
    KVC.value(forKeyPath: KVCPath(keyPath).components, from: self)
  }
}
