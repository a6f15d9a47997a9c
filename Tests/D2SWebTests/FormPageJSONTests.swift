import D2STesting
import D2SWeb
import Foundation
import Testing

/// The new-row form and the delete page answer JSON when asked, as every page does: a program
/// reads what the form holds, or what a delete would touch, without parsing HTML.
@Suite struct FormPageJSONTests {
  /// Mike, logged in to the demo.
  static func mike() async throws -> WebClient {
    let (app, _) = try WebEditingTests.demo()
    let mike = WebClient(app)
    await mike.login("Mike", "12345")
    return mike
  }

  /// The page at `target` as `client` gets it, checked to be JSON, and its object.
  static func json(_ client: WebClient, _ target: String) async throws -> (
    page: WebResponse, object: [String: Any]
  ) {
    let page = await client.get(target)
    #expect(page.status == 200)
    #expect(page.contentType == "application/json; charset=utf-8")
    return (page, try JSONParityTests.object(page.body))
  }

  @Test func theNewRowFormIsTheEditFormsJSON() async throws {
    let mike = try await Self.mike()
    let (page, json) = try await Self.json(mike, "/Film/-/new?format=json")
    #expect(json["task"] as? String == "edit")
    #expect(page.body.contains("\"title\""))
    #expect(!page.body.contains("<form"))
    // The HTML form is as it was.
    let html = await mike.get("/Film/-/new")
    #expect(html.contentType == "text/html; charset=utf-8")
    #expect(html.body.contains("<form"))
  }

  @Test func theDeletePageSaysWhatADeleteWouldTouch() async throws {
    let mike = try await Self.mike()
    // A language no film uses: deletable, with the stamp its POST carries.
    let (_, json) = try await Self.json(mike, "/Language/6/-/delete?format=json")
    #expect(json["page"] as? String == "delete")
    #expect(json["entity"] as? String == "Language")
    #expect(json["deletable"] as? Bool == true)
    let stamp = try #require(json["_row"] as? String)
    let fields = try #require(json["fields"] as? [[String: Any]])
    #expect(fields.contains { $0["key"] as? String == "name" && $0["text"] as? String == "German" })
    // The stamp is the one the HTML form carries: a program can post it.
    let html = await mike.get("/Language/6/-/delete")
    #expect(html.body.contains("value=\"\(stamp)\""))
    // A film with rentals: the rows that refer to it are listed.
    let used = try JSONParityTests.object(await mike.get("/Film/1/-/delete?format=json").body)
    #expect((used["referring"] as? [String])?.isEmpty == false)
  }
}
