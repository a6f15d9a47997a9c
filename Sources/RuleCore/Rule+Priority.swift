extension Rule {
  /// How strongly a rule wins over other matching rules for the same key: higher first.
  ///
  /// Named levels: `important` 1000, `veryHigh` 200, `high` 150, `normal` 100 (the default),
  /// `low` 50, `veryLow` 5, `fallback` 0; any other integer is allowed too.
  public struct Priority: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral,
    CustomStringConvertible
  {
    /// The numeric level.
    public var value: Int

    public init(_ value: Int) { self.value = value }
    public init(integerLiteral value: Int) { self.value = value }

    public static let important = Priority(1000)
    public static let veryHigh = Priority(200)
    public static let high = Priority(150)
    public static let normal = Priority(100)
    public static let low = Priority(50)
    public static let veryLow = Priority(5)
    public static let fallback = Priority(0)

    static let named: [(String, Priority)] = [
      ("important", .important), ("veryHigh", .veryHigh), ("high", .high), ("normal", .normal),
      ("low", .low), ("veryLow", .veryLow), ("fallback", .fallback),
    ]

    /// A named level, case-insensitive, with or without the space (`very high`, `veryHigh`);
    /// `default` is `normal`.
    public init?(name: String) {
      let key = name.lowercased().filter { !$0.isWhitespace }
      if key == "default" {
        self = .normal
        return
      }
      guard let match = Priority.named.first(where: { $0.0.lowercased() == key }) else {
        return nil
      }
      self = match.1
    }

    /// The level's name when it is a named level.
    public var name: String? { Priority.named.first { $0.1.value == value }?.0 }

    public static func < (lhs: Priority, rhs: Priority) -> Bool { lhs.value < rhs.value }

    public var description: String { name ?? String(value) }
  }
}
