import D2SModel
import EnvKeys
import RuleCore

/// The dependencies an application's pages are rendered with, for code outside views
/// (formatters, actions, a server's handlers) to read with `@Dependency`: the database the
/// request reads through, the rules, and the registries.
extension DependencyValues {
  /// The database the current request reads through.
  public var database: Database? {
    get { self[DatabaseDependencyKey.self] }
    set { self[DatabaseDependencyKey.self] = newValue }
  }
  /// The rule engine (the application's rule model and its cache).
  public var rules: RuleEngine? {
    get { self[RulesDependencyKey.self] }
    set { self[RulesDependencyKey.self] = newValue }
  }
  /// The looks, each a set of components by name.
  public var looks: LookRegistry {
    get { self[LooksDependencyKey.self] }
    set { self[LooksDependencyKey.self] = newValue }
  }
  /// The formatters by name.
  public var formatters: FormatterRegistry {
    get { self[FormattersDependencyKey.self] }
    set { self[FormattersDependencyKey.self] = newValue }
  }
  /// The renderers by platform.
  public var renderers: RendererRegistry {
    get { self[RenderersDependencyKey.self] }
    set { self[RenderersDependencyKey.self] = newValue }
  }
}

/// The key of ``EnvKeys/DependencyValues/database``: none outside a request.
public enum DatabaseDependencyKey: DependencyKey {
  /// None.
  public static var liveValue: Database? { nil }
}

/// The key of ``EnvKeys/DependencyValues/rules``: none outside an application.
public enum RulesDependencyKey: DependencyKey {
  /// None.
  public static var liveValue: RuleEngine? { nil }
}

/// The key of ``EnvKeys/DependencyValues/looks``: no looks outside an application.
public enum LooksDependencyKey: DependencyKey {
  /// A new registry with no looks (each read makes one: a shared one could be changed).
  public static var liveValue: LookRegistry { LookRegistry() }
}

/// The key of ``EnvKeys/DependencyValues/formatters``: the builtin formatters.
public enum FormattersDependencyKey: DependencyKey {
  /// A new registry of the builtin formatters (each read makes one).
  public static var liveValue: FormatterRegistry { FormatterRegistry() }
}

/// The key of ``EnvKeys/DependencyValues/renderers``: the builtin renderers.
public enum RenderersDependencyKey: DependencyKey {
  /// A new registry of the builtin renderers (each read makes one).
  public static var liveValue: RendererRegistry { RendererRegistry() }
}

extension PageApplication {
  /// The dependencies `request` is rendered with: the enclosing scope's (its clock, its
  /// logger), this application's own (``dependencies``), and the request's database, the
  /// rules and the registries. Derived anew for each request: setting one never touches the
  /// application's or another request's.
  public func dependencies(for request: PageRequest) -> DependencyValues {
    var values = DependencyValues.current.merging(dependencies)
    values.database = request.database ?? base.database
    values.rules = base.engine
    values.looks = looks
    values.formatters = formatters
    values.renderers = renderers
    return values
  }
}
