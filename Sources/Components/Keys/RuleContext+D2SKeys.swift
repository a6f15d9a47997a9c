import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

/// Typed access to the builtin keys: `context.task`, `context.with(\.task, "edit")`.
extension RuleContext {
  /// The `task` key here: set, else the rules' answer, else its default.
  public var task: String {
    get { self[D2SKeys.Task.self] }
    set { self[D2SKeys.Task.self] = newValue }
  }
  /// The `firstTask` key here: set, else the rules' answer, else its default.
  public var firstTask: String {
    get { self[D2SKeys.FirstTask.self] }
    set { self[D2SKeys.FirstTask.self] = newValue }
  }
  /// The `nextTask` key here: set, else the rules' answer, else its default.
  public var nextTask: String {
    get { self[D2SKeys.NextTask.self] }
    set { self[D2SKeys.NextTask.self] = newValue }
  }
  /// The database; setting one sets its model too, so that reading the model (as nearly
  /// every look-up does) is a read of a set value, cached and planned by the model's identity,
  /// where an answer derived from the database is never cached.
  public var database: D2SModel.Database? {
    get { self[D2SKeys.DatabaseKey.self] }
    set {
      self[D2SKeys.DatabaseKey.self] = newValue
      if let newValue {
        self[D2SKeys.ModelKey.self] = newValue.model
      } else {
        removeValue(for: D2SKeys.ModelKey.self)
      }
    }
  }
  /// The `model` key here: set, else the rules' answer, else its default.
  public var model: Model {
    get { self[D2SKeys.ModelKey.self] }
    set { self[D2SKeys.ModelKey.self] = newValue }
  }
  /// The `entity` key here: set, else the rules' answer, else its default.
  public var entity: Entity? {
    get { self[D2SKeys.EntityKey.self] }
    set { self[D2SKeys.EntityKey.self] = newValue }
  }
  /// The `attribute` key here: set, else the rules' answer, else its default.
  public var attribute: Attribute? {
    get { self[D2SKeys.AttributeKey.self] }
    set { self[D2SKeys.AttributeKey.self] = newValue }
  }
  /// The `relationship` key here: set, else the rules' answer, else its default.
  public var relationship: Relationship? {
    get { self[D2SKeys.RelationshipKey.self] }
    set { self[D2SKeys.RelationshipKey.self] = newValue }
  }
  /// The `propertyKey` key here: set, else the rules' answer, else its default.
  public var propertyKey: String {
    get { self[D2SKeys.PropertyKey.self] }
    set { self[D2SKeys.PropertyKey.self] = newValue }
  }
  /// The `propertyValue` key here: set, else the rules' answer, else its default.
  public var propertyValue: (any Sendable)? {
    get { self[D2SKeys.PropertyValue.self] }
    set { self[D2SKeys.PropertyValue.self] = newValue }
  }
  /// The `object` key here: set, else the rules' answer, else its default.
  public var object: DatabaseObject? {
    get { self[D2SKeys.Object.self] }
    set { self[D2SKeys.Object.self] = newValue }
  }
  /// The `user` key here: set, else the rules' answer, else its default.
  public var user: DatabaseObject? {
    get { self[D2SKeys.User.self] }
    set { self[D2SKeys.User.self] = newValue }
  }
  /// Below how many rows (by the database's estimate) a list's table is counted exactly.
  public var exactCountRowLimit: Int {
    get { self[D2SKeys.ExactCountRowLimit.self] }
    set { self[D2SKeys.ExactCountRowLimit.self] = newValue }
  }
  /// How long, in milliseconds, a list page waits for its count (nil: as long as its rows
  /// took, at least 20 ms; 0: no count at all).
  public var countTimeBudget: Int? {
    get { self[D2SKeys.CountTimeBudget.self] }
    set { self[D2SKeys.CountTimeBudget.self] = newValue }
  }
  /// The `auxiliaryQualifier` key here: set, else the rules' answer, else its default.
  public var auxiliaryQualifier: Qualifier? {
    get { self[D2SKeys.AuxiliaryQualifier.self] }
    set { self[D2SKeys.AuxiliaryQualifier.self] = newValue }
  }
  /// The `page` key here: set, else the rules' answer, else its default.
  public var page: ComponentName? {
    get { self[D2SKeys.Page.self] }
    set { self[D2SKeys.Page.self] = newValue }
  }
  /// The `pageWrapper` key here: set, else the rules' answer, else its default.
  public var pageWrapper: ComponentName? {
    get { self[D2SKeys.PageWrapper.self] }
    set { self[D2SKeys.PageWrapper.self] = newValue }
  }
  /// The `rowComponent` key here: set, else the rules' answer, else its default.
  public var rowComponent: ComponentName? {
    get { self[D2SKeys.RowComponent.self] }
    set { self[D2SKeys.RowComponent.self] = newValue }
  }
  /// The `component` key here: set, else the rules' answer, else its default.
  public var component: ComponentName? {
    get { self[D2SKeys.Component.self] }
    set { self[D2SKeys.Component.self] = newValue }
  }
  /// The `debugComponent` key here: set, else the rules' answer, else its default.
  public var debugComponent: ComponentName? {
    get { self[D2SKeys.DebugComponent.self] }
    set { self[D2SKeys.DebugComponent.self] = newValue }
  }
  /// The `formatter` key here: set, else the rules' answer, else its default.
  public var formatter: FormatterName? {
    get { self[D2SKeys.Formatter.self] }
    set { self[D2SKeys.Formatter.self] = newValue }
  }
  /// The `look` key here: set, else the rules' answer, else its default.
  public var look: String {
    get { self[D2SKeys.Look.self] }
    set { self[D2SKeys.Look.self] = newValue }
  }
  /// The `platform` key here: set, else the rules' answer, else its default.
  public var platform: String {
    get { self[D2SKeys.Platform.self] }
    set { self[D2SKeys.Platform.self] = newValue }
  }
  /// The `debug` key here: set, else the rules' answer, else its default.
  public var debug: Bool {
    get { self[D2SKeys.Debug.self] }
    set { self[D2SKeys.Debug.self] = newValue }
  }
  /// The `title` key here: set, else the rules' answer, else its default.
  public var title: String {
    get { self[D2SKeys.Title.self] }
    set { self[D2SKeys.Title.self] = newValue }
  }
  /// The `navigationBarTitle` key here: set, else the rules' answer, else its default.
  public var navigationBarTitle: String {
    get { self[D2SKeys.NavigationBarTitle.self] }
    set { self[D2SKeys.NavigationBarTitle.self] = newValue }
  }
  /// The `displayNameForEntity` key here: set, else the rules' answer, else its default.
  public var displayNameForEntity: String {
    get { self[D2SKeys.DisplayNameForEntity.self] }
    set { self[D2SKeys.DisplayNameForEntity.self] = newValue }
  }
  /// The `displayNameForProperty` key here: set, else the rules' answer, else its default.
  public var displayNameForProperty: String {
    get { self[D2SKeys.DisplayNameForProperty.self] }
    set { self[D2SKeys.DisplayNameForProperty.self] = newValue }
  }
  /// The `displayStringForNil` key here: set, else the rules' answer, else its default.
  public var displayStringForNil: String {
    get { self[D2SKeys.DisplayStringForNil.self] }
    set { self[D2SKeys.DisplayStringForNil.self] = newValue }
  }
  /// The `hideEmptyProperty` key here: set, else the rules' answer, else its default.
  public var hideEmptyProperty: Bool {
    get { self[D2SKeys.HideEmptyProperty.self] }
    set { self[D2SKeys.HideEmptyProperty.self] = newValue }
  }
  /// The properties a page shows, without the headings of sections and tabs (`(Basics)`,
  /// `[Pricing]`: ``displayPropertyGroups`` has them), and without those that read an entity
  /// the user may not reach (``leadsOnlyWhereReachable(_:)``).
  public var displayPropertyKeys: [String] {
    get {
      var entries = self[D2SKeys.DisplayPropertyKeys.self]
      if entries.contains(where: { PropertyGroup.heading($0) != nil }) {
        entries = entries.filter { PropertyGroup.heading($0) == nil }
      }
      return onlyReachable(entries)
    }
    set { self[D2SKeys.DisplayPropertyKeys.self] = newValue }
  }
  /// The `visibleEntityNames` key here: set, else the rules' answer, else its default.
  public var visibleEntityNames: [String] {
    get { self[D2SKeys.VisibleEntityNames.self] }
    set { self[D2SKeys.VisibleEntityNames.self] = newValue }
  }
  /// The properties a search box looks in (``D2SKeys/SearchPropertyKeys``; ``searchKeys``
  /// gives the default).
  public var searchPropertyKeys: [String] {
    get { self[D2SKeys.SearchPropertyKeys.self] }
    set { self[D2SKeys.SearchPropertyKeys.self] = newValue }
  }
  /// The properties an entity's query page has a control for (``D2SKeys/QueryPropertyKeys``).
  public var queryPropertyKeys: [String] {
    get { self[D2SKeys.QueryPropertyKeys.self] }
    set { self[D2SKeys.QueryPropertyKeys.self] = newValue }
  }
  /// The control a query page has for the context's property (``D2SKeys/QueryComponent``).
  public var queryComponent: String? {
    get { self[D2SKeys.QueryComponent.self] }
    set { self[D2SKeys.QueryComponent.self] = newValue }
  }
  /// The properties a list page shows facets of (``D2SKeys/FacetPropertyKeys``).
  public var facetPropertyKeys: [String] {
    get { self[D2SKeys.FacetPropertyKeys.self] }
    set { self[D2SKeys.FacetPropertyKeys.self] = newValue }
  }
  /// How long, in milliseconds, a list page waits for its facets (``D2SKeys/FacetTimeBudget``).
  public var facetTimeBudget: Int {
    get { self[D2SKeys.FacetTimeBudget.self] }
    set { self[D2SKeys.FacetTimeBudget.self] = newValue }
  }
  /// Whether the user may reach the context's entity at all (``D2SKeys/IsEntityReachable``).
  public var isEntityReachable: Bool {
    get { self[D2SKeys.IsEntityReachable.self] }
    set { self[D2SKeys.IsEntityReachable.self] = newValue }
  }
  /// Whether the user may reach the entity named `name` (false for one the model lacks): the
  /// context with that entity, and no object or property, asks ``isEntityReachable``.
  public func isEntityReachable(_ name: String) -> Bool {
    // No rule answers it: every entity's answer is this context's own (set here, or the
    // default), with no probe and no plan for each entity.
    if readsAlikeInEveryProbe(D2SKeys.IsEntityReachable.self) {
      return model.entity(named: name) != nil && isEntityReachable
    }
    return planned("isEntityReachable/\(name)") { context in
      guard let entity = context.model.entity(named: name) else { return false }
      var probe = context
      probe.entity = entity
      probe.object = nil
      probe.attribute = nil
      probe.relationship = nil
      probe.propertyKey = ""
      return probe.isEntityReachable
    }
  }
  /// `keys` without those that read an entity the user may not reach
  /// (``leadsOnlyWhereReachable(_:)``), when a rule may hide one.
  func onlyReachable(_ keys: [String]) -> [String] {
    // No rule hides an entity (asked once of the engine): nothing to leave out.
    if readsAlikeInEveryProbe(D2SKeys.IsEntityReachable.self), isEntityReachable { return keys }
    return keys.filter(leadsOnlyWhereReachable)
  }

  /// Whether the property `key` of the context's entity reads only entities the user may
  /// reach: a path through a to-one into an unreachable entity (`address.phone`) or a to-many
  /// into one (`payments`, whose count would tell of its rows) does not; a to-one itself does
  /// (its title is shown, never followed).
  public func leadsOnlyWhereReachable(_ key: String) -> Bool {
    guard var entity else { return true }
    let parts = key.split(separator: ".")
    for (index, part) in parts.enumerated() {
      guard let relationship = entity.relationship(named: String(part)) else { return true }
      let last = index == parts.count - 1
      if !last || relationship.isToMany, !isEntityReachable(relationship.destinationName) {
        return false
      }
      guard let next = model.entity(named: relationship.destinationName) else { return true }
      entity = next
    }
    return true
  }
  /// The entities the entity list shows (`visibleEntityNames`) that the user may reach.
  public var reachableVisibleEntityNames: [String] {
    visibleEntityNames.filter(isEntityReachable)
  }
  /// The `isEntityReadOnly` key here: set, else the rules' answer, else its default.
  public var isEntityReadOnly: Bool {
    get { self[D2SKeys.IsEntityReadOnly.self] }
    set { self[D2SKeys.IsEntityReadOnly.self] = newValue }
  }
  /// The `readOnlyEntityNames` key here: set, else the rules' answer, else its default.
  public var readOnlyEntityNames: [String] {
    get { self[D2SKeys.ReadOnlyEntityNames.self] }
    set { self[D2SKeys.ReadOnlyEntityNames.self] = newValue }
  }
  /// The `isObjectEditable` key here: set, else the rules' answer, else its default.
  public var isObjectEditable: Bool {
    get { self[D2SKeys.IsObjectEditable.self] }
    set { self[D2SKeys.IsObjectEditable.self] = newValue }
  }
  /// The `isObjectDeletable` key here: set, else the rules' answer, else its default.
  public var isObjectDeletable: Bool {
    get { self[D2SKeys.IsObjectDeletable.self] }
    set { self[D2SKeys.IsObjectDeletable.self] = newValue }
  }
  /// The `initialPropertyValues` key here: set, else the rules' answer, else its default.
  public var initialPropertyValues: [String: Literal] {
    get { self[D2SKeys.InitialPropertyValues.self] }
    set { self[D2SKeys.InitialPropertyValues.self] = newValue }
  }
  /// The `creationTimestampPropertyKey` key here: set, else the rules' answer, else its default.
  public var creationTimestampPropertyKey: String? {
    get { self[D2SKeys.CreationTimestampPropertyKey.self] }
    set { self[D2SKeys.CreationTimestampPropertyKey.self] = newValue }
  }
  /// The `updateTimestampPropertyKey` key here: set, else the rules' answer, else its default.
  public var updateTimestampPropertyKey: String? {
    get { self[D2SKeys.UpdateTimestampPropertyKey.self] }
    set { self[D2SKeys.UpdateTimestampPropertyKey.self] = newValue }
  }
}
