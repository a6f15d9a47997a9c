import Components

/// A component a plugin registers: its look, the view, and whether it replaces a component
/// of that name another plugin registered. Its name is the view type's
/// (``D2SView/componentName``), so rules in text and in Swift name it alike:
///
/// ```swift
/// PluginComponent(look: "BasicLook", DisplayStars())  // component = 'DisplayStars'
/// ```
public struct PluginComponent: Sendable {
  /// The name rules use.
  public let name: String
  /// The look it belongs to.
  public let look: String
  /// The view.
  public let component: any D2SView
  /// Whether it replaces a component of that name another plugin registered.
  public let replaces: Bool

  /// `component` in `look`, under its type's name.
  public init(look: String, _ component: some D2SView, replaces: Bool = false) {
    self.init(type(of: component).componentName, look: look, component, replaces: replaces)
  }

  /// `component` in `look` under `name`: a name of its own for a type that does not declare
  /// one (one view under two names, with two settings); for a type that declares its
  /// ``D2SView/componentName``, that name, or installing the plugin fails.
  public init(_ name: String, look: String, _ component: any D2SView, replaces: Bool = false) {
    self.name = name
    self.look = look
    self.component = component
    self.replaces = replaces
  }
}
