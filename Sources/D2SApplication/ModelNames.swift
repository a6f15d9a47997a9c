import Components
import D2SModel
import EnvKeys
import Qualifiers
import RuleCore
import Synchronization

/// A name a person typed that means nothing they may reach, with "did you mean" among the
/// names they may.
public struct NameError: Error, Sendable, CustomStringConvertible {
  /// What the name was to be.
  public enum Kind: Sendable {
    /// An entity (a web front end answers 404).
    case entity
    /// A property, a key path or an ordering (a web front end answers 400).
    case property
  }
  /// What the name was to be.
  public var kind: Kind
  /// The sentence shown (`no entity named Flim (did you mean Film?)`).
  public var message: String
  /// The message.
  public var description: String { message }
}

/// The names of entities and properties as people type them, the same for every front end
/// (SPEC §7): exactly, else without regard to case when that is unique, else a column by its
/// own name, else an error with "did you mean" among the names allowed. An entity the rules
/// make unreachable (`isEntityReachable = false`) has no name here, and no path leads through
/// it.
public struct ModelNames: Sendable {
  /// Which properties a name may mean.
  public enum Policy: Sendable {
    /// Every attribute and relationship (a person at a terminal may filter by anything).
    case everything
    /// Only what the entity's list and inspect pages show, never a password (URLs and
    /// agents: what a page never shows cannot be probed by filtering on it).
    case shown

    /// The policy in a plan's name (interpolating the case itself goes through reflection:
    /// it cost a list page 1.2% of its time, once per column header).
    var planName: String {
      switch self {
      case .everything: "everything"
      case .shown: "shown"
      }
    }
  }

  /// The context names are matched in (its database's model, user and rules).
  public let context: RuleContext
  /// Which properties a name may mean.
  public let policy: Policy
  /// The shown properties of each entity asked about, worked out once for these names (they
  /// take rule look-ups for every key of two pages).
  private let shown = ShownProperties()

  /// Names in `context`, under `policy`.
  public init(context: RuleContext, policy: Policy = .everything) {
    self.context = context
    self.policy = policy
  }

  /// `entity` in a plan's name: its name, and which model's it is (plans outlive a request).
  static func planName(_ entity: Entity) -> String {
    "\(entity.name)@\(entity.ruleCacheIdentity)"
  }

  /// Those of `keys` that name orderings of `entity` (the list's column headers that sort),
  /// planned as one answer for the page's columns: it depends on the rules and the model,
  /// never on rows.
  public func sortable(_ keys: [String], of entity: Entity) -> Set<String> {
    let policy = policy
    let name =
      "ModelNames.sortable/\(policy.planName)/\(Self.planName(entity))/"
      + keys.joined(separator: "\u{0}")
    let work = { @Sendable (context: RuleContext) in
      let names = ModelNames(context: context, policy: policy)
      return Set(keys.filter { (try? names.orderings($0, from: entity)) != nil })
    }
    guard Self.keeps(entity) else { return work(context) }
    return context.planned(name, work)
  }

  /// Whether what is worked out from `entity` may be kept: its columns were read (asked for
  /// again here after a read that failed). Nothing worked out without them is kept, so that
  /// pages have them once another program lets go of the database.
  static func keeps(_ entity: Entity) -> Bool {
    (try? entity.requireDetails()) != nil
  }

  /// The shown properties, and the names a name may mean, by entity name.
  private final class ShownProperties: Sendable {
    let byEntity = Mutex<[String: Set<String>]>([:])
    let namesByEntity = Mutex<[String: [String]]>([:])
  }

  /// The model names are matched against.
  public var model: Model { context.model }

  /// How deep a qualifier may nest.
  public static let maximumDepth = 64

  /// The most relationships a key path follows (`inventory.film.language.name` follows
  /// three): each is a join, and a path around a cycle of to-ones (a store's manager's
  /// store's manager…) can be made as long as a URL, a statement no server finishes in time.
  public static let maximumSteps = 16

  /// The name among `names` that `typed` means: itself, else the one equal to it without
  /// regard to case when only one is; nil otherwise.
  public static func match(_ typed: String, among names: [String]) -> String? {
    if names.contains(typed) { return typed }
    let lowered = typed.lowercased()
    let folded = names.filter { $0.lowercased() == lowered }
    return folded.count == 1 ? folded[0] : nil
  }

  /// `message`, with " (did you mean a, b?)" when names among `names` are close to `typed`.
  public static func notFound(
    _ kind: NameError.Kind, _ message: String, _ typed: String, among names: [String]
  ) -> NameError {
    let close = Suggestions.closest(to: typed, among: names)
    return NameError(
      kind: kind,
      message: message + (close.isEmpty ? "" : " (did you mean \(close.joined(separator: ", "))?)"))
  }

  /// Whether the rules let the context's user reach `entity` at all.
  public func isReachable(_ entity: String) -> Bool {
    context.isEntityReachable(entity)
  }

  /// The entity `name` means, when the rules let it be reached.
  public func entity(_ name: String) throws(NameError) -> Entity {
    if let entity = model.lookupEntity(name), isReachable(entity.name) { return entity }
    let reachable = model.entities.map(\.name).filter(isReachable)
    throw Self.notFound(.entity, "no entity named \(name)", name, among: reachable)
  }

  /// The names of `entity`'s properties a name may mean under the policy.
  public func propertyNames(of entity: Entity) -> [String] {
    if let known = shown.namesByEntity.withLock({ $0[entity.name] }) { return known }
    guard Self.keeps(entity) else { return workOutPropertyNames(of: entity) }
    let policy = policy
    let names = context.planned(
      "ModelNames.propertyNames/\(policy.planName)/\(Self.planName(entity))"
    ) {
      ModelNames(context: $0, policy: policy).workOutPropertyNames(of: entity)
    }
    shown.namesByEntity.withLock { $0[entity.name] = names }
    return names
  }

  private func workOutPropertyNames(of entity: Entity) -> [String] {
    let all = entity.attributes.map(\.name) + entity.relationships.map(\.name)
    let reached = all.filter { name in
      entity.relationship(named: name).map { isReachable($0.destinationName) } ?? true
    }
    guard policy == .shown else { return reached }
    let shown = shownProperties(of: entity)
    return reached.filter { shown.contains($0) && entity.attribute(named: $0)?.isPassword != true }
  }

  /// The properties of `entity` that its list and inspect pages show (not as a password's
  /// dots), and its key.
  public func shownProperties(of entity: Entity) -> Set<String> {
    if let known = shown.byEntity.withLock({ $0[entity.name] }) { return known }
    guard Self.keeps(entity) else { return workOutShownProperties(of: entity) }
    let names = context.planned("ModelNames.shownProperties/\(Self.planName(entity))") {
      ModelNames(context: $0, policy: .shown).workOutShownProperties(of: entity)
    }
    shown.byEntity.withLock { $0[entity.name] = names }
    return names
  }

  private func workOutShownProperties(of entity: Entity) -> Set<String> {
    var names = Set(entity.primaryKeyAttributeNames)
    for task in ["list", "inspect"] {
      var context = self.context
      context.task = task
      context.entity = entity
      for key in context.displayPropertyKeys {
        let row = context.with(\.propertyKey, key)
        if row.component?.name == "DisplayPassword" { continue }
        names.insert(String(key.split(separator: ".").first ?? ""))
      }
    }
    return names
  }

  /// The property of `entity` that `name` means: an attribute or relationship by name, else
  /// an attribute by its column's name (backticked: `name with . and spaces`).
  public func property(_ name: String, of entity: Entity) throws(NameError) -> String {
    let names = propertyNames(of: entity)
    if let match = Self.match(name, among: names) { return match }
    let columns = entity.attributes.filter { names.contains($0.name) }
    if let column = Self.match(name, among: columns.map(\.columnName)),
      let attribute = columns.first(where: { $0.columnName == column })
    {
      return attribute.name
    }
    throw Self.notFound(.property, "\(entity.name) has no property '\(name)'", name, among: names)
  }

  /// What a path is for: a filter may cross to-manys; an ordering goes through to-ones only.
  public enum PathUse: Sendable {
    /// A qualifier's key path.
    case filter
    /// An ordering's key path.
    case order
  }

  /// `path` from `entity` with each property name matched. With `toAttribute`, it must end
  /// on an attribute (URLs); without, what follows an attribute and `@` operators are left
  /// as typed (the REPL's `@count`).
  public func path(
    _ path: KVCPath, from entity: Entity, for use: PathUse = .filter, toAttribute: Bool = false
  ) throws(NameError) -> KVCPath {
    func failure(_ message: String) -> NameError { NameError(kind: .property, message: message) }
    guard !path.components.isEmpty else { throw failure("an empty key path") }
    let named = toAttribute ? path.components[...] : path.components.prefix { !$0.hasPrefix("@") }
    if toAttribute, let op = named.first(where: { $0.hasPrefix("@") }) {
      throw failure("\(path): operators such as \(op) are not supported")
    }
    let walk: KeyPathWalk
    do {
      walk = try KeyPathWalk(
        named, from: entity, in: model, toMany: use == .filter,
        matching: { try property($0, of: $1) })
    } catch let error as NameError {
      throw error
    } catch {
      throw failure("\(path): \(error)")
    }
    if case .toMany(let step) = walk.stop {
      throw failure(
        "\(step.name) is a to-many: an order or a facet follows to-ones only")
    }
    guard walk.steps.count <= Self.maximumSteps else {
      throw failure(
        "\(path.components.prefix(3).joined(separator: "."))…: a key path follows at most \(Self.maximumSteps) relationships"
      )
    }
    var components = walk.steps.map(\.name)
    var rest = path.components.dropFirst(walk.steps.count)
    guard let next = rest.first, !next.hasPrefix("@") else {
      if toAttribute {
        let example = walk.owner.titleAttributeChoices.first?.first ?? "name"
        throw failure("\(path) is a relationship: name one of its attributes (\(path).\(example))")
      }
      return KVCPath(components: components + rest)
    }
    let name = try property(next, of: walk.owner)
    if use == .order, let attribute = walk.owner.attribute(named: name), !attribute.hasEquality {
      throw failure(
        "\(name) is a column of type \(attribute.externalType): its values cannot be sorted or counted"
      )
    }
    if toAttribute {
      guard walk.owner.attribute(named: name) != nil else {
        throw failure("\(walk.owner.name) has no property '\(next)'")
      }
      guard rest.count == 1 else { throw failure("\(path) goes past the attribute \(name)") }
    }
    components.append(name)
    rest = rest.dropFirst()
    return KVCPath(components: components + rest)
  }

  /// `qualifier` with every key path matched from `entity`.
  ///
  /// - Throws: ``NameError`` for a name that cannot be used, or nesting deeper than
  ///   ``maximumDepth``.
  public func qualifier(
    _ qualifier: Qualifier, from entity: Entity, toAttribute: Bool = false, depth: Int = 1
  ) throws(NameError) -> Qualifier {
    guard depth <= Self.maximumDepth else {
      throw NameError(
        kind: .property, message: "the filter is nested deeper than \(Self.maximumDepth) levels")
    }
    func nested(_ inner: Qualifier) throws(NameError) -> Qualifier {
      try self.qualifier(inner, from: entity, toAttribute: toAttribute, depth: depth + 1)
    }
    func matched(_ path: KVCPath) throws(NameError) -> KVCPath {
      try self.path(path, from: entity, toAttribute: toAttribute)
    }
    switch qualifier {
    case .constant: return qualifier
    case .comparison(let path, let op, let value): return .comparison(try matched(path), op, value)
    case .keyComparison(let lhs, let op, let rhs):
      return .keyComparison(try matched(lhs), op, try matched(rhs))
    case .and(let parts):
      var matchedParts: [Qualifier] = []
      for part in parts { matchedParts.append(try nested(part)) }
      return .and(matchedParts)
    case .or(let parts):
      var matchedParts: [Qualifier] = []
      for part in parts { matchedParts.append(try nested(part)) }
      return .or(matchedParts)
    case .not(let inner): return .not(try nested(inner))
    }
  }

  /// The most comparisons across a to-many one filter holds: each is a subquery run for
  /// every row the list considers.
  public static let maximumToManyComparisons = 8

  /// The most wildcards (`*`) a `like` pattern holds: matching backtracks at each.
  public static let maximumWildcards = 5

  /// Throws when `qualifier`, a filter of `entity` a visitor or an agent gave, asks for work
  /// no page should do: more than ``maximumToManyComparisons`` comparisons across a to-many,
  /// or a pattern of more than ``maximumWildcards`` wildcards (200 such comparisons or'd
  /// together kept SQLite busy for a page's whole time; PostgreSQL ran on past a cancel).
  public func requireBoundedWork(_ qualifier: Qualifier, from entity: Entity) throws(NameError) {
    var crossing = 0
    func check(_ qualifier: Qualifier) throws(NameError) {
      switch qualifier {
      case .constant: return
      case .comparison(let path, let op, let value):
        if model.toManyHops(path.components, from: entity) > 0 { crossing += 1 }
        if op == .like || op == .caseInsensitiveLike, case .string(let pattern) = value,
          Self.wildcards(in: pattern) > Self.maximumWildcards
        {
          throw NameError(
            kind: .property,
            message: "'\(pattern)': a pattern holds at most \(Self.maximumWildcards) wildcards (*)")
        }
      case .keyComparison(let lhs, _, let rhs):
        if model.toManyHops(lhs.components, from: entity) > 0
          || model.toManyHops(rhs.components, from: entity) > 0
        {
          crossing += 1
        }
      case .and(let parts), .or(let parts): for part in parts { try check(part) }
      case .not(let inner): try check(inner)
      }
    }
    try check(qualifier)
    guard crossing <= Self.maximumToManyComparisons else {
      throw NameError(
        kind: .property,
        message:
          "the filter holds \(crossing) comparisons across to-many relationships; at most \(Self.maximumToManyComparisons) comparisons across to-many relationships are allowed"
      )
    }
  }

  /// The `*` of a pattern that are wildcards (not escaped: `\*` is a star).
  static func wildcards(in pattern: String) -> Int {
    var count = 0
    var escaped = false
    for byte in pattern.utf8 {
      if escaped {
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if byte == UInt8(ascii: "*") {
        count += 1
      }
    }
    return count
  }

  /// Orderings as text (`title`, `length desc, title`) from `entity`, each ending on an
  /// attribute reached through to-ones.
  public func orderings(_ text: String, from entity: Entity) throws(NameError) -> [SortOrdering] {
    var orderings: [SortOrdering] = []
    for part in text.split(separator: ",") {
      let words = part.split(separator: " ", omittingEmptySubsequences: true)
      guard (1...2).contains(words.count) else {
        throw NameError(
          kind: .property, message: "order: expected KEY or KEY desc, found '\(part)'")
      }
      var ascending = true
      if words.count == 2 {
        switch words[1].lowercased() {
        case "asc": ascending = true
        case "desc": ascending = false
        default:
          throw NameError(kind: .property, message: "order: expected asc or desc after \(words[0])")
        }
      }
      let path = try self.path(
        KVCPath(String(words[0])), from: entity, for: .order, toAttribute: true)
      orderings.append(SortOrdering(path.description, ascending: ascending))
    }
    return orderings
  }
}
