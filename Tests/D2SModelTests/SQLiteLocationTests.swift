import Foundation
import Testing

@testable import SQLiteAdaptor

/// A database's name and folder from its path, as `URL` gave them.
@Suite struct SQLiteLocationTests {
  @Test(arguments: [
    "sakila.db", "data/shop.db", "/tmp/a.b.db", "/tmp/x/", "noextension", ".hidden", "dir/.db",
    "/root.sqlite3",
  ])
  func stemAndFolderAreURLs(path: String) {
    let url = URL(fileURLWithPath: path)
    #expect(SQLiteLocation.stem(of: path) == url.deletingPathExtension().lastPathComponent)
    if !path.hasSuffix("/") {
      let folder = SQLiteLocation.folder(of: path)
      #expect(
        URL(fileURLWithPath: folder).standardizedFileURL.path
          == url.deletingLastPathComponent().standardizedFileURL.path)
    }
  }
}
