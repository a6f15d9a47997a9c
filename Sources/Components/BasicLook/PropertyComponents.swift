import D2SModel
import EnvKeys
import RuleCore

/// Strings, numbers, dates, e-mail addresses, URLs: the value through its formatter.
struct DisplayValue: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    [ValueText.of(context, environment)]
  }
}

/// ✓ or ✗.
struct DisplayBool: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    guard let raw = KVC.unwrap(context.propertyValue) else { return [context.displayStringForNil] }
    let truth: Bool? = switch raw {
    case let b as Bool: b
    case let i as Int: i != 0
    case let s as String: ["1", "t", "true", "y", "yes"].contains(s.lowercased())
    default: nil
    }
    return [truth.map { $0 ? "✓" : "✗" } ?? ValueText.of(context, environment)]
  }
}

/// Long text, wrapped to the width.
struct DisplayLargeString: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    let text = ValueText.of(context, environment)
    let width = max(20, environment.width - environment.labelWidth - 2)
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      if !line.isEmpty, TextWidth.of(line) + 1 + TextWidth.of(String(word)) > width {
        lines.append(line)
        line = ""
      }
      line += line.isEmpty ? String(word) : " " + word
    }
    lines.append(line)
    return lines
  }
}

/// Never the value: dots when there is one.
struct DisplayPassword: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    [PropertyRows.isEmpty(context.propertyValue) ? context.displayStringForNil : "••••••••"]
  }
}

/// The destination's title.
struct DisplayToOne: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    guard let object = KVC.unwrap(context.propertyValue) as? DatabaseObject else { return [context.displayStringForNil] }
    return [ValueText.title(of: object, context)]
  }
}

/// The count and the first titles.
struct DisplayToMany: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    let objects = KVC.unwrap(context.propertyValue) as? [DatabaseObject] ?? []
    let titles = objects.prefix(3).map { ValueText.title(of: $0, context) }
    return ["\(objects.count)" + (titles.isEmpty ? "" : ": " + titles.joined(separator: ", ") + (objects.count > 3 ? ", …" : ""))]
  }
}

/// An edit field: the current value, whether it changed, and a validation error.
struct EditValue: D2SComponent {
  let kind: String
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    var text = "[" + ValueText.of(context, environment) + "]"
    if let object = context.object {
      let key = context.relationship?.joins.first?.source ?? context.propertyKey
      if object.changedKeys.contains(key) { text += " (changed)" }
      if let attribute = context.attribute ?? context.relationship.flatMap({ object.entity.attribute(named: $0.joins.first?.source ?? "") }),
        !attribute.allowsNull, !attribute.isAutoIncrement, attribute.defaultValue == nil,
        !(object.isNew && attribute.valueType == .date),  // an insert stamps these with now
        object.databaseValue(forAttribute: attribute.name)?.isNull ?? true
      {
        text += " (invalid: required)"
      }
    }
    if kind == "EditToOne" { text += "  (choose \(context.propertyKey))" }
    return [text]
  }
}
