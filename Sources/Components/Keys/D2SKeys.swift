import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import RuleCore

/// The builtin keys of D2S (SPEC §2), each exposed under its own name by
/// ``D2SKeys/expose(in:)``.
public enum D2SKeys {
  // MARK: - Task and flow
  public enum Task: DynamicEnvironmentKey {
    public static var defaultValue: String { "query" }
    public static let exposedName: String? = "task"
  }
  public enum FirstTask: DynamicEnvironmentKey {
    public static var defaultValue: String { "query" }
    public static let exposedName: String? = "firstTask"
  }
  public enum NextTask: DynamicEnvironmentKey {
    public static var defaultValue: String { "query" }
    public static let exposedName: String? = "nextTask"
  }

  // MARK: - Database and model
  public enum DatabaseKey: DynamicEnvironmentKey {
    public static var defaultValue: D2SModel.Database? { nil }
    public static let exposedName: String? = "database"
    /// The model: ``RuleContext/database`` sets it beside the database; set by name, the
    /// database's model is worked out by the builtin rule.
    public static var dependentKeys: [any DynamicEnvironmentKey.Type] { [ModelKey.self] }
  }
  public enum ModelKey: DynamicEnvironmentKey {
    public static var defaultValue: Model { .empty }
    public static let exposedName: String? = "model"
  }
  public enum EntityKey: DynamicEnvironmentKey {
    public static var defaultValue: Entity? { nil }
    public static let exposedName: String? = "entity"
  }
  public enum AttributeKey: DynamicEnvironmentKey {
    public static var defaultValue: Attribute? { nil }
    public static let exposedName: String? = "attribute"
  }
  public enum RelationshipKey: DynamicEnvironmentKey {
    public static var defaultValue: Relationship? { nil }
    public static let exposedName: String? = "relationship"
  }
  public enum PropertyKey: DynamicEnvironmentKey {
    public static var defaultValue: String { "" }
    public static let exposedName: String? = "propertyKey"
  }
  public enum PropertyValue: DynamicEnvironmentKey {
    public static var defaultValue: (any Sendable)? { nil }
    public static let exposedName: String? = "propertyValue"
  }
  public enum Object: DynamicEnvironmentKey {
    public static var defaultValue: DatabaseObject? { nil }
    public static let exposedName: String? = "object"
  }
  public enum User: DynamicEnvironmentKey {
    public static var defaultValue: DatabaseObject? { nil }
    public static let exposedName: String? = "user"
  }
  public enum AuxiliaryQualifier: DynamicEnvironmentKey {
    public static var defaultValue: Qualifier? { nil }
    public static let exposedName: String? = "auxiliaryQualifier"
  }

  // MARK: - Components
  public enum Page: DynamicEnvironmentKey {
    public static var defaultValue: ComponentName? { nil }
    public static let exposedName: String? = "page"
  }
  public enum PageWrapper: DynamicEnvironmentKey {
    public static var defaultValue: ComponentName? { nil }
    public static let exposedName: String? = "pageWrapper"
  }
  public enum RowComponent: DynamicEnvironmentKey {
    public static var defaultValue: ComponentName? { nil }
    public static let exposedName: String? = "rowComponent"
  }
  public enum Component: DynamicEnvironmentKey {
    public static var defaultValue: ComponentName? { nil }
    public static let exposedName: String? = "component"
  }
  public enum DebugComponent: DynamicEnvironmentKey {
    public static var defaultValue: ComponentName? { nil }
    public static let exposedName: String? = "debugComponent"
  }
  public enum Formatter: DynamicEnvironmentKey {
    public static var defaultValue: FormatterName? { nil }
    public static let exposedName: String? = "formatter"
  }
  public enum Look: DynamicEnvironmentKey {
    public static var defaultValue: String { "BasicLook" }
    public static let exposedName: String? = "look"
  }
  public enum Platform: DynamicEnvironmentKey {
    public static var defaultValue: String { "terminal" }
    public static let exposedName: String? = "platform"
  }
  public enum Debug: DynamicEnvironmentKey {
    public static var defaultValue: Bool { false }
    public static let exposedName: String? = "debug"
  }

  // MARK: - Lists
  public enum ExactCountRowLimit: DynamicEnvironmentKey {
    public static var defaultValue: Int { 100_000 }
    public static let exposedName: String? = "exactCountRowLimit"
  }
  public enum CountTimeBudget: DynamicEnvironmentKey {
    public static var defaultValue: Int? { nil }
    public static let exposedName: String? = "countTimeBudget"
  }

  // MARK: - Titles and display
  public enum Title: DynamicEnvironmentKey {
    public static var defaultValue: String { "D2S" }
    public static let exposedName: String? = "title"
  }
  public enum NavigationBarTitle: DynamicEnvironmentKey {
    public static var defaultValue: String { "D2S" }
    public static let exposedName: String? = "navigationBarTitle"
  }
  public enum DisplayNameForEntity: DynamicEnvironmentKey {
    public static var defaultValue: String { "" }
    public static let exposedName: String? = "displayNameForEntity"
  }
  public enum DisplayNameForProperty: DynamicEnvironmentKey {
    public static var defaultValue: String { "" }
    public static let exposedName: String? = "displayNameForProperty"
  }
  public enum DisplayStringForNil: DynamicEnvironmentKey {
    public static var defaultValue: String { "-" }
    public static let exposedName: String? = "displayStringForNil"
  }
  public enum HideEmptyProperty: DynamicEnvironmentKey {
    public static var defaultValue: Bool { true }
    public static let exposedName: String? = "hideEmptyProperty"
  }
  public enum DisplayPropertyKeys: DynamicEnvironmentKey {
    public static var defaultValue: [String] { [] }
    public static let exposedName: String? = "displayPropertyKeys"
  }
  /// The properties a search box looks in (none: the entity's title attributes).
  public enum SearchPropertyKeys: DynamicEnvironmentKey {
    public static var defaultValue: [String] { [] }
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
  public enum VisibleEntityNames: DynamicEnvironmentKey {
    public static var defaultValue: [String] { [] }
    public static let exposedName: String? = "visibleEntityNames"
  }

  // MARK: - Permissions
  /// Whether the user may reach the entity at all (its pages, its rows through relationships,
  /// its name in filters): a permission, unlike `visibleEntityNames`, which only says what
  /// the entity list shows.
  public enum IsEntityReachable: DynamicEnvironmentKey {
    public static var defaultValue: Bool { true }
    public static let exposedName: String? = "isEntityReachable"
  }
  public enum IsEntityReadOnly: DynamicEnvironmentKey {
    public static var defaultValue: Bool { false }
    public static let exposedName: String? = "isEntityReadOnly"
  }
  public enum ReadOnlyEntityNames: DynamicEnvironmentKey {
    public static var defaultValue: [String] { [] }
    public static let exposedName: String? = "readOnlyEntityNames"
  }
  public enum IsObjectEditable: DynamicEnvironmentKey {
    public static var defaultValue: Bool { false }
    public static let exposedName: String? = "isObjectEditable"
  }
  public enum IsObjectDeletable: DynamicEnvironmentKey {
    public static var defaultValue: Bool { false }
    public static let exposedName: String? = "isObjectDeletable"
  }

  // MARK: - Editing
  public enum InitialPropertyValues: DynamicEnvironmentKey {
    public static var defaultValue: [String: Literal] { [:] }
    public static let exposedName: String? = "initialPropertyValues"
  }
  public enum CreationTimestampPropertyKey: DynamicEnvironmentKey {
    public static var defaultValue: String? { nil }
    public static let exposedName: String? = "creationTimestampPropertyKey"
  }
  public enum UpdateTimestampPropertyKey: DynamicEnvironmentKey {
    public static var defaultValue: String? { nil }
    public static let exposedName: String? = "updateTimestampPropertyKey"
  }
}
