import AuditKeys
import D2SREPL
import D2STesting
import MarkdownLook
import RatingComponents
import Testing

@Suite struct PluginTranscriptTests {
  func session() throws -> REPLSession {
    let session = try REPLSession(plugins: [AuditKeysPlugin(), RatingComponentsPlugin(), MarkdownLookPlugin()])
    _ = try session.run("open \(try SakilaSQLite.copy())")
    return session
  }

  @Test func theRatingEditorInEditFilm() throws {
    let session = try session()
    let page = try session.run("edit Film 1")
    #expect(page.contains("Rating             G [PG] PG-13 R NC-17  (object.rating = 'PG-13')"))
    _ = try session.run("object.rating = 'PG-13'")
    _ = try session.run("save")
    #expect(try session.run("render").contains("G PG [PG-13] R NC-17"))
    #expect(try session.run("inspect Film 1").contains("Rental Duration    ★★★★★"))
  }

  @Test func theMarkdownLook() throws {
    let session = try session()
    _ = try session.run("look = 'MarkdownLook'")
    let list = try session.run("list Language limit 2")
    #expect(list == """
      # Language

      | Name | Last Update |
      | --- | --- |
      | English | 2006-02-15 05:02:19 |
      | Italian | 2006-02-15 05:02:19 |
      """)
    #expect(try session.run("entities").contains("  Actor"), "pages MarkdownLook lacks come from BasicLook")
  }

  @Test func pluginsAndLooksAreListed() throws {
    let session = try session()
    #expect(try session.run("plugins").contains("AuditKeys\nRatingComponents\nMarkdownLook"))
    #expect(try session.run("looks").contains("MarkdownLook: Inspect, Navigation, QueryList"))
  }
}
