import AuditKeys
import D2STesting
import Testing

// Unit-testing custom rules with D2STesting (quoted in the README, "Testing your rules").
@Test func paymentsAreAuditedUnderTheirDisplayName() throws {
  let tester = try RuleTester(
    rules: "entity.name = 'Payment' => displayNameForEntity = 'Money in'",
    plugins: [AuditKeysPlugin()],
    database: try TestDatabases.sakila())

  let payments = try tester.setting("entity", to: "'Payment'")
  #expect(try payments.value("isAuditLogged") == "true")
  #expect(try payments.value("auditLabel") == "'Money in'")
  #expect(
    try payments.rule("auditLabel") == "isAuditLogged = true => auditLabel = displayNameForEntity")

  let films = try tester.setting("entity", to: "'Film'")
  #expect(try films.value("isAuditLogged") == "false")

  // Typed answers: by the key's type, or by its RuleContext accessor.
  #expect(try payments.value(IsAuditLoggedKey.self) == true)
  #expect(try payments.value(\.auditLabel) == "Money in")

  // The plugin's rules and these lint clean, as `dvd-repl --lint --plugin AuditKeys` checks.
  #expect(try tester.lint(plugin: "AuditKeys").isEmpty)
  #expect(try tester.lint().isEmpty)
}
