import Components
import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import RuleCore

/// Names and keys from a URL, resolved against the model as the rules allow: an entity the
/// rules hide is not found; a password or a property the rules hide cannot filter or sort.
struct WebNames {
  /// The context names are resolved in (the base context on the request's connection).
  let context: RuleContext
  /// The entities the rules show.
  let visible: Set<String>

  init(context: RuleContext) {
    self.context = context
    self.visible = Set(context.visibleEntityNames)
  }

  var model: Model { context.model }

  /// The entity `name` names, when the rules show it.
  func entity(_ name: String) throws -> Entity {
    guard let entity = model.entity(named: name) ?? model.lookupEntity(name),
      visible.contains(entity.name)
    else { throw WebError(.notFound, "no entity named \(name)") }
    return entity
  }

  /// The properties of `entity` that its list and inspect pages show (not as a password's
  /// dots), and its key.
  func shownProperties(of entity: Entity) -> Set<String> {
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

  /// The property of `entity` named `name` (exactly, else without regard to case when that
  /// is unique) that may be used in a URL: shown by the pages, not a password, and not a
  /// relationship to an entity the rules hide. Anything else is "no property", whatever the
  /// reason, so that the answer tells nothing of what is hidden.
  func property(_ name: String, of entity: Entity) throws -> String {
    let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
    let lowered = name.lowercased()
    var matches = names.contains(name) ? [name] : names.filter { $0.lowercased() == lowered }
    if matches.isEmpty {
      // A column by its own name (backticked: `name with . and spaces`).
      let columns = entity.attributes.filter { $0.columnName == name }
      matches =
        (columns.isEmpty
        ? entity.attributes.filter { $0.columnName.lowercased() == lowered } : columns).map(\.name)
    }
    guard matches.count == 1, let match = matches.first,
      shownProperties(of: entity).contains(match),
      entity.attribute(named: match)?.isPassword != true,
      entity.relationship(named: match).map({ visible.contains($0.destinationName) }) ?? true
    else { throw WebError(.badRequest, "\(entity.name) has no property '\(name)'") }
    return match
  }

  /// What a `where=` or `order=` path may be: it ends on an attribute, and a sort goes
  /// through to-ones only.
  enum PathUse {
    case filter, order
  }

  /// `path` from `entity`, each step a property the page may show, ending on an attribute.
  func path(_ path: KVCPath, from entity: Entity, for use: PathUse = .filter) throws -> KVCPath {
    try resolve(path, from: entity, for: use).path
  }

  /// The value type of the attribute `keyPath` (already resolved) ends on.
  func valueType(of keyPath: String, from entity: Entity) throws -> Attribute.ValueType? {
    try resolve(KVCPath(keyPath), from: entity, for: .order).attribute.valueType
  }

  private func resolve(_ path: KVCPath, from entity: Entity, for use: PathUse) throws -> (
    path: KVCPath, attribute: Attribute
  ) {
    func named(_ component: String, in entity: Entity) throws -> String {
      if component.hasPrefix("@") {
        throw WebError(.badRequest, "\(path): operators such as \(component) are not supported")
      }
      return try property(component, of: entity)
    }
    guard !path.components.isEmpty else { throw WebError(.badRequest, "an empty key path") }
    // A list sorts by to-ones only; a filter may cross to-manys.
    let walk = try KeyPathWalk(
      path.components, from: entity, in: model, toMany: use != .order, matching: named)
    if case .toMany(let step) = walk.stop {
      throw WebError(.badRequest, "order: \(step.name) is a to-many; a list sorts by to-ones only")
    }
    let components = walk.steps.map(\.name)
    guard let next = walk.rest.first else {
      let example = walk.owner.titleAttributeChoices.first?.first ?? "name"
      throw WebError(
        .badRequest, "\(path) is a relationship: name one of its attributes (\(path).\(example))")
    }
    let name = try named(next, in: walk.owner)
    guard let attribute = walk.owner.attribute(named: name) else {
      throw WebError(.badRequest, "\(walk.owner.name) has no property '\(next)'")
    }
    guard walk.rest.count == 1 else {
      throw WebError(.badRequest, "\(path) goes past the attribute \(name)")
    }
    return (KVCPath(components: components + [name]), attribute)
  }

  /// `qualifier` with its paths resolved from `entity`.
  ///
  /// - Throws: ``WebError`` (400) for a property that cannot be used, or nesting deeper
  ///   than ``maximumDepth``.
  func qualifier(_ qualifier: Qualifier, from entity: Entity, depth: Int = 1) throws -> Qualifier {
    guard depth <= Self.maximumDepth else {
      throw WebError(.badRequest, "the filter is nested deeper than \(Self.maximumDepth) levels")
    }
    switch qualifier {
    case .constant: return qualifier
    case .comparison(let path, let op, let value):
      return .comparison(try self.path(path, from: entity), op, value)
    case .keyComparison(let lhs, let op, let rhs):
      return .keyComparison(try path(lhs, from: entity), op, try path(rhs, from: entity))
    case .and(let parts):
      return .and(try parts.map { try self.qualifier($0, from: entity, depth: depth + 1) })
    case .or(let parts):
      return .or(try parts.map { try self.qualifier($0, from: entity, depth: depth + 1) })
    case .not(let inner): return .not(try self.qualifier(inner, from: entity, depth: depth + 1))
    }
  }

  /// How deep a `where=` may nest.
  static let maximumDepth = 64

  /// `order=` (`title`, `length desc, title`) from `entity`.
  func orderings(_ text: String, from entity: Entity) throws -> [SortOrdering] {
    try text.split(separator: ",").map { part in
      let words = part.split(separator: " ", omittingEmptySubsequences: true)
      guard (1...2).contains(words.count) else {
        throw WebError(.badRequest, "order: expected KEY or KEY desc, found '\(part)'")
      }
      var ascending = true
      if words.count == 2 {
        switch words[1].lowercased() {
        case "asc": ascending = true
        case "desc": ascending = false
        default: throw WebError(.badRequest, "order: expected asc or desc after \(words[0])")
        }
      }
      let path = try self.path(KVCPath(String(words[0])), from: entity, for: .order)
      return SortOrdering(path.description, ascending: ascending)
    }
  }

  /// The key of `entity` written in a URL segment (`1`, `1,3402`, `INV%2F2024`).
  func key(_ segment: Substring, of entity: Entity) throws -> [DatabaseValue] {
    let attributes = entity.primaryKeyAttributes
    let parts = segment.split(separator: ",", omittingEmptySubsequences: false)
    guard !attributes.isEmpty, parts.count == attributes.count else {
      throw WebError(.notFound, "no \(entity.name) with key \(segment)")
    }
    return try zip(attributes, parts).map { attribute, part in
      guard let text = HTML.percentDecoded(part) else {
        throw WebError(.notFound, "no \(entity.name) with key \(segment)")
      }
      let notFound = WebError(.notFound, "no \(entity.name) with key \(text)")
      switch attribute.valueType {
      case .int:
        guard let number = Int(text) else { throw notFound }
        return .int(number)
      case .double:
        guard let number = Double(text) else { throw notFound }
        return .double(number)
      case .decimal:
        guard !text.isEmpty, let number = Decimal(string: text) else { throw notFound }
        return .decimal(number)
      case .bool:
        switch text.lowercased() {
        case "true", "1": return .bool(true)
        case "false", "0": return .bool(false)
        default: throw notFound
        }
      default: break
      }
      do {
        return try DatabaseValue.coerce(DatabaseValue.string(text), to: attribute)
      } catch {
        throw WebError(.notFound, "no \(entity.name) with key \(text)")
      }
    }
  }
}
