import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

extension D2SKeys {
  /// Exposes every builtin key in `registry` under the name its type gives (idempotent).
  public static func expose(in registry: D2SContextKVC) throws {
    try registry.expose(Task.self)
    try registry.expose(FirstTask.self)
    try registry.expose(NextTask.self)
    try registry.expose(PropertyKey.self)
    try registry.expose(Page.self)
    try registry.expose(PageWrapper.self)
    try registry.expose(RowComponent.self)
    try registry.expose(Component.self)
    try registry.expose(DebugComponent.self)
    try registry.expose(Formatter.self)
    try registry.expose(Look.self)
    try registry.expose(Platform.self)
    try registry.expose(Debug.self)
    try registry.expose(ExactCountRowLimit.self)
    try registry.expose(CountTimeBudget.self)
    try registry.expose(Title.self)
    try registry.expose(NavigationBarTitle.self)
    try registry.expose(DisplayNameForEntity.self)
    try registry.expose(DisplayNameForProperty.self)
    try registry.expose(DisplayStringForNil.self)
    try registry.expose(HideEmptyProperty.self)
    try registry.expose(DisplayPropertyKeys.self)
    try registry.expose(VisibleEntityNames.self)
    try registry.expose(IsEntityReachable.self)
    try registry.expose(SearchPropertyKeys.self)
    try registry.expose(FacetPropertyKeys.self)
    try registry.expose(QueryPropertyKeys.self)
    try registry.expose(QueryComponent.self)
    try registry.expose(FacetTimeBudget.self)
    try registry.expose(IsEntityReadOnly.self)
    try registry.expose(ReadOnlyEntityNames.self)
    try registry.expose(IsObjectEditable.self)
    try registry.expose(IsObjectDeletable.self)
    try registry.expose(InitialPropertyValues.self)
    try registry.expose(CreationTimestampPropertyKey.self)
    try registry.expose(UpdateTimestampPropertyKey.self)
    try exposeModelKeys(in: registry)
    try exposeAgentKeys(in: registry)
  }
}
