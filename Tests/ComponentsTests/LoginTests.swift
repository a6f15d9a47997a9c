import D2SModel
import D2STesting
import EnvKeys
import RuleCore
import Testing

@testable import Components

@Suite struct LoginTests {
  let registry = D2SContextKVC()

  func context(_ rules: String = "") throws -> RuleContext {
    try sakilaContext(rules, registry: registry)
  }

  @Test func sakilaStaffLogsInWithASHA1Password() throws {
    let ctx = try context()
    let mike = try Login.authenticate(login: "Mike", password: "12345", in: ctx)
    #expect(mike.displayDescription == "Staff(1) 'Mike Hillyer'")
    #expect(
      try Login.authenticate(login: "mike", password: "12345", in: ctx).primaryKeyDescription
        == "1", "case-insensitive login")
  }

  @Test func wrongPasswordsAndUsersSaySoAlike() throws {
    let ctx = try context()
    let wrong = #expect(throws: LoginError.self) {
      try Login.authenticate(login: "Mike", password: "nope", in: ctx)
    }
    let nobody = #expect(throws: LoginError.self) {
      try Login.authenticate(login: "Nobody", password: "12345", in: ctx)
    }
    #expect(wrong?.description == "wrong user name or password")
    #expect(nobody?.description == wrong?.description)
  }

  @Test func digestsAndPlainText() {
    #expect(Login.matches("12345", stored: "8cb2237d0679ca88db6464eac60da96345513964"))
    #expect(Login.matches("12345", stored: "827ccb0eea8a706c4c34a16891f84e7b"))
    #expect(Login.matches("secret", stored: "secret"))
    #expect(!Login.matches("12345", stored: "827CCB0EEA8A706C4C34A16891F84E7X"))
  }

  /// A stored digest is matched by the password it digests, never by itself: one who read
  /// the digest (a backup, a log) could log in with it without cracking it.
  @Test func aDigestIsNoPassword() {
    #expect(
      !Login.matches(
        "8cb2237d0679ca88db6464eac60da96345513964",
        stored: "8cb2237d0679ca88db6464eac60da96345513964"))
    #expect(
      !Login.matches("827ccb0eea8a706c4c34a16891f84e7b", stored: "827ccb0eea8a706c4c34a16891f84e7b")
    )
    #expect(
      !Login.matches("827CCB0EEA8A706C4C34A16891F84E7B", stored: "827ccb0eea8a706c4c34a16891f84e7b")
    )
    #expect(Login.matches("12345", stored: "827CCB0EEA8A706C4C34A16891F84E7B"))
    // Text of other lengths is plain, hex or not.
    #expect(Login.matches("abcdef", stored: "abcdef"))
  }

  @Test func loginAndSelectPages() throws {
    var ctx = try context()
    ctx.task = "login"
    assertSnapshot(try RenderEnvironment().renderPage(ctx), named: "login")
    let film = try #require(try ctx.database?.fetchObject("Film", primaryKey: [.int(1)]))
    var select = ctx
    select.task = "select"
    select.entity = film.entity
    select.object = film
    try select.setValue(.string("language"), forKeyNamed: "relationship")
    assertSnapshot(try RenderEnvironment().renderPage(select), named: "select-language")
  }
}

extension LoginTests {
  @Test func loginWorksFromAnyPage() throws {
    var ctx = try context()
    ctx.task = "inspect"
    try ctx.setValue(.string("Film"), forKeyNamed: "entity")
    #expect(
      try Login.authenticate(login: "Mike", password: "12345", in: ctx).primaryKeyDescription == "1"
    )
  }
}
