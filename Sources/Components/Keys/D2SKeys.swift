import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import RuleCore

/// The builtin keys of D2S (SPEC §2), each exposed under its own name by
/// ``D2SKeys/expose(in:)``.
public enum D2SKeys {
  // MARK: - Task and flow
  /// The `task` key.
  public enum Task: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: String { "query" }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "task"
  }
  /// The `firstTask` key.
  public enum FirstTask: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: String { "query" }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "firstTask"
  }
  /// The `nextTask` key.
  public enum NextTask: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: String { "query" }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "nextTask"
  }

  // MARK: - Database and model
  /// The `database` key.
  public enum DatabaseKey: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: D2SModel.Database? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "database"
    /// The model: ``RuleContext/database`` sets it beside the database; set by name, the
    /// database's model is worked out by the builtin rule.
    public static var dependentKeys: [any DynamicEnvironmentKey.Type] { [ModelKey.self] }
  }
  /// The `model` key.
  public enum ModelKey: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: Model { .empty }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "model"
  }
  /// The `entity` key.
  public enum EntityKey: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: Entity? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "entity"
  }
  /// The `attribute` key.
  public enum AttributeKey: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: Attribute? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "attribute"
  }
  /// The `relationship` key.
  public enum RelationshipKey: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: Relationship? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "relationship"
  }
  /// The `propertyKey` key.
  public enum PropertyKey: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: String { "" }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "propertyKey"
  }
  /// The `propertyValue` key.
  public enum PropertyValue: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: (any Sendable)? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "propertyValue"
  }
  /// The `object` key.
  public enum Object: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: DatabaseObject? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "object"
  }
  /// The `user` key.
  public enum User: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: DatabaseObject? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "user"
  }
  /// The `auxiliaryQualifier` key.
  public enum AuxiliaryQualifier: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: Qualifier? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "auxiliaryQualifier"
  }

  // MARK: - Components
  /// The `page` key.
  public enum Page: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: ComponentName? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "page"
  }
  /// The `pageWrapper` key.
  public enum PageWrapper: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: ComponentName? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "pageWrapper"
  }
  /// The `rowComponent` key.
  public enum RowComponent: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: ComponentName? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "rowComponent"
  }
  /// The `component` key.
  public enum Component: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: ComponentName? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "component"
  }
  /// The `debugComponent` key.
  public enum DebugComponent: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: ComponentName? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "debugComponent"
  }
  /// The `formatter` key.
  public enum Formatter: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: FormatterName? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "formatter"
  }
  /// The `look` key.
  public enum Look: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: String { "BasicLook" }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "look"
  }
  /// The `platform` key.
  public enum Platform: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: String { "terminal" }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "platform"
  }
  /// The `debug` key.
  public enum Debug: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: Bool { false }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "debug"
  }

  // MARK: - Lists
  /// The `exactCountRowLimit` key.
  public enum ExactCountRowLimit: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: Int { 100_000 }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "exactCountRowLimit"
  }
  /// The `countTimeBudget` key.
  public enum CountTimeBudget: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: Int? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "countTimeBudget"
  }

  // MARK: - Titles and display
  /// The `title` key.
  public enum Title: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: String { "D2S" }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "title"
  }
  /// The `navigationBarTitle` key.
  public enum NavigationBarTitle: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: String { "D2S" }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "navigationBarTitle"
  }
  /// The `displayNameForEntity` key.
  public enum DisplayNameForEntity: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: String { "" }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "displayNameForEntity"
  }
  /// The `displayNameForProperty` key.
  public enum DisplayNameForProperty: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: String { "" }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "displayNameForProperty"
  }
  /// The `displayStringForNil` key.
  public enum DisplayStringForNil: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: String { "-" }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "displayStringForNil"
  }
  /// The `hideEmptyProperty` key.
  public enum HideEmptyProperty: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: Bool { true }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "hideEmptyProperty"
  }
  /// The `displayPropertyKeys` key.
  public enum DisplayPropertyKeys: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: [String] { [] }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "displayPropertyKeys"
  }
  /// The properties a search box looks in (none: the entity's title attributes).
  public enum SearchPropertyKeys: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: [String] { [] }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "searchPropertyKeys"
  }
  /// The properties an entity's query page has a control for (none: the list's columns).
  public enum QueryPropertyKeys: DynamicEnvironmentKey {
    /// The value when no rule sets one.
    public static var defaultValue: [String] { [] }
    /// The key's name in rules.
    public static let exposedName: String? = "queryPropertyKeys"
  }
  /// The control a query page has for a property: `QueryText` (contains, starts with,
  /// equals), `QueryRange` (from–to) or `QueryChoice` (one of its values); nil: by its type.
  public enum QueryComponent: DynamicEnvironmentKey {
    /// The value when no rule sets one.
    public static var defaultValue: String? { nil }
    /// The key's name in rules.
    public static let exposedName: String? = "queryComponent"
  }
  /// The properties a list page shows facets of: their values with counts (none by default).
  public enum FacetPropertyKeys: DynamicEnvironmentKey {
    /// The value when no rule sets one.
    public static var defaultValue: [String] { [] }
    /// The key's name in rules.
    public static let exposedName: String? = "facetPropertyKeys"
  }
  /// How long, in milliseconds, a list page waits for its facets' counts after its rows.
  public enum FacetTimeBudget: DynamicEnvironmentKey {
    /// The value when no rule sets one.
    public static var defaultValue: Int { 200 }
    /// The key's name in rules.
    public static let exposedName: String? = "facetTimeBudget"
  }
  /// The `visibleEntityNames` key.
  public enum VisibleEntityNames: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: [String] { [] }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "visibleEntityNames"
  }

  // MARK: - Permissions
  /// Whether the user may reach the entity at all (its pages, its rows through relationships,
  /// its name in filters): a permission, unlike `visibleEntityNames`, which only says what
  /// the entity list shows.
  public enum IsEntityReachable: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: Bool { true }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "isEntityReachable"
  }
  /// The `isEntityReadOnly` key.
  public enum IsEntityReadOnly: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: Bool { false }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "isEntityReadOnly"
  }
  /// The `readOnlyEntityNames` key.
  public enum ReadOnlyEntityNames: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: [String] { [] }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "readOnlyEntityNames"
  }
  /// The `isObjectEditable` key.
  public enum IsObjectEditable: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: Bool { false }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "isObjectEditable"
  }
  /// The `isObjectDeletable` key.
  public enum IsObjectDeletable: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: Bool { false }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "isObjectDeletable"
  }

  // MARK: - Editing
  /// The `initialPropertyValues` key.
  public enum InitialPropertyValues: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: [String: Literal] { [:] }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "initialPropertyValues"
  }
  /// The `creationTimestampPropertyKey` key.
  public enum CreationTimestampPropertyKey: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: String? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "creationTimestampPropertyKey"
  }
  /// The `updateTimestampPropertyKey` key.
  public enum UpdateTimestampPropertyKey: DynamicEnvironmentKey {
    /// The value read when the key is neither set nor answered by a rule.
    public static var defaultValue: String? { nil }
    /// The name rules and the REPL use for the key.
    public static let exposedName: String? = "updateTimestampPropertyKey"
  }
}
