import Dispatch
import Testing

@testable import EnvKeys

/// Casts through declared conformances against the runtime's casts.
@Suite struct DeclaredConformancesTests {
  class Named: KeyValueCoding, RuleCacheFingerprinting {
    let ruleCacheIdentity = RuleCacheIdentity.next()
    var ruleCacheVersion: Int { 3 }
    func value(forKey key: String) -> Any? { key == "name" ? "named" : nil }
  }
  final class Subnamed: Named {}
  struct Plain: KeyValueCoding {
    func value(forKey key: String) -> Any? { key == "plain" ? 1 : nil }
  }

  @Test func declaredTypesCastAsTheRuntimeCasts() throws {
    DeclaredConformances.declare(Named.self)
    DeclaredConformances.declare(Plain.self)
    let named = Named()
    #expect(DeclaredConformances.entry(for: ObjectIdentifier(Named.self)) != nil)
    let kvc = try #require(DeclaredConformances.keyValueCoding(named))
    #expect(kvc.value(forKey: "name") as? String == "named")
    #expect(DeclaredConformances.fingerprinting(named) === named)
    #expect(DeclaredConformances.isFingerprinting(named) == true)
    // A type declared for key-value coding only is no fingerprinting one.
    #expect(DeclaredConformances.keyValueCoding(Plain())?.value(forKey: "plain") as? Int == 1)
    #expect(DeclaredConformances.fingerprinting(Plain()) == nil)
    #expect(DeclaredConformances.isFingerprinting(Plain()) == false)
    // Undeclared types (a subclass, a string) are cast by the runtime, as before.
    #expect(DeclaredConformances.entry(for: ObjectIdentifier(Subnamed.self)) == nil)
    #expect(
      DeclaredConformances.keyValueCoding(Subnamed())?.value(forKey: "name") as? String == "named")
    #expect(DeclaredConformances.fingerprinting(Subnamed()) != nil)
    #expect(DeclaredConformances.keyValueCoding("text") == nil)
    #expect(DeclaredConformances.isFingerprinting("text") == nil)
    // Fingerprints and key-value coding see the same object either way.
    #expect(CacheFingerprint(of: named as Any) == CacheFingerprint(of: named))
    #expect(KVC.value(forKey: "name", of: named) as? String == "named")
    #expect(KVC.value(forKeyPath: ["name"], of: Optional(named) as Any) as? String == "named")
  }

  @Test func declaringTwiceKeepsOneEntryAndReadersNeverWait() async {
    // Declarations while other threads read: each read finds a whole entry or none.
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for _ in 0..<500 {
            if task % 2 == 0 { DeclaredConformances.declare(Named.self) }
            #expect(
              DeclaredConformances.keyValueCoding(Named())?.value(forKey: "name") as? String
                == "named")
          }
        }
      }
    }
    #expect(
      DeclaredConformances.declaredTypes.filter { $0 == ObjectIdentifier(Named.self) }.count == 1)
  }
}
