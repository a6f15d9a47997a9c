import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import RuleCore

/// The builtin keys of D2S (SPEC §2), each exposed under its own name by
/// ``D2SKeys/expose(in:)``.
public enum D2SKeys {
  // MARK: - Task and flow
  public enum Task: DynamicEnvironmentKey { public static var defaultValue: String { "query" } }
  public enum FirstTask: DynamicEnvironmentKey { public static var defaultValue: String { "query" } }
  public enum NextTask: DynamicEnvironmentKey { public static var defaultValue: String { "query" } }

  // MARK: - Database and model
  public enum DatabaseKey: DynamicEnvironmentKey { public static var defaultValue: D2SModel.Database? { nil } }
  public enum ModelKey: DynamicEnvironmentKey { public static var defaultValue: Model { .empty } }
  public enum EntityKey: DynamicEnvironmentKey { public static var defaultValue: Entity? { nil } }
  public enum AttributeKey: DynamicEnvironmentKey { public static var defaultValue: Attribute? { nil } }
  public enum RelationshipKey: DynamicEnvironmentKey { public static var defaultValue: Relationship? { nil } }
  public enum PropertyKey: DynamicEnvironmentKey { public static var defaultValue: String { "" } }
  public enum PropertyValue: DynamicEnvironmentKey { public static var defaultValue: (any Sendable)? { nil } }
  public enum Object: DynamicEnvironmentKey { public static var defaultValue: DatabaseObject? { nil } }
  public enum User: DynamicEnvironmentKey { public static var defaultValue: DatabaseObject? { nil } }
  public enum AuxiliaryQualifier: DynamicEnvironmentKey { public static var defaultValue: Qualifier? { nil } }

  // MARK: - Components
  public enum Page: DynamicEnvironmentKey { public static var defaultValue: ComponentName? { nil } }
  public enum PageWrapper: DynamicEnvironmentKey { public static var defaultValue: ComponentName? { nil } }
  public enum RowComponent: DynamicEnvironmentKey { public static var defaultValue: ComponentName? { nil } }
  public enum Component: DynamicEnvironmentKey { public static var defaultValue: ComponentName? { nil } }
  public enum DebugComponent: DynamicEnvironmentKey { public static var defaultValue: ComponentName? { nil } }
  public enum Formatter: DynamicEnvironmentKey { public static var defaultValue: FormatterName? { nil } }
  public enum Look: DynamicEnvironmentKey { public static var defaultValue: String { "BasicLook" } }
  public enum Platform: DynamicEnvironmentKey { public static var defaultValue: String { "terminal" } }
  public enum Debug: DynamicEnvironmentKey { public static var defaultValue: Bool { false } }

  // MARK: - Titles and display
  public enum Title: DynamicEnvironmentKey { public static var defaultValue: String { "D2S" } }
  public enum NavigationBarTitle: DynamicEnvironmentKey { public static var defaultValue: String { "D2S" } }
  public enum DisplayNameForEntity: DynamicEnvironmentKey { public static var defaultValue: String { "" } }
  public enum DisplayNameForProperty: DynamicEnvironmentKey { public static var defaultValue: String { "" } }
  public enum DisplayStringForNil: DynamicEnvironmentKey { public static var defaultValue: String { "-" } }
  public enum HideEmptyProperty: DynamicEnvironmentKey { public static var defaultValue: Bool { true } }
  public enum DisplayPropertyKeys: DynamicEnvironmentKey { public static var defaultValue: [String] { [] } }
  public enum VisibleEntityNames: DynamicEnvironmentKey { public static var defaultValue: [String] { [] } }

  // MARK: - Permissions
  public enum IsEntityReadOnly: DynamicEnvironmentKey { public static var defaultValue: Bool { false } }
  public enum ReadOnlyEntityNames: DynamicEnvironmentKey { public static var defaultValue: [String] { [] } }
  public enum IsObjectEditable: DynamicEnvironmentKey { public static var defaultValue: Bool { false } }
  public enum IsObjectDeletable: DynamicEnvironmentKey { public static var defaultValue: Bool { false } }

  // MARK: - Editing
  public enum InitialPropertyValues: DynamicEnvironmentKey { public static var defaultValue: [String: Literal] { [:] } }
  public enum CreationTimestampPropertyKey: DynamicEnvironmentKey { public static var defaultValue: String? { nil } }
  public enum UpdateTimestampPropertyKey: DynamicEnvironmentKey { public static var defaultValue: String? { nil } }
}
