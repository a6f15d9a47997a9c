import EnvKeys

/// Looks by name, each a set of components by name. `BasicLook` is the fallback for every
/// component a look does not provide.
public final class LookRegistry: Sendable {
  // Read for every component of every page, written when plugins register (at start).
  private let looks = ReadMostly<[String: [String: any D2SView]]>([:])

  /// A registry holding `BasicLook` (or, with `empty`, nothing: the builtin plugin then
  /// installs BasicLook like any look).
  public init(empty: Bool = false) {
    if !empty { looks.write { $0[BasicLook.name] = BasicLook.components } }
  }

  /// Registers `component` as `name` under `look` (creating the look).
  public func register(_ component: any D2SView, as name: String, look: String) {
    looks.write { $0[look, default: [:]][name] = component }
  }

  /// The component `name` of `look`, else of `BasicLook`.
  /// - Throws: ``LookError`` naming the look and the component when neither has it.
  public func view(_ name: ComponentName, look: String) throws -> any D2SView {
    try looks.read { looks in
      if let component = looks[look]?[name.name] ?? looks[BasicLook.name]?[name.name] {
        return component
      }
      throw LookError(look: look, component: name.name)
    }
  }

  /// Looks with their component names, sorted.
  public var catalog: [(look: String, components: [String])] {
    looks.read { looks in
      looks.keys.sorted().map { ($0, looks[$0, default: [:]].keys.sorted()) }
    }
  }
}

/// A component name that no look provides.
public struct LookError: Error, Sendable, CustomStringConvertible {
  public var look: String
  public var component: String
  public var description: String {
    look == BasicLook.name
      ? "no component '\(component)' in BasicLook"
      : "no component '\(component)' in look '\(look)' or in BasicLook"
  }
}
