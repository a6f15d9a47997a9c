import EnvKeys

/// Where a resolved value came from.
public enum ValueSource: Sendable, Equatable, CustomStringConvertible {
  /// Set explicitly in the context or an ancestor.
  case explicit
  /// The winning rule.
  case rule(NumberedRule)
  /// No value set, no rule matched: the key's default.
  case defaultValue

  /// `set`, `rule N: <text>`, `builtin rule: <text>`, `plugin NAME rule: <text>`, `default`.
  public var description: String {
    switch self {
    case .explicit: "set"
    case .rule(let numbered): numbered.description
    case .defaultValue: "default"
    }
  }
}

/// A resolved value with its source.
///
/// A class: cached answers are handed out as one reference.
public final class RuleResolution: @unchecked Sendable {
  /// The value in a box, typed when it came from a rule.
  @usableFromInline let boxed: AnyValueBox
  /// Where it came from.
  public let source: ValueSource

  /// The value, of the key's value type.
  public var value: any Sendable { boxed.value }

  init(value: any Sendable, source: ValueSource) {
    self.boxed = AnyValueBox(value)
    self.source = source
  }

  init(boxed: AnyValueBox, source: ValueSource) {
    self.boxed = boxed
    self.source = source
  }

  /// Whether the key's default answers (no explicit value, no matching rule).
  @usableFromInline var isDefault: Bool {
    if case .defaultValue = source { return true }
    return false
  }
}

/// The bookkeeping of one top-level lookup: the chain of keys being resolved (for cycle
/// detection), the inputs each read (for the cache), and the first error.
@usableFromInline
final class ResolutionState: @unchecked Sendable {
  struct Frame {
    let id: ObjectIdentifier
    let name: String
    var inputs: Set<ObjectIdentifier> = []
    var cacheable = true
  }
  var frames: [Frame] = []
  @usableFromInline var error: (any Error)?
  /// Reads made outside any frame (by explain or a direct key-path read).
  var looseInputs: Set<ObjectIdentifier> = []
  /// Whether lookups skip the cache (to learn exactly which inputs an answer reads).
  var bypassesCache = false
  /// The answers of this lookup's nested keys, with the inputs each read, when it skips the
  /// cache: a key that several rules' conditions read (`attribute`) is resolved once. Valid
  /// because one lookup's context does not change while it runs.
  var answered: [ObjectIdentifier: (resolution: RuleResolution, inputs: Set<ObjectIdentifier>)] =
    [:]
  /// Records nested look-ups for `explain --tree`, when set.
  var trace: ResolutionTrace?
  /// Whether a tool (`explain`, `why-not`) asks: its look-ups do not count as coverage.
  var isTool = false

  /// Records a read of a key set explicitly, which the reader then answers itself (no
  /// resolution made); false when a trace records every step, so the read goes the whole way.
  @usableFromInline func recordExplicitRead(_ id: ObjectIdentifier) -> Bool {
    guard trace == nil else { return false }
    recordRead(id)
    return true
  }

  func recordRead(_ id: ObjectIdentifier) {
    if frames.isEmpty { looseInputs.insert(id) } else { frames[frames.count - 1].inputs.insert(id) }
  }

  func recordInputs<S: Sequence<ObjectIdentifier>>(_ ids: S) {
    if frames.isEmpty {
      looseInputs.formUnion(ids)
    } else {
      frames[frames.count - 1].inputs.formUnion(ids)
    }
  }

  func markUncacheable() {
    for index in frames.indices { frames[index].cacheable = false }
  }

  func isResolving(_ id: ObjectIdentifier) -> Bool { frames.contains { $0.id == id } }

  func cycle(for id: ObjectIdentifier, name: String) -> RuleCycleError? {
    guard let start = frames.firstIndex(where: { $0.id == id }) else { return nil }
    return RuleCycleError(chain: frames[start...].map(\.name) + [name])
  }

  func push(_ id: ObjectIdentifier, name: String) { frames.append(Frame(id: id, name: name)) }

  /// Ends the innermost frame; its inputs become inputs of the frame that asked.
  func pop() -> Frame {
    let frame = frames.removeLast()
    recordInputs(frame.inputs)
    if !frame.cacheable, !frames.isEmpty { frames[frames.count - 1].cacheable = false }
    return frame
  }
}
