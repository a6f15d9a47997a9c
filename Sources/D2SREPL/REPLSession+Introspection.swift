import Components
import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

/// Introspection: setting and showing keys, and listing what is installed.
extension REPLSession {
  /// Keys that move the session to another page: changing them leaves an edit.
  static let navigationKeys: Set<String> = ["task", "entity", "object"]

  /// `KEY = VALUE`.
  func set(_ key: String, _ value: Literal) throws -> String {
    if Self.navigationKeys.contains(key) { try leaveEditing() }
    var next = context
    try next.setValue(value, forKeyNamed: key)
    context = next
    return ""
  }

  /// `unset KEY`.
  func unset(_ key: String) throws -> String {
    if Self.navigationKeys.contains(key) { try leaveEditing() }
    try context.removeValue(forKeyNamed: key)
    return ""
  }

  /// `show KEY` or `show KEYPATH`: the value and, for a path, the source of its first key.
  /// A path through an object names its properties (else an error with suggestions), and a
  /// password attribute is never shown.
  func show(_ keyPath: String) throws -> String {
    let path = KVCPath(keyPath)
    if path.components.count == 1 { return try context.showLine(forKeyNamed: keyPath) }
    let source = try context.source(forKeyNamed: path.first)
    var value = context.value(forKeyPath: path.first)
    var shown = [path.first]
    var entity: Entity?  // of the object(s) the path has reached, through to-many too
    for component in path.components.dropFirst() {
      let current = KVC.unwrap(value)
      if let object = current as? DatabaseObject { entity = object.entity }
      if let objects = current as? [DatabaseObject] { entity = objects.first?.entity ?? entity }
      guard let from = entity, current is DatabaseObject || current is [DatabaseObject] else {
        value = KVC.value(forKey: component, of: value)
        shown.append(component)
        entity = nil
        continue
      }
      let name = try propertyName(component, in: from)
      shown.append(name)
      if from.attribute(named: name)?.isPassword == true {
        return "\(shown.joined(separator: ".")) = (a password, never shown)  # \(source)"
      }
      value = KVC.value(forKey: name, of: value)
      entity = from.relationship(named: name).flatMap {
        try? database.model.entity(named: $0.destinationName)
      }
    }
    return "\(shown.joined(separator: ".")) = \(describe(value))  # \(source)"
  }

  /// A value as `show` prints it.
  func describe(_ value: Any?) -> String {
    guard let value = KVC.unwrap(value) else { return "nil" }
    if let object = value as? DatabaseObject { return object.displayDescription }
    if let objects = value as? [DatabaseObject] {
      return "(" + objects.map(\.displayDescription).joined(separator: ", ") + ")"
    }
    if let entity = value as? Entity { return Literal.quote(entity.name) }
    if let database = DatabaseValue(any: value) { return database.description }
    return String(describing: value)
  }

  /// `context`: the keys set explicitly.
  func contextLines() -> String {
    context.explicitKeys.map { "\($0.key.name) = \($0.key.describe($0.value))" }.joined(
      separator: "\n")
  }

  /// `keys`: every exposed key with its type and default.
  func keyLines() -> String {
    registry.allKeys.map { "\($0.name): \($0.valueTypeName) = \($0.describe($0.defaultValue))" }
      .joined(separator: "\n")
  }

  /// `looks`: each look and its components.
  func lookLines() -> String {
    looks.catalog.map { "\($0.look): \($0.components.joined(separator: ", "))" }.joined(
      separator: "\n")
  }

  /// `plugins`: the installed plugins, the builtin one first.
  func pluginLines() -> String {
    plugins.installed.map {
      $0 == "builtin" ? "builtin (the D2S keys, BasicLook, the formatters, the default rules)" : $0
    }
    .joined(separator: "\n")
  }

  /// Every formatter with its plugin and the text of its example value, sorted by name.
  var formatterCatalog: [(name: String, plugin: String, example: String?)] {
    app.plugins.formatterOwners.map { name, plugin in
      let example = formatters.formatter(named: name).flatMap { formatter in
        formatter.example.map { formatter.format($0, for: nil) }
      }
      return (name, plugin, example)
    }
  }

  /// `formatters`: every formatter, its plugin and an example, one per line.
  func formatterLines() -> String {
    let catalog = formatterCatalog
    let nameWidth = catalog.map(\.name.count).max() ?? 0
    let pluginWidth = catalog.map(\.plugin.count).max() ?? 0
    return catalog.map { name, plugin, example in
      let padded =
        name.padding(toLength: nameWidth, withPad: " ", startingAt: 0) + "  "
        + plugin.padding(toLength: pluginWidth, withPad: " ", startingAt: 0)
      return example.map { padded + "  " + $0 } ?? padded.trimmingCharacters(in: .whitespaces)
    }
    .joined(separator: "\n")
  }
}
