/// How many rows a list has in all, and how sure that number is.
public struct ListTotal: Sendable, Equatable {
  /// Exact, estimated by the database, or a lower bound.
  public enum Kind: String, Sendable {
    case exact, estimate, atLeast
  }
  /// The number.
  public var value: Int
  /// How sure it is.
  public var kind: Kind

  /// A total.
  public init(_ value: Int, _ kind: Kind = .exact) {
    self.value = value
    self.kind = kind
  }

  /// `250000`, `about 250000` or `at least 1000`.
  public var text: String {
    switch kind {
    case .exact: "\(value)"
    case .estimate: "about \(value)"
    case .atLeast: "at least \(value)"
    }
  }
}
