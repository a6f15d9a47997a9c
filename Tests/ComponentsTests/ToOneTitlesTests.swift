import D2SModel
import D2STesting
import EnvKeys
import Testing

@testable import Components

/// A to-one column's kept cells are found by their key wherever they are kept: small keys by
/// index, keys spread over a big table (a page of rentals' inventories) by value, with no array
/// of thousands of empty cells made for them.
@Suite struct ToOneTitlesTests {
  @Test func spreadKeysAreFoundWithoutABigArray() throws {
    let database = try TestDatabases.sqlite("CREATE TABLE kind (id INTEGER PRIMARY KEY);")
    let kind = try #require(database.model.entity(named: "Kind"))
    let titles = ListColumns.ToOneTitles(
      .init(destination: kind, destinationKeys: ["id"], sources: [], sourceIndexes: [0]))
    let keys = [4581, 1, 70, 2, 599, 3, 65535, 65536, 0, 100_000, 64, 12, 4]
    for n in keys { titles.store(ShownValue(.int(n), text: "#\(n)"), for: [.int(n)]) }
    // Stored again after the array grew past it: the new cell.
    titles.store(ShownValue(.int(70), text: "#70 again"), for: [.int(70)])
    for n in keys where n != 70 { #expect(titles.cell([.int(n)])?.text == "#\(n)", "\(n)") }
    #expect(titles.cell([.int(70)])?.text == "#70 again")
    for n in [5, 69, 4580, 65534, -1] { #expect(titles.cell([.int(n)]) == nil, "\(n)") }
    #expect(titles.cellsByInteger.count <= 128)
    // Dense keys, as every row of a small table is loaded: all by index.
    for n in 0..<1000 { titles.store(ShownValue(.int(n), text: "#\(n)"), for: [.int(n)]) }
    #expect(titles.cellsByInteger.count == 1000)
    #expect(titles.cell([.int(999)])?.text == "#999")
    #expect(titles.cell([.int(4581)])?.text == "#4581")
  }
}
