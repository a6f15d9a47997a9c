import EnvKeys
import Testing

@Suite struct DynamicEnvironmentValuesTests {
  @Test func unsetKeysReadTheirDefault() {
    let root = DynamicEnvironmentValues()
    #expect(root.task == "query")
    #expect(root.count == 0)
    #expect(root.note == nil)
    #expect(!root.contains(TaskKey.self))
  }

  @Test func childSeesParentAndOverridesStayLocal() {
    var root = DynamicEnvironmentValues()
    root.task = "list"
    root.count = 1
    var child = root
    child.task = "edit"
    let grandchild = child.with(\.count, 2)
    let sibling = root.with(TaskKey.self, "inspect")

    #expect(root.task == "list")
    #expect(root.count == 1)
    #expect(child.task == "edit")
    #expect(child.count == 1)
    #expect(grandchild.task == "edit", "grandchild sees the nearest value (the child's)")
    #expect(grandchild.count == 2)
    #expect(sibling.task == "inspect")
    #expect(sibling.count == 1)
    #expect(child.count == 1, "the grandchild's override does not reach the child")
  }

  @Test func explicitNilIsAValueForOptionalKeys() {
    var values = DynamicEnvironmentValues()
    values.note = "x"
    var child = values
    child.note = nil
    #expect(child.contains(NoteKey.self))
    #expect(child.note == nil)
    #expect(values.note == "x")
  }

  @Test func removingAValueRestoresTheDefault() {
    var values = DynamicEnvironmentValues().with(\.task, "edit")
    values.removeValue(for: TaskKey.self)
    #expect(values.task == "query")
    #expect(!values.contains(TaskKey.self))
  }

  @Test func fingerprintsFollowValues() {
    let a = DynamicEnvironmentValues().with(\.task, "edit")
    let b = DynamicEnvironmentValues().with(\.task, "edit")
    let c = DynamicEnvironmentValues().with(\.task, "list")
    let id = ObjectIdentifier(TaskKey.self)
    #expect(a.fingerprint(forKeyID: id) == b.fingerprint(forKeyID: id))
    #expect(a.fingerprint(forKeyID: id) != c.fingerprint(forKeyID: id))
    #expect(DynamicEnvironmentValues().fingerprint(forKeyID: id) == .absent)
  }
}

@Suite struct StorageTests {
  @Test func settingReplacingAndRemovingKeepOtherKeys() {
    var values = DynamicEnvironmentValues()
    values.task = "a"
    values.count = 1
    values.note = "n"
    values[NamesKey.self] = ["x"]
    values.task = "b"
    values.removeValue(for: CountKey.self)
    #expect(values.task == "b")
    #expect(values.count == 0)
    #expect(!values.contains(CountKey.self))
    #expect(values.note == "n")
    #expect(values[NamesKey.self] == ["x"])
    #expect(values.keyIDs.count == 3)
    values.removeValue(for: CountKey.self)
    #expect(values.keyIDs.count == 3, "removing an unset key changes nothing")
  }
}

final class Counter: RuleCacheFingerprinting, @unchecked Sendable {
  var ruleCacheVersion = 0
  let ruleCacheIdentity = RuleCacheIdentity.next()
}

@Suite struct CacheFingerprintTests {
  @Test func valuesFingerprintByValueAndKind() {
    #expect(CacheFingerprint(of: "1") == CacheFingerprint(of: "1"))
    #expect(CacheFingerprint(of: "1") != CacheFingerprint(of: 1))
    #expect(CacheFingerprint(of: 1) != CacheFingerprint(of: true))
    #expect(CacheFingerprint(of: ["a", "b"]) == CacheFingerprint(of: ["a", "b"]))
    #expect(CacheFingerprint(of: ["a", "b"]) != CacheFingerprint(of: ["b", "a"]))
    #expect(!CacheFingerprint(of: NSObjectLike()).isCacheable)
  }

  @Test func objectsFingerprintByIdentityAndVersion() {
    let a = Counter()
    let b = Counter()
    let before = CacheFingerprint(of: a)
    #expect(before == CacheFingerprint(of: a))
    #expect(before != CacheFingerprint(of: b))
    a.ruleCacheVersion += 1
    #expect(before != CacheFingerprint(of: a))
  }

  /// Optionals (and other optional boxes) fingerprint as what they hold; an object inside
  /// one still changes its fingerprint when it changes.
  @Test func optionalsFingerprintAsTheirValue() {
    #expect(CacheFingerprint(of: Optional("1") as Any) == CacheFingerprint(of: "1"))
    #expect(CacheFingerprint(of: Optional(Optional(2)) as Any) == CacheFingerprint(of: 2))
    #expect(CacheFingerprint(of: AnySendableValue("1")) == CacheFingerprint(of: "1"))
    let none = CacheFingerprint(of: Optional<NSObjectLike>.none as Any)
    #expect(none.isCacheable)
    #expect(none == CacheFingerprint(of: AnySendableValue(nil)))
    #expect(none != CacheFingerprint(of: ""))
    #expect(!CacheFingerprint(of: Optional(NSObjectLike()) as Any).isCacheable)
    let counter = Counter()
    let before = CacheFingerprint(of: Optional(counter) as Any)
    #expect(before == CacheFingerprint(of: counter))
    counter.ruleCacheVersion += 1
    #expect(before != CacheFingerprint(of: Optional(counter) as Any))
  }

  /// A declaration spares the runtime's search and wins over a Hashable conformance.
  @Test func aTypeDeclaredNeverFingerprintedIsUncacheable() {
    #expect(CacheFingerprint(of: HashableButDeclared(number: 1)).isCacheable == false)
    #expect(
      CacheFingerprint(of: Optional(HashableButDeclared(number: 1)) as Any).isCacheable == false)
  }

  /// A scope holding an optional object reads the object's fingerprint when asked.
  @Test func aStoredOptionalObjectIsFingerprintedWhenRead() {
    let counter = Counter()
    var values = DynamicEnvironmentValues()
    let id = ObjectIdentifier(CounterKey.self)
    values.setValue(Optional(counter), forKeyID: id)
    let before = values.fingerprint(forKeyID: id)
    #expect(before == values.fingerprint(forKeyID: id))
    counter.ruleCacheVersion += 1
    #expect(before != values.fingerprint(forKeyID: id))
  }
}

enum CounterKey {}

/// Hashable, and declared never fingerprinted (before any fingerprint of it is taken).
struct HashableButDeclared: Hashable {
  static let declared: Void = CacheFingerprint.neverFingerprint(HashableButDeclared.self)
  let number: Int
  init(number: Int) {
    _ = Self.declared
    self.number = number
  }
}

/// A class that is neither hashable nor fingerprinting.
final class NSObjectLike: @unchecked Sendable {}
