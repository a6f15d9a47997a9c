import Foundation
import RuleCore
import Synchronization

/// Coverage across a suite's testers: which rules of a rule file won at least one look-up.
///
/// ```swift
/// static let coverage = RuleCoverage()
/// @Test func films() throws { let tester = try RuleTester(ruleFile: path, coverage: Self.coverage) … }
/// @Test func everyRuleWins() { #expect(Self.coverage.neverWon(inFile: path) == []) }
/// ```
public final class RuleCoverage: Sendable {
  private let engines = Mutex<[RuleEngine]>([])

  /// An empty collection.
  public init() {}

  /// Collects the wins of `tester` (and of its copies).
  public func track(_ tester: RuleTester) {
    let engine = tester.context.engine
    engine.coverage.start()
    engines.withLock { engines in
      if !engines.contains(where: { $0 === engine }) { engines.append(engine) }
    }
  }

  /// The rules of the file at `path` that no tracked tester saw win, as `FILE:LINE: rule`
  /// lines, in file order. Rules are matched by file and line across testers.
  public func neverWon(inFile path: String) -> [String] {
    let wanted = RuleCoverage.normalised(path)
    var won: [Int: Int] = [:]
    var texts: [Int: String] = [:]
    for engine in engines.withLock({ $0 }) {
      for numbered in engine.ruleModel.rules {
        guard let source = engine.source(of: numbered), let file = source.file,
          RuleCoverage.normalised(file) == wanted
        else { continue }
        let line = source.location.line
        won[line, default: 0] += engine.coverage.counts(of: numbered).won
        texts[line] = "\(file):\(line): \(numbered.rule)"
      }
    }
    return won.filter { $0.value == 0 }.keys.sorted().compactMap { texts[$0] }
  }

  private static func normalised(_ path: String) -> String {
    URL(fileURLWithPath: path).standardizedFileURL.path
  }
}
