import Synchronization

/// Counts the rows that tables hand to their renderers while it is bound as ``current``
/// (d2s-repl's `timing`: the rows a command showed).
///
/// ```swift
/// let tally = RowTally()
/// try RowTally.$current.withValue(tally) { try environment.renderPage(context, to: output) }
/// tally.count  // the rows of every table on the page
/// ```
/// A ``RowSource`` adds its rows when it has streamed them: one look at ``current`` per table,
/// nothing per row.
public final class RowTally: Sendable {
  private let rows = Atomic<Int>(0)

  /// The tally rendering adds to, if any (bound per task, or per thread outside tasks).
  @TaskLocal public static var current: RowTally?

  /// An empty tally.
  public init() {}

  /// The rows counted so far.
  public var count: Int { rows.load(ordering: .relaxed) }

  /// Adds `count` rows.
  public func add(_ count: Int) { rows.wrappingAdd(count, ordering: .relaxed) }
}
