import Components
import D2SModel
import EnvKeys
import Plugins
import RuleCore

/// A compact look: an inspected object on one line (its title, then its values), and a list
/// as one line per object. Selected with `look = 'CompactLook'`; BasicLook provides every
/// other component. Whatever the renderer (terminal, Markdown, JSON), the same views are shown.
public struct CompactLookPlugin: D2SPlugin {
  public init() {}
  public let name = "CompactLook"
  public var components: [PluginComponent] {
    [
      PluginComponent(look: "CompactLook", CompactInspect()),
      PluginComponent(look: "CompactLook", CompactList()),
    ]
  }
}

/// `PENELOPE GUINESS · 1 · PENELOPE · GUINESS · 2006-02-15 04:34:33`: the title, then each
/// property that has a value.
struct CompactInspect: D2SView {
  /// The look's inspect page: the name the builtin rules give the page (`page = 'Inspect'`).
  static let componentName = "Inspect"
  @Environment(\.object) var object
  @Environment(\.displayPropertyKeys) var keys

  var body: some D2SView {
    if let object {
      HStack(separator: " · ") {
        FormattedValue(object)
        ForEach(keys) { key in
          ValueIfAny().environment(\.propertyKey, key)
        }
      }
    } else {
      Message("nothing to inspect")
    }
  }
}

/// The property's value, or nothing when it has none.
struct ValueIfAny: D2SView {
  @Environment(\.propertyValue) var value

  var body: some D2SView {
    if let value = KVC.unwrap(value), "\(value)" != "", !(value is [DatabaseObject]) {
      FormattedValue()
    }
  }
}

/// One line per object of the page's display group: its title.
struct CompactList: D2SView {
  /// The look's list page (`page = 'QueryList'`).
  static let componentName = "QueryList"
  @Environment(\.displayNameForEntity) var displayName
  @Environment(\.entity) var entity

  var body: some D2SView {
    DisplayGroupObjects { objects in
      ForEach(objects) { object in
        HStack(separator: " ") {
          Text("•")
          FormattedValue(object)
        }
      }
      Text("\(objects.count) \(displayName.isEmpty ? entity?.name ?? "" : displayName)")
    }
  }
}
