import D2SREPL
import D2STesting
import D2SWeb
import Foundation
import Testing

/// JSON at every URL: the same members as `d2s-repl --format json` prints for the same
/// command (the web may add its own).
@Suite struct JSONParityTests {
  static func replJSON(_ path: String, _ command: String) throws -> [String: Any] {
    let session = try REPLSession(width: nil)
    _ = try session.run(.open(path))
    _ = try session.run(.set(key: "platform", value: .string("json")))
    return try object(try session.run(command))
  }

  static func object(_ text: String) throws -> [String: Any] {
    let value = try JSONSerialization.jsonObject(with: Data(text.utf8))
    return try #require(value as? [String: Any])
  }

  static func same(_ a: Any?, _ b: Any?) -> Bool {
    guard let a, let b else { return a == nil && b == nil }
    let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed]
    let left = try? JSONSerialization.data(withJSONObject: a, options: options)
    let right = try? JSONSerialization.data(withJSONObject: b, options: options)
    return left != nil && left == right
  }

  @Test(arguments: [
    ("/Film/1", "inspect Film 1"),
    ("/Film?limit=5&order=title", "list Film order by title limit 5"),
    ("/", "entities"), ("/FilmActor/1,1", "inspect FilmActor 1,1"),
  ])
  func theWebsJSONHasTheREPLsMembers(target: String, command: String) async throws {
    let path = try SakilaSQLite.copy()
    let app = try WebApplication.open(path)
    let page = await app.get(target, accept: "application/json")
    #expect(page.status == 200)
    #expect(page.contentType == "application/json; charset=utf-8")
    #expect(page.header("Vary") == "Accept")
    let web = try Self.object(page.body)
    let repl = try Self.replJSON(path, command)
    for (key, value) in repl where key != "title" || command != "entities" {
      #expect(Self.same(web[key], value), "\(target): member \(key)")
    }
    let byParameter = await app.get(target + (target.contains("?") ? "&" : "?") + "format=json")
    #expect(byParameter.body == page.body)
  }
}
