import D2SModel
import EnvKeys
import RuleCore

/// Strings, numbers, dates, e-mail addresses, URLs: the value through its formatter.
struct DisplayValue: FormattedValueComponent {
  var alignment: CellAlignment = .leading
  var body: some D2SView { FormattedValue() }
}

/// ✓ or ✗ for a boolean (and for 1 and 0); any other value a boolean column holds (`2`,
/// `'yes'` in SQLite) as it is stored, with its JSON `value`.
struct DisplayBool: D2SView {
  @Environment(\.propertyValue) var value
  var body: some D2SView {
    switch KVC.unwrap(value) {
    case let flag as Bool: Mark(value: .bool(flag), on: flag)
    case let number as Int where number == 0 || number == 1:
      Mark(value: .int(number), on: number == 1)
    default: FormattedValue()
    }
  }

  /// ✓ or ✗, carrying the value as stored (for JSON and CSV).
  struct Mark: PrimitiveView {
    let value: DatabaseValue
    let on: Bool
    func node(in scope: ViewScope) throws -> ViewNode {
      .value(ShownValue(value, text: on ? "✓" : "✗"), wraps: false)
    }
  }
}

/// Long text, wrapped to the width (a table cell is one whole line, as for any value).
struct DisplayLargeString: FormattedValueComponent {
  var body: some D2SView { FormattedValue(wraps: true) }
}

/// Never the value, nor whether there is one: the same dots for a password and for NULL.
struct DisplayPassword: D2SView {
  var body: some D2SView { Text("••••••••") }
}

/// The destination's title.
struct DisplayToOne: RelatedTitleComponent {
  @Environment(\.propertyValue) var value
  var body: some D2SView {
    if let object = KVC.unwrap(value) as? DatabaseObject {
      FormattedValue(object)
    } else {
      FormattedValue(nil)
    }
  }
}

/// The count and the first titles.
struct DisplayToMany: PrimitiveView {
  func node(in scope: ViewScope) throws -> ViewNode {
    let objects = KVC.unwrap(scope.context.propertyValue) as? [DatabaseObject] ?? []
    let titles = objects.prefix(3).map { ValueText.title(of: $0, scope.context) }
    let text =
      "\(objects.count)"
      + (titles.isEmpty
        ? "" : ": " + titles.joined(separator: ", ") + (objects.count > 3 ? ", …" : ""))
    return .value(ShownValue(.int(objects.count), text: text), wraps: false)
  }
}

/// An edit field: the current value, whether it changed, and a validation error.
struct EditValue: D2SView {
  let kind: String
  @Environment(\.propertyKey) var key
  var body: some D2SView {
    EditField(choose: kind == "EditToOne" ? .choose(relationship: key) : nil)
  }
}
