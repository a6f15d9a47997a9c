import EnvKeys
import Qualifiers

/// A type whose values the Swift rule DSL can look into: it makes a placeholder whose
/// computed properties (and dynamic members) report their names to the recorder, so
/// `\.object?.lastName` becomes the rule-text key path `object.lastName`.
///
/// Stored properties need nothing: their names are read from the key path itself.
public protocol KeyPathRecordable {
  /// A value whose property getters call `recorder.recordMember(name)`.
  static func recordingPlaceholder(recorder: KeyPathRecorder) -> Self
}

extension Optional: KeyPathRecordable where Wrapped: KeyPathRecordable {
  public static func recordingPlaceholder(recorder: KeyPathRecorder) -> Wrapped? {
    .some(Wrapped.recordingPlaceholder(recorder: recorder))
  }
}

/// Finds the rule-text key path of a Swift key path on ``RuleContext``: the exposed key it
/// reads first (recorded by running the key path on a recording context), followed by the
/// names of the properties after it: stored ones from the key path's description, computed
/// ones as ``KeyPathRecordable`` placeholders report them (`\.entity?.name` → `entity.name`).
public final class KeyPathRecorder: @unchecked Sendable {
  private(set) var first: ObjectIdentifier?
  private(set) var members: [String] = []

  init() {}

  @usableFromInline
  func record<K: DynamicEnvironmentKey>(_ key: K.Type) {
    if first == nil { first = ObjectIdentifier(key) }
  }

  /// Called by placeholders' getters with the property's key-value-coding name.
  public func recordMember(_ name: String) { members.append(name) }

  @usableFromInline
  func placeholder<K: DynamicEnvironmentKey>(for key: K.Type) -> K.Value {
    if let recordable = K.Value.self as? any KeyPathRecordable.Type,
      let placeholder = recordable.recordingPlaceholder(recorder: self) as? K.Value
    {
      return placeholder
    }
    return K.defaultValue
  }

  /// The rule-text path of `keyPath`, with names from `registry`.
  static func path(of keyPath: AnyKeyPath, registry: D2SContextKVC) throws(RuleDSLError) -> KVCPath {
    let recorder = KeyPathRecorder()
    var context = RuleContext(engine: RuleEngine(registry: registry, cache: false))
    context.recorder = recorder
    _ = context[keyPath: keyPath]
    guard let id = recorder.first, let key = registry.key(forID: id) else {
      throw RuleDSLError(message: "\(keyPath) does not start at an exposed key")
    }
    var components = [key.name]
    var recorded = recorder.members[...]
    for name in try suffix(of: String(reflecting: keyPath)) {
      if let name {
        components.append(name)
      } else if let member = recorded.popFirst() {
        components.append(member)
      } else {
        throw RuleDSLError(
          message: "cannot name a computed property in \(keyPath); make its type KeyPathRecordable, or write the rule as text")
      }
    }
    return KVCPath(components: components)
  }

  /// The names after the first component in a key path's debug description
  /// (`\RuleContext.<computed 0x… (Optional<Entity>)>?.name?` → `["name"]`), nil for
  /// computed components.
  static func suffix(of description: String) throws(RuleDSLError) -> [String?] {
    var text = Substring(description)
    guard let dot = text.firstIndex(of: ".") else { return [] }
    text = text[text.index(after: dot)...]
    // Skip the first component: a `<computed …>` accessor (nested <> balanced) or a name.
    if text.first == "<" {
      var depth = 0
      var end = text.startIndex
      for index in text.indices {
        if text[index] == "<" { depth += 1 }
        if text[index] == ">" { depth -= 1 }
        if depth == 0 { end = index; break }
      }
      text = text[text.index(after: end)...]
    } else {
      text = text.drop { $0 != "." && $0 != "?" && $0 != "!" }
    }
    var parts: [String?] = []
    var depth = 0
    var current = ""
    for c in text where c != "?" && c != "!" {
      if c == "<" { depth += 1 }
      if c == ">" { depth -= 1 }
      if c == "." && depth == 0 {
        if !current.isEmpty { parts.append(current) }
        current = ""
      } else {
        current.append(c)
      }
    }
    if !current.isEmpty { parts.append(current) }
    return try parts.map { part throws(RuleDSLError) -> String? in
      guard let part else { return nil }
      if part.hasPrefix("<computed") { return nil }
      guard Literal.isPlainIdentifier(part) else {
        throw RuleDSLError(message: "cannot name the key path component '\(part)' in \(description); write the rule as text")
      }
      return part
    }
  }
}

/// A Swift DSL rule that cannot be expressed as rule text.
public struct RuleDSLError: Error, Sendable, CustomStringConvertible {
  public var message: String
  public var description: String { message }
}
