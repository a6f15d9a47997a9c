import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

extension D2SKeys {
  /// Exposes every builtin key under its name in `registry` (idempotent).
  public static func expose(in registry: D2SContextKVC) throws {
    try registry.expose(Task.self, "task")
    try registry.expose(FirstTask.self, "firstTask")
    try registry.expose(NextTask.self, "nextTask")
    try registry.expose(PropertyKey.self, "propertyKey")
    try registry.expose(Page.self, "page")
    try registry.expose(PageWrapper.self, "pageWrapper")
    try registry.expose(RowComponent.self, "rowComponent")
    try registry.expose(Component.self, "component")
    try registry.expose(DebugComponent.self, "debugComponent")
    try registry.expose(Formatter.self, "formatter")
    try registry.expose(Look.self, "look")
    try registry.expose(Platform.self, "platform")
    try registry.expose(Debug.self, "debug")
    try registry.expose(ExactCountRowLimit.self, "exactCountRowLimit")
    try registry.expose(CountTimeBudget.self, "countTimeBudget")
    try registry.expose(Title.self, "title")
    try registry.expose(NavigationBarTitle.self, "navigationBarTitle")
    try registry.expose(DisplayNameForEntity.self, "displayNameForEntity")
    try registry.expose(DisplayNameForProperty.self, "displayNameForProperty")
    try registry.expose(DisplayStringForNil.self, "displayStringForNil")
    try registry.expose(HideEmptyProperty.self, "hideEmptyProperty")
    try registry.expose(DisplayPropertyKeys.self, "displayPropertyKeys")
    try registry.expose(VisibleEntityNames.self, "visibleEntityNames")
    try registry.expose(IsEntityReadOnly.self, "isEntityReadOnly")
    try registry.expose(ReadOnlyEntityNames.self, "readOnlyEntityNames")
    try registry.expose(IsObjectEditable.self, "isObjectEditable")
    try registry.expose(IsObjectDeletable.self, "isObjectDeletable")
    try registry.expose(InitialPropertyValues.self, "initialPropertyValues")
    try registry.expose(CreationTimestampPropertyKey.self, "creationTimestampPropertyKey")
    try registry.expose(UpdateTimestampPropertyKey.self, "updateTimestampPropertyKey")
    try exposeModelKeys(in: registry)
  }
}
