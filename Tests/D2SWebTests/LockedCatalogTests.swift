import D2STesting
import Foundation
import SQLiteAdaptor
import Testing

@testable import D2SWeb

/// Another program holds the database's write lock when a table's columns are first needed:
/// the pages say the database is locked (503), never that a row is missing or that a table
/// has no columns, and once the lock is gone they are whole, with nothing kept from before.
@Suite struct LockedCatalogTests {
  @Test(.timeLimit(.minutes(1)))
  func pagesMadeWhileTheColumnsCannotBeReadAreBusyAndNothingOfThemIsKept() async throws {
    let path = try SakilaSQLite.copy()
    // The default rules: which columns a list shows follows from the table's columns.
    let app = try WebApplication.open(path, configuration: .init(pageCacheBytes: 0))
    let locker = try SQLiteAdaptor(path: path)
    try locker.executeScript("BEGIN EXCLUSIVE")
    let film = await app.get("/Film/1")
    #expect(film.status == 503, "\(film.status)")
    #expect(film.body.contains("locked by another program"))
    #expect(!film.body.contains("no Film with key"))
    // Within the catalog's retry second: not 'no property title', nor a query form without
    // fields, whose search would be dropped.
    for target in ["/Film?order=title", "/Film/-/query"] {
      let page = await app.get(target)
      #expect(page.status == 503, "\(target): \(page.status)")
    }
    // Asked again at once, within the catalog's retry interval, while the lock is let go:
    // the columns are still unread for this page, which must not be made without them.
    let list = Task { await app.get("/Film?limit=5") }
    try await Task.sleep(for: .milliseconds(300))
    try locker.executeScript("COMMIT")
    let during = await list.value
    #expect(during.status == 503 || during.body.contains("ACADEMY DINOSAUR"), "\(during.status)")
    // The catalog is read again once its retry interval (1 s) has passed: whole pages, with
    // no rule answer or plan kept from the pages made without the columns.
    try await Task.sleep(for: .milliseconds(1_200))
    let after = await app.get("/Film?limit=5")
    #expect(after.status == 200)
    #expect(after.body.contains("ACADEMY DINOSAUR"), "the list has its columns again")
    let again = await app.get("/Film/1")
    #expect(again.status == 200)
    #expect(again.body.contains("ACADEMY DINOSAUR"))
    let json = await app.get("/Film?limit=5", accept: "application/json")
    #expect(json.body.contains("ACADEMY DINOSAUR"), "\(json.body.prefix(300))")
  }

  @Test(.timeLimit(.minutes(1)))
  func aLoginWhileTheColumnsCannotBeReadIsBusyAndLoginsWorkOnceTheyCan() async throws {
    let path = try SakilaSQLite.copy()
    let app = try WebApplication.open(
      path, rules: [WebEditingTests.demoRules], configuration: .init(pageCacheBytes: 0),
      connections: 1)
    let locker = try SQLiteAdaptor(path: path)
    try locker.executeScript("BEGIN EXCLUSIVE")
    let locked = await WebClient(app, address: "10.0.0.1").login("Mike", "12345")
    try locker.executeScript("COMMIT")
    #expect(locked.status == 503, "not a failed login: \(locked.status)")
    #expect(locked.body.contains("locked by another program"))
    try await Task.sleep(for: .milliseconds(1_200))
    // The user entity, worked out without the columns, was not kept as "none".
    let login = await WebClient(app, address: "10.0.0.2").login("Mike", "12345")
    #expect(login.status == 303, "\(login.status)")
  }
}
