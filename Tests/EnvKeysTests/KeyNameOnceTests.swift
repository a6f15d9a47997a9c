import EnvKeys
import Testing

/// A key that names itself.
enum BadgeKey: DynamicEnvironmentKey {
  static var defaultValue: String { "" }
  static let exposedName: String? = "badge"
}

/// A key's name is written once, in the key type: exposing it takes that name, and another
/// one is an error.
@Suite struct KeyNameOnceTests {
  @Test func aKeyIsExposedUnderItsOwnName() throws {
    let registry = D2SContextKVC()
    let key = try registry.expose(BadgeKey.self)
    #expect(key.name == "badge")
    #expect(registry.key(named: "badge")?.valueTypeName == "String")
    try registry.expose(BadgeKey.self, "badge")  // the same name again: a no-op
    #expect(registry.allKeys.count == 1)
  }

  @Test func anotherNameIsAnError() {
    let registry = D2SContextKVC()
    let error = #expect(throws: ExposeError.self) { try registry.expose(BadgeKey.self, "label") }
    #expect(error?.code == .nameMismatch)
    #expect(
      error?.description
        == "the key (of type String) is named 'badge' by its exposedName; cannot expose it as 'label' (expose it without a name to use its own)"
    )
    #expect(registry.key(named: "label") == nil)
  }

  @Test func aKeyWithoutANameNeedsOneWhenExposed() throws {
    let registry = D2SContextKVC()
    let error = #expect(throws: ExposeError.self) { try registry.expose(TaskKey.self) }
    #expect(error?.code == .invalidName)
    #expect(error?.description.contains("has no exposedName") == true)
    try registry.expose(TaskKey.self, "task")
    #expect(registry.key(named: "task") != nil)
  }
}
