import Components
import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import Testing

/// A list page's display group owns its paging: it records where the window its rows were
/// read into began and ended, and its `next()` and `previous()` are the windows beside it. The
/// request stays a plain value: rendering writes nothing into it.
@Suite struct DisplayGroupPagingTests {
  /// The first column of every row of a rendered Markdown table.
  static func titles(_ page: String) -> [String] {
    page.split(separator: "\n").dropFirst(2).compactMap { line in
      guard line.hasPrefix("| "), !line.hasPrefix("| -") else { return nil }
      return line.dropFirst(2).split(separator: "|").first.map {
        String($0.trimmingCharacters(in: .whitespaces))
      }
    }
  }

  @Test func nextAndPreviousAreTheWindowsBesideTheOneShown() throws {
    let application = PageApplication(base: try sakilaContext("", registry: D2SContextKVC()))
    let first = ListRequest(
      qualifier: .comparison(KVCPath("name"), .notEqual, .string("German")),
      sortOrderings: [SortOrdering("name")], limit: 2)
    var pages: [[String]] = []
    var request = first
    var group: DisplayGroup?
    // Six languages less German: three windows of two, then none (bounded: 5 at most).
    for _ in 0..<5 {
      let output = StringOutput()
      let rendered = try application.render(
        PageRequest(task: "list", entityName: "Language", list: request, platform: "markdown"),
        to: output)
      let shown = try #require(rendered.displayGroup)
      group = shown
      pages.append(Self.titles(output.text))
      guard let next = try shown.next() else { break }
      request = next
    }
    #expect(pages == [["English", "French"], ["Italian", "Japanese"], ["Mandarin"]])
    let last = try #require(group)
    #expect(last.shown?.rows == 1 && last.shown?.more == false)
    let previous = try #require(try last.previous())
    #expect(previous.offset == 2 && previous.keyset != nil)
    let output = StringOutput()
    try application.render(
      PageRequest(task: "list", entityName: "Language", list: previous, platform: "markdown"),
      to: output)
    #expect(Self.titles(output.text) == ["Italian", "Japanese"])
    let context = try application.context(for: PageRequest(task: "list", entityName: "Language"))
    #expect(try DisplayGroup(context: context, request: first).shown == nil, "no rows read yet")
  }

  @Test func aPageWithoutAListLeavesNoDisplayGroup() throws {
    let application = PageApplication(base: try sakilaContext("", registry: D2SContextKVC()))
    let rendered = try application.render(
      PageRequest(task: "inspect", entityName: "Language", key: [.int(1)]), to: StringOutput())
    #expect(rendered.displayGroup == nil)
  }
}
