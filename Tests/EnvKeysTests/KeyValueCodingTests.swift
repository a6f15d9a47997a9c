import EnvKeys
import Testing

struct Address: KeyValueCoding {
  var phone: String
  var city: String?
  func value(forKey key: String) -> Any? {
    switch key {
    case "phone": phone
    case "city": city
    default: nil
    }
  }
}

struct Customer: KeyValueCoding {
  var name: String
  var address: Address?
  var tags: [String]
  var extra: [String: Any]
  func value(forKey key: String) -> Any? {
    switch key {
    case "name": name
    case "address": address
    case "tags": tags
    case "extra": extra
    default: nil
    }
  }
}

@Suite struct KeyValueCodingTests {
  let customer = Customer(
    name: "MARY", address: Address(phone: "28303384290", city: nil), tags: ["a", "b", "c"],
    extra: ["level": 3, "nested": ["deep": "yes"]])

  @Test func readsNestedValues() {
    #expect(customer.value(forKeyPath: "name") as? String == "MARY")
    #expect(customer.value(forKeyPath: "address.phone") as? String == "28303384290")
  }

  @Test func nilOnTheWayGivesNil() {
    #expect(customer.value(forKeyPath: "address.city") == nil)
    #expect(customer.value(forKeyPath: "address.city.name") == nil)
    #expect(customer.value(forKeyPath: "nothing.here") == nil)
  }

  @Test func dictionariesAndArrays() {
    #expect(customer.value(forKeyPath: "extra.level") as? Int == 3)
    #expect(customer.value(forKeyPath: "extra.nested.deep") as? String == "yes")
    #expect(customer.value(forKeyPath: "tags.@count") as? Int == 3)
    #expect(customer.value(forKeyPath: "extra.@count") as? Int == 2)
  }

  @Test func arraysMapTheKeyOverElements() {
    let list: [Any] = [Address(phone: "1"), Address(phone: "2")]
    let phones = KVC.value(forKeyPath: ["phone"], of: list) as? [Any?]
    #expect(phones?.compactMap { $0 as? String } == ["1", "2"])
  }

  @Test func arraysAreKnownByType() {
    #expect(KVC.isArray([1, 2]))
    #expect(KVC.isArray([String]()))
    #expect(KVC.isArray([Optional<Any>.none]))
    #expect(KVC.isArray([customer]))
    #expect(!KVC.isArray("ab"))
    #expect(!KVC.isArray(Set([1])))
    #expect(!KVC.isArray(["a": 1]))
    #expect(!KVC.isArray(Optional([1]) as Any))
    #expect(!KVC.isArray(customer))
    #expect(!KVC.isArray(ContiguousArray([1])))
  }

  @Test func optionalsAreUnwrapped() {
    let wrapped: Any? = Optional(Optional(customer)) as Any
    #expect(KVC.value(forKeyPath: ["address", "phone"], of: wrapped) as? String == "28303384290")
  }
}

extension Address {
  init(phone: String) { self.init(phone: phone, city: nil) }
}
