import D2SModel
import D2STesting
import RuleCore
import Testing

@testable import Components
@testable import EnvKeys

/// The Swift rule DSL over the builtin keys, model objects and database objects.
@Suite struct RuleDSLBuiltinKeysTests {
  let registry = D2SContextKVC()

  @Test func everyBuiltinKeyHasItsUsualName() throws {
    try D2SKeys.expose(in: registry)
    for key in registry.allKeys { #expect(key.usualName == key.name) }
  }

  @Test func modelAndDatabaseObjectsInKeyPaths() throws {
    let model: RuleModel = [
      \.attribute?.valueType == "String" => \.hideEmptyProperty <= false,
      \.attribute?.valueType == .decimal => \.formatter <= "currency",
      \.relationship?.isToMany == true => \.displayStringForNil <= "none",
      \.relationship?.isToMany => \.displayStringForNil <= "none",
      \.object?.address?.phone == "" => \.title <= \.object?.address?.address,
      \.user?.username == "Mike" && \.object?.firstName != \.user?.firstName => \.isObjectEditable
        <= false,
      \.object?.storeId == 1 && \.object?.active == true => \.title <= "store 1",
    ]
    let text = """
      attribute.valueType = 'String' => hideEmptyProperty = false
      attribute.valueType = 'Decimal' => formatter = 'currency'
      relationship.isToMany = true => displayStringForNil = 'none'
      relationship.isToMany = true => displayStringForNil = 'none'
      object.address.phone = '' => title = object.address.address
      user.username = 'Mike' AND object.firstName != user.firstName => isObjectEditable = false
      object.storeId = 1 AND object.active = true => title = 'store 1'
      """
    #expect(model.description == text, "prints with the usual names before it is attached")
    _ = try D2SEngine.make(rules: model, registry: registry)
    #expect(model.description == text)
  }

  @Test func aValueTypeNameThatIsNoneIsReported() throws {
    let model: RuleModel = [\.attribute?.valueType == "Strnig" => \.hideEmptyProperty <= false]
    let error = try #require(throws: RuleDSLError.self) {
      try D2SEngine.make(rules: model, registry: registry)
    }
    #expect(
      error.failures.first?.reason.hasPrefix("'Strnig' is not a value type (use 'String', 'Int'")
        == true)
  }

  @Test func aCustomerAnswersByDynamicMembers() throws {
    let database = try SakilaSQLite.open()
    let customer = try #require(try database.fetchObject("Customer", primaryKey: [.int(1)]))
    #expect(customer.lastName?.value as? String == "SMITH")
    #expect(customer.address?.district?.value as? String == "Nagasaki")
    #expect(customer.address?.phone?.description == "'28303384290'")
    #expect(customer.nothing == nil)
  }
}
