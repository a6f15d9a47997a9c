import D2SModel
import EnvKeys
import RuleCore

/// The columns of a list page and the rows they make from a display group's rows.
///
/// What does not depend on the row is resolved once per column: its label, its component and
/// its formatter, unless a candidate rule for them reads `object` or `propertyValue` (then per
/// cell, as the rules say). A plain value component with a column-wide formatter formats the
/// typed value of the row straight into its cell; values at key paths come from the same
/// statement (joined), so such a list makes no objects at all.
struct ListColumns {
  /// One column: a class, so that rows read it by reference rather than copying its fields
  /// for every cell.
  final class Column {
    let description: TableColumn
    let context: RuleContext
    let path: PropertyPath?
    /// Where the column's value is in a row (attributes first, then joined paths).
    var valueIndex: Int?
    /// The entity attribute the column shows, when its path is the attribute itself.
    let ownAttribute: String?
    /// How cells show their value when they can skip their component, else nil.
    let plain: PlainText?
    /// For a to-one shown by its title (BasicLook's DisplayToOne, chosen for the whole column):
    /// the cells made so far, by the related object's key, so each related object's title is
    /// resolved once.
    let titles: TitleCache?

    init(
      description: TableColumn, context: RuleContext, path: PropertyPath?, valueIndex: Int?,
      ownAttribute: String?, plain: PlainText?,
      titles: TitleCache?
    ) {
      self.description = description
      self.context = context
      self.path = path
      self.valueIndex = valueIndex
      self.ownAttribute = ownAttribute
      self.plain = plain
      self.titles = titles
    }
  }

  /// A column's value shown through its column-wide formatter (a class: rows read it by
  /// reference, where a tuple holding an existential would be copied through the runtime's
  /// value witnesses for every cell).
  final class PlainText {
    /// The formatter's `format` for the column's attribute (a closure: testing or reading an
    /// optional existential copies it through the runtime's value witnesses, every cell).
    let format: ((DatabaseValue) -> String)?
    let nilText: String

    init(formatter: (any ValueFormatter)?, attribute: Attribute?, nilText: String) {
      self.format = formatter.map { formatter in { formatter.format($0, for: attribute) } }
      self.nilText = nilText
    }

    /// The cell's text for `value`.
    func text(_ value: DatabaseValue) -> String {
      if value.isNull { return nilText }
      if let format { return format(value) }
      return ValueText.plain(value)
    }
  }

  /// Cells by the key of the object they show.
  final class TitleCache {
    var cells: [[DatabaseValue]: ShownValue] = [:]
  }

  let columns: [Column]
  let environment: RenderEnvironment
  /// The key paths read through joins, in row order after the attributes.
  let joinedPaths: [PropertyPath]
  /// Whether some column renders its component per cell (and so needs the row's object).
  let needsObjects: Bool
  /// The relationships those cells read, fetched a chunk of rows at a time.
  let prefetch: [String]
  let keyIndexes: [Int]
  /// The entity attributes a row holds when no cell needs an object: the primary key and the
  /// columns' own attributes (nil: all of them).
  let rowAttributes: [Attribute]?

  init(context: RuleContext, entity: Entity, model: Model, environment: RenderEnvironment) throws {
    var rowContext = context
    rowContext.auxiliaryQualifier = nil  // nested lists do not inherit it
    let perCell: [any DynamicEnvironmentKey.Type] = [
      D2SKeys.Object.self, D2SKeys.PropertyValue.self,
    ]
    var joined: [PropertyPath] = []
    var columns: [Column] = []
    for key in context.displayPropertyKeys {
      let column = rowContext.with(\.propertyKey, key)
      let (component, componentPerCell) = try column.value(
        D2SKeys.Component.self, readingAnyOf: perCell)
      let (formatter, formatterPerCell) = try column.value(
        D2SKeys.Formatter.self, readingAnyOf: perCell)
      let name = component?.name ?? ""
      let path = try? PropertyPath(key, from: entity, in: model)
      var index: Int?
      var own: String?
      if let path, let attribute = path.attribute {
        if path.relationships.isEmpty {
          index = entity.attributeIndex(named: attribute.name)
          own = attribute.name
        } else {
          index = joined.count  // made absolute below, once the row's attributes are known
          joined.append(path)
        }
      }
      let isPlainValue =
        index != nil && !componentPerCell && !formatterPerCell && !column.debug
        && Self.plainComponents.contains(name)
        && Self.isBasicValueView(
          try? environment.looks.view(ComponentName(name), look: column.look))
      columns.append(
        Column(
          description: TableColumn(
            key: key, label: column.displayNameForProperty, component: name,
            rightAligned: name == "DisplayNumber",
            cuttable: Self.isCuttable(path, component: name, model: model)),
          context: column, path: path, valueIndex: index, ownAttribute: own,
          plain: isPlainValue
            ? PlainText(
              formatter: formatter.flatMap { environment.formatters.formatter(named: $0.name) },
              attribute: column.attribute, nilText: column.displayStringForNil) : nil,
          titles: name == "DisplayToOne" && !componentPerCell && !formatterPerCell && !column.debug
            && path?.attribute == nil
            && (try? environment.looks.view(ComponentName(name), look: column.look)) is DisplayToOne
            ? TitleCache() : nil))
    }
    let slow = columns.filter { $0.plain == nil }
    self.needsObjects = !slow.isEmpty
    self.prefetch = slow.compactMap { column in
      guard let path = column.path, !path.relationships.isEmpty || path.attribute == nil else {
        return nil
      }
      return path.keyPath
    }
    // Without objects a row holds only what is shown, and the key; with them, every attribute.
    let keyNames = entity.primaryKeyAttributeNames
    var names: [String] = []
    for name in keyNames + columns.compactMap(\.ownAttribute) where !names.contains(name) {
      names.append(name)
    }
    let attributes =
      needsObjects ? entity.attributes : names.compactMap { entity.attribute(named: $0) }
    self.rowAttributes = needsObjects ? nil : attributes
    func position(_ name: String) -> Int? { attributes.firstIndex { $0.name == name } }
    for index in columns.indices {
      if let own = columns[index].ownAttribute {
        columns[index].valueIndex = position(own)
      } else if let joinedIndex = columns[index].valueIndex {
        columns[index].valueIndex = attributes.count + joinedIndex
      }
    }
    self.keyIndexes = keyNames.compactMap(position)
    self.columns = columns
    self.environment = environment
    self.joinedPaths = joined
  }

  /// Whether `view` is one of BasicLook's value views (a look may replace them by name).
  static func isBasicValueView(_ view: (any D2SView)?) -> Bool {
    view is DisplayValue || view is DisplayLargeString
  }

  /// Text may be cut on a narrow terminal; numbers, dates and the title of the row (or of
  /// the object a path leads to) never are.
  static func isCuttable(_ path: PropertyPath?, component: String, model: Model) -> Bool {
    guard let path, let attribute = path.attribute else { return component != "DisplayNumber" }
    switch attribute.valueType {
    case .int, .double, .decimal, .date, .bool: return false
    default: break
    }
    guard let owner = path.owner(in: model) else { return true }
    return !(owner.titleAttributeChoices.first ?? []).contains(attribute.name)
  }

  /// The components that show a value through its formatter and nothing else.
  /// (DisplayLargeString too: it wraps on inspect pages, but a table cell is one whole line.)
  static let plainComponents: Set<String> = [
    "DisplayString", "DisplayNumber", "DisplayDate", "DisplayEmail", "DisplayURL",
    "DisplayLargeString",
  ]

  /// The row made from a display group's `values` (and `object`, when cells need one).
  func row(_ values: [DatabaseValue], _ object: DatabaseObject?) throws -> TableRow {
    var cells: [ShownValue] = []
    cells.reserveCapacity(columns.count)
    for column in columns {
      if let plain = column.plain, let index = column.valueIndex {
        let value = values[index]
        cells.append(ShownValue(value, text: plain.text(value)))
        continue
      }
      guard let object else { continue }
      var titleKey: [DatabaseValue]?
      if let titles = column.titles, let path = column.path {
        let related = KVC.unwrap(path.anyValue(in: object)) as? DatabaseObject
        let key = related?.primaryKeyValues ?? []
        if let cached = titles.cells[key] {
          cells.append(cached)
          continue
        }
        titleKey = key
      }
      var cell = column.context.with(\.object, object)
      // The page knows the value: read it from the row, or through the resolved path.
      if let index = column.valueIndex {
        cell.propertyValue = values[index].sendableValue ?? AnySendableValue(nil)
      } else if let path = column.path {
        cell.propertyValue =
          PropertyValues.sendable(path.anyValue(in: object)) ?? AnySendableValue(nil)
      }
      let scope = ViewScope(context: cell, environment: environment)
      let node = try ComponentView(\.component).resolve(in: scope)
      let shown = ShownValue(
        FormattedValue.shown(cell.propertyValue, in: scope).value, text: node.cellText)
      if let titleKey, let titles = column.titles { titles.cells[titleKey] = shown }
      cells.append(shown)
    }
    return TableRow(key: keyIndexes.map { values[$0] }, cells: cells)
  }
}
