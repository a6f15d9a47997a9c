import Synchronization

/// A value computed the first time it is read, by one thread, and read without a lock after
/// (an entity's attributes and title attributes: a start that lists entity names never needs
/// them).
final class ComputedOnce<Value: Sendable>: @unchecked Sendable {
  private let compute: @Sendable () -> Value
  private let keeps: @Sendable (Value) -> Bool
  private let lock = Mutex<Void>(())
  // Published by `isComputed`'s releasing store; read only after an acquiring load saw it.
  private var computed: Value?
  private let isComputed = Atomic<Bool>(false)

  /// A value `compute` makes when it is first read.
  init(_ compute: @escaping @Sendable () -> Value) {
    self.compute = compute
    keeps = { _ in true }
  }

  /// A value `compute` makes when it is read, kept once `keeps` says it may be: one that
  /// does not (made from a catalog that could not be read) is made again at the next read.
  init(
    keepingIf keeps: @escaping @Sendable (Value) -> Bool,
    _ compute: @escaping @Sendable () -> Value
  ) {
    self.compute = compute
    self.keeps = keeps
  }

  /// A value already computed.
  init(computed value: Value) {
    compute = { value }
    keeps = { _ in true }
    computed = value
    isComputed.store(true, ordering: .releasing)
  }

  /// Whether the value has been computed.
  var hasValue: Bool { isComputed.load(ordering: .acquiring) }

  /// The value, computed on the first read.
  var value: Value {
    if isComputed.load(ordering: .acquiring), let computed { return computed }
    return lock.withLock { _ in
      if let computed { return computed }
      let value = compute()
      guard keeps(value) else { return value }
      computed = value
      isComputed.store(true, ordering: .releasing)
      return value
    }
  }
}
