import RuleCore

/// A group of an inspect, edit or new page's properties, as ERD2W's `displayPropertyKeys`
/// write them: `("(Basics)", "title", "description", "[Pricing]", "rentalRate")` gives the
/// section Basics and the tab Pricing; keys before the first heading form a group without one.
public struct PropertyGroup: Sendable, Equatable {
  /// The heading (`Basics`), nil for the keys before the first one.
  public var title: String?
  /// Whether the group is a tab (`[Pricing]`) rather than a section (`(Basics)`).
  public var isTab: Bool
  /// The property keys, in order.
  public var keys: [String]

  /// A group of `keys` under `title`.
  public init(title: String?, isTab: Bool, keys: [String]) {
    self.title = title
    self.isTab = isTab
    self.keys = keys
  }

  /// The heading an entry of `displayPropertyKeys` stands for (`(Basics)`: a section,
  /// `[Pricing]`: a tab), nil for a property key.
  public static func heading(_ entry: String) -> (title: String, isTab: Bool)? {
    // A property key is told by its bytes alone (a heading's first and last characters are
    // its first and last bytes), without counting characters or making its title.
    guard let head = entry.utf8.first, head == UInt8(ascii: "(") || head == UInt8(ascii: "["),
      let tail = entry.utf8.last, tail == UInt8(ascii: ")") || tail == UInt8(ascii: "]")
    else { return nil }
    guard entry.count > 2, let first = entry.first, let last = entry.last else { return nil }
    let title = String(entry.dropFirst().dropLast())
    guard !title.allSatisfy(\.isWhitespace) else { return nil }
    switch (first, last) {
    case ("(", ")"): return (title, false)
    case ("[", "]"): return (title, true)
    default: return nil
    }
  }

  /// `entries` grouped under their headings; an empty group (two headings in a row) is kept,
  /// so that a heading is never lost.
  public static func groups(_ entries: [String]) -> [PropertyGroup] {
    var groups: [PropertyGroup] = []
    var current = PropertyGroup(title: nil, isTab: false, keys: [])
    for entry in entries {
      if let (title, isTab) = heading(entry) {
        if current.title != nil || !current.keys.isEmpty { groups.append(current) }
        current = PropertyGroup(title: title, isTab: isTab, keys: [])
      } else {
        current.keys.append(entry)
      }
    }
    if current.title != nil || !current.keys.isEmpty { groups.append(current) }
    return groups
  }
}

extension RuleContext {
  /// `displayPropertyKeys` with its headings: the groups an inspect, edit or new page shows.
  public var displayPropertyGroups: [PropertyGroup] {
    let entries = self[D2SKeys.DisplayPropertyKeys.self]
    // As ``displayPropertyKeys``: nothing that reads an entity the user may not reach (a
    // heading names no property: it stays).
    let kept = Set(onlyReachable(entries.filter { PropertyGroup.heading($0) == nil }))
    return PropertyGroup.groups(
      entries.filter { PropertyGroup.heading($0) != nil || kept.contains($0) })
  }
}
