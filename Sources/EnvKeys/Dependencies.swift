/// A dependency that code outside views reads (the clock, a logger, the database): a type
/// with the value live code uses, as ``DynamicEnvironmentKey`` is for views.
public protocol DependencyKey {
  /// The dependency's type.
  associatedtype Value: Sendable
  /// The value when no scope sets one.
  static var liveValue: Value { get }
}

/// Dependencies by key, in the spirit of SwiftUI's environment: an application's values,
/// from which each request's are derived. A derived set sees every value of its parent and
/// overrides some (``with(_:_:)``) without touching the parent or its siblings.
///
/// Code reads the values of the scope it runs in (``current``) through ``Dependency``; a
/// scope is entered with ``withDependencies(_:operation:)-(_,()->R)``, which starts from the
/// enclosing scope's values. Tests override one in one line:
///
/// ```swift
/// withDependencies { $0.clock = .fixed(date) } operation: { try session.save() }
/// ```
public struct DependencyValues: Sendable, ChildScoping {
  private var values: [ObjectIdentifier: any Sendable] = [:]

  /// No value set: every key reads its live value.
  public init() {}

  /// The value of `key` (its live value unless set).
  public subscript<K: DependencyKey>(key: K.Type) -> K.Value {
    get { values[ObjectIdentifier(key)] as? K.Value ?? K.liveValue }
    set { values[ObjectIdentifier(key)] = newValue }
  }

  /// Whether no value is set (every key reads its live value).
  public var isEmpty: Bool { values.isEmpty }

  /// These values, with every value `other` sets on top.
  public func merging(_ other: DependencyValues) -> DependencyValues {
    var copy = self
    copy.values.merge(other.values) { _, new in new }
    return copy
  }

  /// The values of the scope the caller runs in (a task's, or a thread's outside tasks).
  @TaskLocal public static var current = DependencyValues()
}

/// Runs `operation` with the enclosing scope's dependencies as `update` changes them; they
/// are back as they were when it returns.
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void, operation: () throws -> R
) rethrows -> R {
  var values = DependencyValues.current
  try update(&values)
  return try DependencyValues.$current.withValue(values, operation: operation)
}

/// Runs `operation` with the enclosing scope's dependencies as `update` changes them (the
/// tasks it starts inherit them).
public func withDependencies<R>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () async throws -> R,
  isolation: isolated (any Actor)? = #isolation
) async rethrows -> R {
  var values = DependencyValues.current
  try update(&values)
  return try await DependencyValues.$current.withValue(values, operation: operation)
}

/// A dependency read where it is used, from the scope the code runs in, as a view reads
/// `@Environment`:
///
/// ```swift
/// @Dependency(\.clock) var clock
/// let stamp = clock.now
/// ```
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
  private let keyPath: KeyPath<DependencyValues, Value> & Sendable

  /// The dependency at `keyPath`.
  public init(_ keyPath: KeyPath<DependencyValues, Value> & Sendable) {
    self.keyPath = keyPath
  }

  /// Its value in the current scope.
  public var wrappedValue: Value { DependencyValues.current[keyPath: keyPath] }
}
