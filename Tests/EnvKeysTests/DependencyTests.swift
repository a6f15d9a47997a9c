import EnvKeys
import Foundation
import Testing

private enum GreetingKey: DependencyKey {
  static let liveValue = "hello"
}

extension DependencyValues {
  fileprivate var greeting: String {
    get { self[GreetingKey.self] }
    set { self[GreetingKey.self] = newValue }
  }
}

/// Reads its dependencies where it runs, as non-view code does.
private struct Greeter {
  @Dependency(\.greeting) var greeting
  @Dependency(\.clock) var clock
  func line() -> String { "\(greeting) at \(Int(clock.now.timeIntervalSince1970))" }
}

/// Dependencies in the spirit of SwiftUI's environment: derived scopes see their parent's
/// values and override some without touching the parent or a sibling.
@Suite struct DependencyTests {
  @Test func aKeyReadsItsLiveValueUntilSet() {
    let values = DependencyValues()
    #expect(values.greeting == "hello")
    #expect(abs(values.clock.now.timeIntervalSinceNow) < 60, "the system clock")
    let changed = values.with(\.greeting, "hi")
    #expect(changed.greeting == "hi" && values.greeting == "hello", "the parent is untouched")
    let sibling = values.with(\.clock, .fixed(Date(timeIntervalSince1970: 7)))
    #expect(sibling.greeting == "hello" && sibling.clock.now.timeIntervalSince1970 == 7)
    #expect(changed.merging(sibling).greeting == "hi", "merging keeps what the other leaves")
  }

  @Test func aScopeDerivesFromTheOneItIsIn() {
    let greeter = Greeter()
    #expect(greeter.greeting == "hello")
    let lines = withDependencies {
      $0.clock = .fixed(Date(timeIntervalSince1970: 60))
    } operation: {
      let outer = greeter.line()
      let inner = withDependencies {
        $0.greeting = "hi"
      } operation: {
        greeter.line()
      }
      return [outer, inner, greeter.line()]
    }
    #expect(lines == ["hello at 60", "hi at 60", "hello at 60"])
    #expect(greeter.greeting == "hello", "back as it was after the scope")
  }

  @Test func tasksStartedInAScopeInheritIt() async {
    let line = await withDependencies {
      $0.greeting = "hey"
    } operation: {
      await Task { Greeter().greeting }.value
    }
    #expect(line == "hey")
    #expect(await Task.detached { Greeter().greeting }.value == "hello")
  }
}
