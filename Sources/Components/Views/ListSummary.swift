/// The window and total of a list page, for its footer (`1–20 of 599 Customer`).
public struct ListSummary: Sendable {
  /// The name the footer counts in (`Customer`).
  public var noun: String
  /// The first row's offset.
  public var offset: Int
  /// The window's size, if the list has one.
  public var limit: Int?
  /// The total, given the number of rows shown.
  public var total: @Sendable (_ shown: Int) throws -> ListTotal
  /// The entity's name and its key's attributes when the columns do not show them all (a
  /// surrogate `id`, a link table's foreign keys): the footer says how, for `inspect`.
  public var hiddenKey: (entity: String, attributes: [String])?
  /// The display group the rows come from, when they come from one: where the window the
  /// rows were read into began and ended (``DisplayGroup/shown``), and the windows beside it.
  public var displayGroup: DisplayGroup?
  /// The list's facets, counted when asked for (after its rows and total: a renderer that
  /// shows none never counts them).
  public var facets: @Sendable () throws -> [Facet] = { [] }
  /// Whether the list has facets to count.
  public var hasFacets = false

  /// A list summary.
  public init(
    noun: String, offset: Int, limit: Int?,
    hiddenKey: (entity: String, attributes: [String])? = nil, displayGroup: DisplayGroup? = nil,
    total: @escaping @Sendable (Int) throws -> ListTotal
  ) {
    self.hiddenKey = hiddenKey
    self.displayGroup = displayGroup
    self.noun = noun
    self.offset = offset
    self.limit = limit
    self.total = total
  }

  /// The footer: `no Film found`, `16 Film`, `1–20 of 599 Customer`, `0 of 5 Film (offset 5,
  /// limit 0)`; when the key is hidden, how to see it: `… · "with id" shows the key for
  /// inspect Film ID`.
  public func footer(shown: Int, total: ListTotal) -> String {
    let of = total.text
    if shown == 0 {
      return total.value == 0 && total.kind == .exact
        ? "no \(noun) found" : "0 of \(of) \(noun) (offset \(offset), limit \(limit ?? 0))"
    }
    let count =
      shown == total.value && total.kind == .exact
      ? "\(of) \(noun)" : "\(offset + 1)–\(offset + shown) of \(of) \(noun)"
    guard let (entity, attributes) = hiddenKey, !attributes.isEmpty else { return count }
    let names = attributes.joined(separator: ", ")
    let placeholder = attributes.map { $0.uppercased() }.joined(separator: ",")
    return count + " · \"with \(names)\" shows the key for inspect \(entity) \(placeholder)"
  }
}
