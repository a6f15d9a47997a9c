import EnvKeys
import Foundation
import Qualifiers
import Testing

@testable import RuleCore

// MARK: - Keys used by the rule tests

enum Keys {
  enum Task: DynamicEnvironmentKey {
    static var defaultValue: String { "query" }
    static let exposedName: String? = "task"
  }
  enum NextTask: DynamicEnvironmentKey { static var defaultValue: String { "query" } }
  enum PropertyKey: DynamicEnvironmentKey { static var defaultValue: String { "" } }
  enum DisplayNameForProperty: DynamicEnvironmentKey { static var defaultValue: String { "" } }
  enum DisplayNameForEntity: DynamicEnvironmentKey { static var defaultValue: String { "" } }
  enum Title: DynamicEnvironmentKey { static var defaultValue: String { "D2S" } }
  enum NavigationBarTitle: DynamicEnvironmentKey { static var defaultValue: String { "" } }
  enum DisplayPropertyKeys: DynamicEnvironmentKey { static var defaultValue: [String] { [] } }
  enum VisibleEntityNames: DynamicEnvironmentKey { static var defaultValue: [String] { [] } }
  enum ReadOnlyEntityNames: DynamicEnvironmentKey { static var defaultValue: [String] { [] } }
  enum IsEntityReadOnly: DynamicEnvironmentKey { static var defaultValue: Bool { false } }
  enum IsObjectEditable: DynamicEnvironmentKey { static var defaultValue: Bool { false } }
  enum Debug: DynamicEnvironmentKey { static var defaultValue: Bool { false } }
  enum Component: DynamicEnvironmentKey { static var defaultValue: String { "" } }
  enum Count: DynamicEnvironmentKey { static var defaultValue: Int { 0 } }
  enum Price: DynamicEnvironmentKey { static var defaultValue: Decimal { 0 } }
  enum Note: DynamicEnvironmentKey { static var defaultValue: String? { nil } }
  enum Object: DynamicEnvironmentKey { static var defaultValue: Person? { nil } }
  enum User: DynamicEnvironmentKey { static var defaultValue: Person? { nil } }
  enum Entity: DynamicEnvironmentKey { static var defaultValue: TestEntity? { nil } }
  enum Attribute: DynamicEnvironmentKey { static var defaultValue: TestEntity? { nil } }
}

extension RuleContext {
  var task: String {
    get { self[Keys.Task.self] }
    set { self[Keys.Task.self] = newValue }
  }
  var nextTask: String {
    get { self[Keys.NextTask.self] }
    set { self[Keys.NextTask.self] = newValue }
  }
  var propertyKey: String {
    get { self[Keys.PropertyKey.self] }
    set { self[Keys.PropertyKey.self] = newValue }
  }
  var displayNameForProperty: String {
    get { self[Keys.DisplayNameForProperty.self] }
    set { self[Keys.DisplayNameForProperty.self] = newValue }
  }
  var displayNameForEntity: String {
    get { self[Keys.DisplayNameForEntity.self] }
    set { self[Keys.DisplayNameForEntity.self] = newValue }
  }
  var title: String {
    get { self[Keys.Title.self] }
    set { self[Keys.Title.self] = newValue }
  }
  var navigationBarTitle: String {
    get { self[Keys.NavigationBarTitle.self] }
    set { self[Keys.NavigationBarTitle.self] = newValue }
  }
  var displayPropertyKeys: [String] {
    get { self[Keys.DisplayPropertyKeys.self] }
    set { self[Keys.DisplayPropertyKeys.self] = newValue }
  }
  var isObjectEditable: Bool {
    get { self[Keys.IsObjectEditable.self] }
    set { self[Keys.IsObjectEditable.self] = newValue }
  }
  var isEntityReadOnly: Bool {
    get { self[Keys.IsEntityReadOnly.self] }
    set { self[Keys.IsEntityReadOnly.self] = newValue }
  }
  var debug: Bool {
    get { self[Keys.Debug.self] }
    set { self[Keys.Debug.self] = newValue }
  }
  var component: String {
    get { self[Keys.Component.self] }
    set { self[Keys.Component.self] = newValue }
  }
  var count: Int {
    get { self[Keys.Count.self] }
    set { self[Keys.Count.self] = newValue }
  }
  var note: String? {
    get { self[Keys.Note.self] }
    set { self[Keys.Note.self] = newValue }
  }
  var object: Person? {
    get { self[Keys.Object.self] }
    set { self[Keys.Object.self] = newValue }
  }
  var user: Person? {
    get { self[Keys.User.self] }
    set { self[Keys.User.self] = newValue }
  }
  var entity: TestEntity? {
    get { self[Keys.Entity.self] }
    set { self[Keys.Entity.self] = newValue }
  }
  var attribute: TestEntity? {
    get { self[Keys.Attribute.self] }
    set { self[Keys.Attribute.self] = newValue }
  }
}

// MARK: - Model-like values

/// A mutable record, like a database object: KVC, a change counter for the rule cache, and
/// computed properties that report their names to the DSL's recorder.
final class Person: KeyValueCoding, RuleCacheFingerprinting, KeyPathRecordable,
  CustomStringConvertible,
  @unchecked Sendable
{
  private var fields: [String: String] = [:]
  private let recorder: KeyPathRecorder?
  private(set) var changeCount = 0

  init(_ firstName: String, _ lastName: String?) {
    recorder = nil
    fields["firstName"] = firstName
    fields["lastName"] = lastName
  }

  private init(recorder: KeyPathRecorder) { self.recorder = recorder }

  static func recordingPlaceholder(recorder: KeyPathRecorder) -> Person {
    Person(recorder: recorder)
  }

  private func read(_ name: String) -> String? {
    recorder?.recordMember(name)
    return fields[name]
  }

  private func write(_ name: String, _ value: String?) {
    fields[name] = value
    changeCount += 1
  }

  var firstName: String {
    get { read("firstName") ?? "" }
    set { write("firstName", newValue) }
  }
  var lastName: String? {
    get { read("lastName") }
    set { write("lastName", newValue) }
  }
  var username: String? {
    get { read("username") }
    set { write("username", newValue) }
  }

  func value(forKey key: String) -> Any? { fields[key] }

  var ruleCacheVersion: Int { changeCount }
  let ruleCacheIdentity = RuleCacheIdentity.next()
  var description: String { "Person(\(fields["firstName"] ?? ""))" }
}

/// An immutable model object that compares equal to its name.
final class TestEntity: KeyValueCoding, QualifierComparable, Hashable, Sendable {
  let name: String
  init(_ name: String) { self.name = name }
  func value(forKey key: String) -> Any? { key == "name" ? name : nil }
  var qualifierComparisonValue: Any? { name }
  static func == (a: TestEntity, b: TestEntity) -> Bool { a.name == b.name }
  func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

struct EditRating: RuleValueConvertible {
  var ruleLiteral: Literal { .string("EditRating") }
}

// MARK: - Registry

enum TestRegistry {
  /// A fresh registry with every test key exposed.
  static func make() -> D2SContextKVC {
    let registry = D2SContextKVC()
    expose(into: registry)
    return registry
  }

  static func expose(into registry: D2SContextKVC) {
    do {
      try registry.expose(Keys.Task.self, "task")
      try registry.expose(Keys.NextTask.self, "nextTask")
      try registry.expose(Keys.PropertyKey.self, "propertyKey")
      try registry.expose(Keys.DisplayNameForProperty.self, "displayNameForProperty")
      try registry.expose(Keys.DisplayNameForEntity.self, "displayNameForEntity")
      try registry.expose(Keys.Title.self, "title")
      try registry.expose(Keys.NavigationBarTitle.self, "navigationBarTitle")
      try registry.expose(Keys.DisplayPropertyKeys.self, "displayPropertyKeys")
      try registry.expose(Keys.VisibleEntityNames.self, "visibleEntityNames")
      try registry.expose(Keys.ReadOnlyEntityNames.self, "readOnlyEntityNames")
      try registry.expose(Keys.IsEntityReadOnly.self, "isEntityReadOnly")
      try registry.expose(Keys.IsObjectEditable.self, "isObjectEditable")
      try registry.expose(Keys.Debug.self, "debug")
      try registry.expose(Keys.Component.self, "component")
      try registry.expose(Keys.Count.self, "count")
      try registry.expose(Keys.Price.self, "price")
      try registry.expose(Keys.Note.self, "note")
      try registry.expose(
        ExposedKey(
          Keys.Object.self, name: "object", valueTypeName: "Person?",
          coerce: { literal in throw LiteralCoercionError(expectedType: "Person?", literal: literal)
          },
          literal: { _ in nil }, describe: { $0.map(\.description) ?? "nil" }))
      try registry.expose(
        ExposedKey(
          Keys.User.self, name: "user", valueTypeName: "Person?",
          coerce: { literal in throw LiteralCoercionError(expectedType: "Person?", literal: literal)
          },
          literal: { _ in nil }, describe: { $0.map(\.description) ?? "nil" }))
      try registry.expose(
        ExposedKey(
          Keys.Attribute.self, name: "attribute", valueTypeName: "Attribute?",
          coerce: { literal in
            throw LiteralCoercionError(expectedType: "Attribute?", literal: literal)
          },
          literal: { $0.map { .string($0.name) } ?? .null }))
      try registry.expose(
        ExposedKey(
          Keys.Entity.self, name: "entity", valueTypeName: "Entity?",
          coerce: { literal in
            guard case .string(let name) = literal else {
              throw LiteralCoercionError(expectedType: "Entity?", literal: literal)
            }
            return TestEntity(name)
          },
          literal: { $0.map { .string($0.name) } ?? .null }))
    } catch {
      Issue.record("exposing test keys failed: \(error)")
    }
  }
}

/// A context over rule text, with the test keys.
func context(
  _ rules: String, fallbacks: [String] = [], cache: Bool = true,
  registry: D2SContextKVC = TestRegistry.make()
) throws -> RuleContext {
  let parser = RuleParser(registry: registry)
  let model = RuleModel(try parser.parseRules(rules))
  let fallbackModels = try fallbacks.map { RuleModel(try parser.parseRules($0), origin: .builtin) }
  return RuleContext(
    engine: try RuleEngine(
      ruleModel: model, fallbacks: fallbackModels, registry: registry, cache: cache))
}
