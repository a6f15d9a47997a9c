import EnvKeys

/// The nested look-ups one resolution made, in the order they started (`explain --tree`).
public final class ResolutionTrace: @unchecked Sendable {
  /// One look-up: its depth (0 for the key asked), the key, the answer and where it came from.
  public struct Step: Sendable, CustomStringConvertible {
    /// How deeply the look-up is nested.
    public var depth: Int
    /// The key's name.
    public var key: String
    /// The printed answer (empty until the look-up ends).
    public var value: String = ""
    /// `set`, `default` or the answering rule.
    public var source: String = ""
    /// Whether the answer came from the cache.
    public var cached = false

    /// `KEY = VALUE  # SOURCE`, with `(cached)` for a cached answer, indented by depth.
    public var description: String {
      String(repeating: "  ", count: depth) + "\(key) = \(value)  # \(source)"
        + (cached ? " (cached)" : "")
    }
  }

  /// Every look-up, in the order it started (a key read by several candidate rules, several
  /// times).
  private var recorded: [Step] = []

  /// The look-ups in the order they started, each key once under the look-up that read it
  /// (the first time, with what it read).
  public var steps: [Step] {
    var shown: [Step] = []
    // The keys already shown under each open look-up, innermost last.
    var seen: [Set<String>] = [[]]
    var skippingBelow: Int?
    for step in recorded {
      if let depth = skippingBelow {
        if step.depth > depth { continue }
        skippingBelow = nil
      }
      while seen.count > step.depth + 1 { seen.removeLast() }
      guard seen[seen.count - 1].insert(step.key).inserted else {
        skippingBelow = step.depth
        continue
      }
      shown.append(step)
      seen.append([])
    }
    return shown
  }

  func open(depth: Int, key: String) -> Int {
    recorded.append(Step(depth: depth, key: key))
    return recorded.count - 1
  }

  func close(_ index: Int, key: ExposedKey?, _ resolution: RuleResolution, cached: Bool = false) {
    guard recorded.indices.contains(index) else { return }
    recorded[index].value = key.map { $0.describe(resolution.value) } ?? "\(resolution.value)"
    recorded[index].source = ResolutionTrace.describe(resolution.source)
    recorded[index].cached = cached
  }

  /// `set`, `default`, or the rule's label and, for a rule of rule text, nothing more (the
  /// tree stays one short line per look-up).
  static func describe(_ source: ValueSource) -> String {
    switch source {
    case .explicit: "set"
    case .defaultValue: "default"
    case .rule(let numbered): numbered.labelPhrase
    }
  }
}

extension RuleContext {
  /// Resolves the key named `name` from its rules (not the cache), recording every nested
  /// look-up: the first step is the key itself. With `bypassingCache`, nested look-ups are
  /// resolved from their rules too, so the tree is the same whatever the cache holds (and
  /// every step shows what it read).
  public func resolutionTree(forKeyNamed name: String, bypassingCache: Bool = false) throws
    -> ResolutionTrace
  {
    let key = try exposedKey(named: name)
    let trace = ResolutionTrace()
    let state = ResolutionState()
    state.isTool = true
    state.bypassesCache = bypassingCache
    state.trace = trace
    var context = self
    context.state = state
    let slot = trace.open(depth: 0, key: key.name)
    if let explicit = values.explicitValue(forKeyID: key.id) {
      trace.close(slot, key: key, RuleResolution(value: explicit, source: .explicit))
      return trace
    }
    state.push(key.id, name: key.name)
    defer { _ = state.pop() }
    trace.close(slot, key: key, try context.resolveByRules(key))
    return trace
  }
}
