import Components
import D2SModel
import D2STesting
import EnvKeys
import Foundation
import RuleCore
import Testing

/// A formatter that reads its dependencies where it runs: the clock, and the database of the
/// request being rendered.
private struct DaysAgoFormatter: ValueFormatter {
  @Dependency(\.clock) var clock
  @Dependency(\.database) var database

  func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
    guard case .date(let date) = value, database != nil else { return "?" }
    return "\(Int(clock.now.timeIntervalSince(date) / 86_400)) days ago"
  }

  func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
    throw FormatterError(formatter: "daysAgo", text: text, accepted: "a date")
  }
}

/// Pages are rendered with dependencies derived from the application's, which are derived
/// from the scope it renders in: a test sets one in one line.
@Suite struct PageDependencyTests {
  func application() throws -> PageApplication {
    let rules = "entity.name = 'Actor' AND propertyKey = 'lastUpdate' => formatter = 'daysAgo'"
    let formatters = FormatterRegistry()
    formatters.register(DaysAgoFormatter(), as: "daysAgo")
    return PageApplication(
      base: try sakilaContext(rules, registry: D2SContextKVC()), formatters: formatters)
  }

  /// The actor's `Last Update` row of the inspect page.
  func lastUpdate(_ application: PageApplication) throws -> String? {
    try application.render(PageRequest(task: "inspect", entityName: "Actor", key: [.int(1)]))
      .split(separator: "\n").first { $0.hasPrefix("Last Update") }.map(String.init)
  }

  @Test func aRequestSeesTheApplicationsDependenciesAndItsOwnDatabase() throws {
    // Actor 1 was last updated on 2006-02-15 04:34:33.
    let stamped = try #require(ISODateText.parse("2006-02-15 04:34:33"))
    var application = try application()
    application.dependencies.clock = .fixed(stamped.addingTimeInterval(10 * 86_400))
    #expect(try lastUpdate(application) == "Last Update  10 days ago")
    // A scope around the application: the application's own value wins.
    let inner = try withDependencies {
      $0.clock = .fixed(stamped.addingTimeInterval(86_400))
    } operation: {
      try lastUpdate(application)
    }
    #expect(inner == "Last Update  10 days ago")
    // An application that sets none takes the scope's.
    let plain = try self.application()
    let scoped = try withDependencies {
      $0.clock = .fixed(stamped.addingTimeInterval(2 * 86_400))
    } operation: {
      try lastUpdate(plain)
    }
    #expect(scoped == "Last Update  2 days ago")
    #expect(DependencyValues.current.database == nil, "nothing leaks out of a render")
    let request = PageRequest(task: "list", entityName: "Actor")
    #expect(plain.dependencies(for: request).database === plain.base.database)
  }
}
