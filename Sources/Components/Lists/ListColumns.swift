import D2SModel
import EnvKeys
import RuleCore

/// The columns of a list page and the rows they make from a display group's objects.
///
/// What does not depend on the row is resolved once per column: its label, its component and
/// its formatter, unless a candidate rule for them reads `object` or `propertyValue` (then per
/// cell, as the rules say). A plain value component with a column-wide formatter formats the
/// typed value straight into its cell.
struct ListColumns {
  struct Column {
    let description: TableColumn
    let context: RuleContext
    let path: PropertyPath?
    /// The column-wide formatter when cells can skip their component, else nil.
    let plain: (formatter: (any ValueFormatter)?, attribute: Attribute?)?
  }

  let columns: [Column]
  let environment: RenderEnvironment

  init(context: RuleContext, entity: Entity, model: Model, environment: RenderEnvironment) throws {
    var rowContext = context
    rowContext.auxiliaryQualifier = nil  // nested lists do not inherit it
    let perCell: [any DynamicEnvironmentKey.Type] = [D2SKeys.Object.self, D2SKeys.PropertyValue.self]
    columns = try context.displayPropertyKeys.map { key in
      let column = rowContext.with(\.propertyKey, key)
      let (component, componentPerCell) = try column.value(D2SKeys.Component.self, readingAnyOf: perCell)
      let (formatter, formatterPerCell) = try column.value(D2SKeys.Formatter.self, readingAnyOf: perCell)
      let name = component?.name ?? ""
      let isPlainValue = !componentPerCell && !formatterPerCell && !column.debug && ListColumns.plainComponents.contains(name)
        && (try? environment.looks.view(ComponentName(name), look: column.look)) is DisplayValue
      let path = try? PropertyPath(key, from: entity, in: model)
      return Column(
        description: TableColumn(key: key, label: column.displayNameForProperty, component: name, rightAligned: name == "DisplayNumber"),
        context: column, path: path,
        plain: isPlainValue && path?.attribute != nil
          ? (formatter.flatMap { environment.formatters.formatter(named: $0.name) }, column.attribute) : nil)
    }
    self.environment = environment
  }

  /// The components that show a value through its formatter and nothing else.
  static let plainComponents: Set<String> = ["DisplayString", "DisplayNumber", "DisplayDate", "DisplayEmail", "DisplayURL"]

  /// The row for `object`.
  func row(_ object: DatabaseObject) throws -> TableRow {
    var cells: [ShownValue] = []
    cells.reserveCapacity(columns.count)
    for column in columns {
      if let plain = column.plain, let path = column.path {
        let value = path.value(in: object) ?? .null
        let text: String
        if value.isNull {
          text = column.context.displayStringForNil
        } else if let formatter = plain.formatter {
          text = formatter.format(value, for: plain.attribute)
        } else {
          text = ValueText.plain(value)
        }
        cells.append(ShownValue(value, text: text))
        continue
      }
      var cell = column.context.with(\.object, object)
      // The page knows the value: read it through the resolved path, not a rule per cell.
      if let path = column.path { cell.propertyValue = AnySendableValue(path.anyValue(in: object)) }
      let scope = ViewScope(context: cell, environment: environment)
      let node = try ComponentView(\.component).resolve(in: scope)
      cells.append(ShownValue(FormattedValue.shown(cell.propertyValue, in: scope).value, text: node.cellText))
    }
    return TableRow(key: object.primaryKeyValues, cells: cells)
  }
}
