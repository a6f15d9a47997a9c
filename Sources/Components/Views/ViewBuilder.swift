/// Builds a view's content from the views listed in a `body`, like SwiftUI's `ViewBuilder`:
/// several views stack vertically; `if`, `if let`, `switch` and `for` work.
@resultBuilder
public enum D2SViewBuilder {
  /// A view as one part of a block.
  public static func buildExpression(_ view: some D2SView) -> any D2SView { view }

  /// Plain text as one part of a block.
  public static func buildExpression(_ text: String) -> any D2SView { Text(text) }

  /// The parts of a block, stacked.
  public static func buildBlock(_ parts: (any D2SView)...) -> Group { Group(parts) }

  /// An `if` without `else`.
  public static func buildOptional(_ part: Group?) -> Group { part ?? Group([]) }

  /// The first branch of an `if`/`else` or `switch`.
  public static func buildEither(first: Group) -> Group { first }

  /// The second branch of an `if`/`else` or `switch`.
  public static func buildEither(second: Group) -> Group { second }

  /// A `for` loop's parts.
  public static func buildArray(_ parts: [Group]) -> Group { Group(parts) }

  /// `if #available`: the same views.
  public static func buildLimitedAvailability(_ part: Group) -> Group { part }
}
