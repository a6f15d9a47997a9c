import AuditKeys
import CompactLook
import D2SREPL
import D2STesting
import RatingComponents
import Testing

@Suite struct PluginTranscriptTests {
  func session() throws -> REPLSession {
    let session = try REPLSession(plugins: [
      AuditKeysPlugin(), RatingComponentsPlugin(), CompactLookPlugin(),
    ])
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

  @Test func theCompactLook() throws {
    let session = try session()
    _ = try session.run("look = 'CompactLook'")
    #expect(
      try session.run("inspect Language 2") == """
        Italian
        =======
        Italian · 2 · Italian · 2006-02-15 05:02:19
        """)
    #expect(
      try session.run("list Language where name like '*n*' order by name") == """
        Language
        ========
        • English
        • French
        • German
        • Italian
        • Japanese
        • Mandarin
        6 Language
        """)
    #expect(
      try session.run("entities").contains("  Actor"), "pages CompactLook lacks come from BasicLook"
    )
  }

  @Test func theCompactLookInJSON() throws {
    let session = try session()
    _ = try session.run("look = 'CompactLook'")
    _ = try session.run("platform = 'json'")
    #expect(
      try session.run("inspect Language 2") == """
        {"page":"Inspect","task":"inspect","entity":"Language","title":"Italian","lines":["Italian · 2 · Italian · 2006-02-15 05:02:19"],"actions":[]}
        """)
  }

  @Test func pluginsAndLooksAreListed() throws {
    let session = try session()
    #expect(try session.run("plugins").contains("AuditKeys\nRatingComponents\nCompactLook"))
    #expect(try session.run("looks").contains("CompactLook: Inspect, QueryList"))
  }
}
