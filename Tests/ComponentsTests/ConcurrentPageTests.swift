import D2SModel
import D2STesting
import EnvKeys
import Foundation
import Qualifiers
import RuleCore
import Synchronization
import Testing

@testable import Components

/// Pages are a function of a request, with no session: eight different pages rendered on
/// eight threads at once, many times each, are exactly what one thread renders. (Run under
/// ThreadSanitizer by `make test-sanitized`.)
@Suite struct ConcurrentPageTests {
  static let rounds = 200

  /// Eight different requests: the entity list, lists (filtered, joined, to-one titles, in
  /// other platforms) and inspect pages.
  static func requests() throws -> [PageRequest] {
    [
      PageRequest(task: "query"),
      PageRequest(
        task: "list", entityName: "Film",
        list: ListRequest(sortOrderings: [SortOrdering("title")], limit: 20)),
      PageRequest(
        task: "list", entityName: "Actor",
        list: ListRequest(
          qualifier: try QualifierParser.parse("lastName like 'A*'"), limit: 10)),
      PageRequest(task: "inspect", entityName: "Film", key: [.int(1)]),
      PageRequest(task: "inspect", entityName: "Customer", key: [.int(5)]),
      PageRequest(task: "list", entityName: "Rental", list: ListRequest(limit: 50)),
      PageRequest(task: "list", entityName: "City", list: ListRequest(limit: 30), platform: "json"),
      PageRequest(
        task: "list", entityName: "Payment", list: ListRequest(limit: 10, offset: 100),
        platform: "markdown"),
    ]
  }

  @Test func eightPagesOnEightThreadsAreTheSerialPages() throws {
    let application = PageApplication(
      base: try sakilaContext(
        "entity.name = 'Film' => displayNameForEntity = 'Movies'", registry: D2SContextKVC()))
    let serial = try Self.requests().map { try application.render($0) }
    #expect(serial[1].hasPrefix("Movies\n"), "the base context's rules apply")
    #expect(serial[6].hasPrefix("{\"page\":\"QueryList\""))
    #expect(Set(serial).count == 8)

    let results = Mutex<[[String]]>(Array(repeating: [], count: 8))
    let failures = Mutex<[String]>([])
    DispatchQueue.concurrentPerform(iterations: 8) { index in
      do {
        let request = try Self.requests()[index]
        var pages: [String] = []
        for _ in 0..<Self.rounds { pages.append(try application.render(request)) }
        results.withLock { $0[index] = pages }
      } catch {
        failures.withLock { $0.append("page \(index): \(error)") }
      }
    }
    #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
    let rendered = results.withLock { $0 }
    for (index, pages) in rendered.enumerated() {
      #expect(pages.count == Self.rounds)
      let wrong = pages.filter { $0 != serial[index] }.count
      #expect(wrong == 0, "page \(index): \(wrong) of \(pages.count) differ")
    }
  }

  @Test func aRequestNamesWhatItCannotFind() throws {
    let application = PageApplication(base: try sakilaContext("", registry: D2SContextKVC()))
    #expect {
      try application.render(PageRequest(task: "list", entityName: "Flim"))
    } throws: { "\($0)".contains("no entity named Flim") }
    #expect {
      try application.render(PageRequest(task: "inspect", entityName: "Film", key: [.int(99_999)]))
    } throws: { "\($0)".contains("no Film with key 99999") }
  }
}
