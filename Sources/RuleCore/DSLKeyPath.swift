import EnvKeys
import Qualifiers

/// A Swift key path of a DSL rule, recorded without a registry: the key it starts at (by
/// identity) and the member names after it. Named when the rule is attached to an engine.
struct DSLKeyPath: Sendable {
  let key: KeyPathRecorder.FirstKey
  let members: [String]

  /// The rule-text path, with the key's name in `registry`.
  func path(in registry: D2SContextKVC) throws(DSLFailure) -> KVCPath {
    guard let exposed = registry.key(forID: key.id) else {
      let named = key.exposedName.map { "'\($0)' (\(key.typeName))" } ?? key.typeName
      throw DSLFailure(
        "the key \(named) is not exposed in this engine's registry (expose it, or install the plugin that does)"
      )
    }
    return KVCPath(components: [exposed.name] + members)
  }

  /// The path as printed before it is attached: the key's usual name, else its Swift type.
  func printed(in registry: D2SContextKVC?) -> KVCPath {
    let name = registry?.key(forID: key.id)?.name ?? key.exposedName ?? "<\(key.typeName)>"
    return KVCPath(components: [name] + members)
  }

  /// Records `keyPath` by running it on a recording context.
  static func recording(_ keyPath: AnyKeyPath) -> Result<DSLKeyPath, DSLFailure> {
    Result { () throws(DSLFailure) in try record(keyPath) }
  }

  private static let recordingEngine = RuleEngine(registry: D2SContextKVC(), cache: false)

  private static func record(_ keyPath: AnyKeyPath) throws(DSLFailure) -> DSLKeyPath {
    let recorder = KeyPathRecorder()
    var context = RuleContext(engine: recordingEngine)
    context.recorder = recorder
    _ = context[keyPath: keyPath]
    guard let first = recorder.first else {
      throw DSLFailure(
        "\(keyPath) does not start at a key (a DynamicEnvironmentKey read by a RuleContext property)"
      )
    }
    var members: [String] = []
    var recorded = recorder.members[...]
    for name in try suffix(of: String(reflecting: keyPath)) {
      if let name {
        members.append(name)
      } else if let member = recorded.popFirst() {
        members.append(member)
      } else {
        throw DSLFailure(
          "cannot name a computed property in \(keyPath); make its type KeyPathRecordable, or write the rule as text"
        )
      }
    }
    return DSLKeyPath(key: first, members: members)
  }

  /// The names after the first component in a key path's debug description
  /// (`\RuleContext.<computed 0x… (Optional<Entity>)>?.name?` → `["name"]`), nil for
  /// computed components.
  static func suffix(of description: String) throws(DSLFailure) -> [String?] {
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
        if depth == 0 {
          end = index
          break
        }
      }
      text = text[text.index(after: end)...]
    } else {
      text = text.drop { $0 != "." && $0 != "?" && $0 != "!" }
    }
    var parts: [String] = []
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
    return try parts.map { part throws(DSLFailure) -> String? in
      if part.hasPrefix("<computed") { return nil }
      guard Literal.isPlainIdentifier(part) else {
        throw DSLFailure(
          "cannot name the key path component '\(part)' in \(description); write the rule as text")
      }
      return part
    }
  }
}

/// Why one DSL rule cannot become a ``Rule``.
struct DSLFailure: Error, Sendable {
  let reason: String
  init(_ reason: String) { self.reason = reason }
}
