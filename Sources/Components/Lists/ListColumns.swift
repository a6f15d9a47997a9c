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
  /// One column, as its plan decides it: a class, so that rows read it by reference rather
  /// than copying its fields for every cell. Kept with the connection from page to page (in a
  /// ``ColumnSet``); what a page adds, its rule context and its to-one titles, is the page's
  /// own (``PageState``).
  final class Column {
    let description: TableColumn
    let path: PropertyPath?
    /// Where the column's value is in a row (attributes first, then joined paths).
    let valueIndex: Int?
    /// The entity attribute the column shows, when its path is the attribute itself.
    let ownAttribute: String?
    /// How cells show their value when they can skip their component, else nil. A `let`:
    /// the list's ``PlainCell``s read it unretained.
    let plain: PlainText?
    /// For a to-one shown by its title (BasicLook's DisplayToOne, chosen for the whole
    /// column): where its foreign key is. Each page fetches its own titles.
    let titles: Layout.Titles?

    init(
      description: TableColumn, path: PropertyPath?, valueIndex: Int?, ownAttribute: String?,
      plain: PlainText?, titles: Layout.Titles?
    ) {
      self.description = description
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
    /// The component's style (`FormattedValue().bold()`), the same for every cell.
    let style: TextStyle?

    init(
      formatter: (any ValueFormatter)?, attribute: Attribute?, nilText: String,
      style: TextStyle? = nil
    ) {
      self.format = formatter.map { formatter in { formatter.format($0, for: attribute) } }
      made = formatter == nil ? nil : FormattedTexts()
      self.nilText = nilText
      self.style = style
    }

    /// The texts made so far, by value: a column repeats its values (a rating, a price), and
    /// its formatter is asked once for each, as long as it stays here, on this page and the
    /// next ones its connection makes with these columns (a formatter gives the same text for
    /// the same value, ``ValueFormatter``).
    private let made: FormattedTexts?

    /// The cell's text for `value`.
    func text(_ value: DatabaseValue) -> String {
      if value.isNull { return nilText }
      guard let format, let made else { return ValueText.plain(value) }
      guard let key = FormattedValueKey(value) else { return format(value) }
      if let text = made[key] { return text }
      let text = format(value)
      made.keep(text, for: key)
      return text
    }
  }

  /// A to-one column shown by its destination's title, read without the row's object: a row
  /// holds the foreign key, the destinations of a chunk of rows are fetched together, and each
  /// one's cell is made once and kept by its key.
  final class ToOneTitles {
    let destination: Entity
    /// The destination's attributes the foreign key matches.
    let destinationKeys: [String]
    /// Where the foreign key's values are: an attribute of the row's entity, or a path
    /// through the to-ones before the last (joined).
    let sources: [PropertyPath]
    /// Where those values are in a row.
    let sourceIndexes: [Int]
    /// Cells by foreign key (a one-column key, the most common, by its value alone: no array
    /// made per row); the empty key is the cell of no object.
    var cells: [[DatabaseValue]: ShownValue] = [:]
    var cellsByValue: [DatabaseValue: ShownValue] = [:]
    /// Cells by a small non-negative integer key, by index: a row's look-up is an array read.
    /// Only keys near the array's end are kept here (see ``keepsByIndex(_:)``); others go to
    /// `cellsByValue`.
    var cellsByInteger: [ShownValue?] = []
    /// How many cells `cellsByInteger` holds.
    var integerCount = 0
    /// Whether `cells` holds every destination: a key not there has no object.
    var isComplete = false
    /// The largest integer key kept by index.
    static let indexedKeys = 1 << 16

    /// Whether integer key `n` is kept by index: within the array, or near enough to its end
    /// for the cells it holds (a page's fifty keys spread over a table of thousands made an
    /// array of thousands of empty cells, made and freed with each page).
    func keepsByIndex(_ n: Int) -> Bool {
      guard n >= 0, n < Self.indexedKeys else { return false }
      return n < cellsByInteger.count || n < 64 + 4 * integerCount
    }

    /// The titles of a to-one column, laid out as `layout` says; none fetched yet.
    init(_ layout: Layout.Titles) {
      destination = layout.destination
      destinationKeys = layout.destinationKeys
      sources = layout.sources
      sourceIndexes = layout.sourceIndexes
    }

    /// The foreign key of `values`, or nil when a part of it is NULL.
    func key(_ values: [DatabaseValue]) -> [DatabaseValue]? {
      let key = sourceIndexes.map { values[$0] }
      return key.contains(.null) ? nil : key
    }

    /// The cell made for `values`' foreign key, if any.
    func cell(_ values: [DatabaseValue]) -> ShownValue? {
      if sourceIndexes.count == 1 {
        let value = values[sourceIndexes[0]]
        if case .int(let n) = value, n >= 0, n < cellsByInteger.count,
          let cell = cellsByInteger[n]
        {
          return cell
        }
        return value.isNull ? cells[[]] : cellsByValue[value]
      }
      return cells[key(values) ?? []]
    }

    /// Keeps `cell` for `key`.
    func store(_ cell: ShownValue, for key: [DatabaseValue]) {
      guard key.count == 1 else {
        cells[key] = cell
        return
      }
      if case .int(let n) = key[0], keepsByIndex(n) {
        if n >= cellsByInteger.count {
          cellsByInteger.append(contentsOf: repeatElement(nil, count: n + 1 - cellsByInteger.count))
        }
        if cellsByInteger[n] == nil { integerCount += 1 }
        cellsByInteger[n] = cell
      } else {
        cellsByValue[key[0]] = cell
      }
    }
  }

  /// The page's columns (kept from page to page) and what the page adds to them.
  private let page: PageState
  /// The columns (``ColumnSet/columns``, read here with no access to the set).
  let columns: [Column]
  /// Their plain cells (``ColumnSet/plainCells``).
  private let plainCells: [PlainCell?]
  /// The arrays of the last row written (``ColumnSet/spare``).
  private let spare: SpareRowArrays

  let environment: RenderEnvironment
  /// The key paths read through joins, in row order after the attributes.
  let joinedPaths: [PropertyPath]
  /// Whether some column renders its component per cell (and so needs the row's object).
  let needsObjects: Bool
  /// The relationships those cells read, fetched a chunk of rows at a time.
  let prefetch: [String]
  let keyIndexes: [Int]
  /// The key attributes of the entity when the columns do not show them all (a surrogate
  /// `id`, a link table's foreign keys): the footer says how to see them, for `inspect`.
  let hiddenKey: [String]?
  /// The entity attributes a row holds when no cell needs an object: the primary key and the
  /// columns' own attributes (nil: all of them).
  let rowAttributes: [Attribute]?
  /// Where to-one columns fetch the objects they show the titles of.
  let database: Database?

  /// What the rules decide of a list's columns, whatever its rows: kept as a page plan
  /// (``RuleContext/planned(_:_:)``) under the keys those decisions read.
  struct ColumnPlan: Sendable {
    /// One column's decisions.
    struct Column: Sendable {
      let key: String
      let label: String
      let component: String
      /// Whether the component or the formatter is worked out per cell (a rule reads the row).
      let perCell: Bool
      /// The formatter the rules name, as the registry had it (the plan's name carries the
      /// registry's version).
      let formatter: (any ValueFormatter)?
      let rightAligned: Bool
      /// Whether the component shows its value formatted (the fast path).
      let showsValue: Bool
      /// Whether the component shows a to-one by its title.
      let showsTitle: Bool
      let style: TextStyle?
      let nilText: String
      let attribute: Attribute?
      /// The key's path from the entity (nil when it names no property), parsed once per plan.
      let path: PropertyPath?
      /// Whether a narrow terminal may cut the column's values.
      let cuttable: Bool
    }
    let columns: [Column]
    /// Where their values are in a row.
    let layout: Layout
    /// This plan, among all: what a connection keeps its columns under (``ColumnSet``).
    let identity = Identity()

    /// An object that names one plan.
    final class Identity: Sendable {}

    init(columns: [Column], entity: Entity, model: Model) {
      self.columns = columns
      self.layout = Layout(columns, entity: entity, model: model)
    }

    /// The decisions for the columns `keys` of `entity`'s list in `context`.
    static func make(
      _ context: RuleContext, keys: [String], entity: Entity, model: Model,
      environment: RenderEnvironment
    ) throws -> ColumnPlan {
      let perCell: [any DynamicEnvironmentKey.Type] = [
        D2SKeys.Object.self, D2SKeys.PropertyValue.self,
      ]
      return ColumnPlan(
        columns: try keys.map { key in
          let column = context.with(\.propertyKey, key)
          let (component, componentPerCell) = try column.value(
            D2SKeys.Component.self, readingAnyOf: perCell)
          let (formatter, formatterPerCell) = try column.value(
            D2SKeys.Formatter.self, readingAnyOf: perCell)
          let name = component?.name ?? ""
          let view = try? environment.looks.view(ComponentName(name), look: column.look)
          let rightAligned = (view as? any AlignedComponent)?.alignment == .trailing
          let path = try? PropertyPath(key, from: entity, in: model)
          return Column(
            key: key, label: column.displayNameForProperty, component: name,
            perCell: componentPerCell || formatterPerCell || column.debug,
            formatter: formatter.flatMap { environment.formatters.formatter(named: $0.name) },
            rightAligned: rightAligned,
            // What the component declares it shows, not its name, decides the fast path.
            showsValue: view is any FormattedValueComponent,
            showsTitle: view is any RelatedTitleComponent,
            // A style does not depend on the row: read once per component type.
            style: view.flatMap {
              ValueComponentStyles.style(
                of: $0, in: ViewScope(context: column, environment: environment))
            }, nilText: column.displayStringForNil, attribute: column.attribute, path: path,
            cuttable: ListColumns.isCuttable(path, rightAligned: rightAligned, model: model))
        }, entity: entity, model: model)
    }
  }

  init(
    context: RuleContext, entity: Entity, database: Database?, environment: RenderEnvironment
  ) throws {
    let model = database?.model ?? context.model
    var rowContext = context
    rowContext.auxiliaryQualifier = nil  // nested lists do not inherit it
    let keepsScale = database?.adaptor.keepsDecimalScale == true
    // The columns, as the page's own context says (a nested list's rules may read its
    // auxiliaryQualifier); the plan's name says what it depends on besides the keys its rules
    // read: the entity, the looks and the columns.
    let keys = Self.keys(context, environment.list)
    let name = PlanName.of(
      entity, keys: keys, environment: environment, kept: database?.keptObjects)
    func make(_ context: RuleContext) throws -> ColumnPlan {
      try ColumnPlan.make(
        context, keys: keys, entity: entity, model: model, environment: environment)
    }
    // A plan made while the entity's catalog could not be read whole (no attributes, no key)
    // is not kept: the next page reads the catalog again, and lays its columns out anew.
    _ = entity.primaryKeyAttributeNames
    let kept = entity.hasDetails
    let plan = kept ? try rowContext.planned(name, make) : try make(rowContext)
    let layout = plan.layout
    // The columns this connection made from the plan for an earlier page, unless another
    // page holds them (a list nested in one of its own cells).
    let keeper = kept ? database?.keptObjects : nil
    let set: ColumnSet
    if let taken = keeper?.take(for: plan.identity) as? ColumnSet, taken.keepsScale == keepsScale {
      set = taken
    } else {
      set = ColumnSet(plan, keepsScale: keepsScale)
    }
    self.page = PageState(set: set, rowContext: rowContext, keeper: keeper)
    self.columns = set.columns
    self.plainCells = set.plainCells
    self.spare = set.spare
    self.needsObjects = layout.needsObjects
    self.prefetch = layout.prefetch
    self.rowAttributes = layout.rowAttributes
    self.keyIndexes = layout.keyIndexes
    self.hiddenKey = layout.hiddenKey
    self.environment = environment
    self.joinedPaths = layout.joinedPaths
    self.database = database
  }

  /// The columns' keys: the request's own (`with id`), then the rules' `displayPropertyKeys`.
  static func keys(_ context: RuleContext, _ request: ListRequest) -> [String] {
    let rules = context.displayPropertyKeys
    guard !request.columns.isEmpty else { return rules }
    var keys = request.columns
    for key in rules where !keys.contains(key) { keys.append(key) }
    return keys
  }

  /// Text may be cut on a narrow terminal; numbers, dates and the title of the row (or of
  /// the object a path leads to) never are.
  static func isCuttable(_ path: PropertyPath?, rightAligned: Bool, model: Model) -> Bool {
    guard let path, let attribute = path.attribute else { return !rightAligned }
    switch attribute.valueType {
    case .int, .double, .decimal, .date, .bool: return false
    default: break
    }
    guard let owner = path.owner(in: model) else { return true }
    return !(owner.titleAttributeChoices.first ?? []).contains(attribute.name)
  }

  /// The row made from a display group's `values` (and `object`, when cells need one).
  func row(_ values: [DatabaseValue], _ object: DatabaseObject?) throws -> TableRow {
    // The last row's arrays, written over in place: a cell replaces the one at its place
    // (through the buffer, with no uniqueness or bounds check a cell, and no copy of it).
    var (key, cells) = spare.take()
    if cells.count != columns.count {
      cells = Array(repeating: ShownValue(.null, text: ""), count: columns.count)
    }
    let filled = try cells.withUnsafeMutableBufferPointer { cells in
      var filled = 0
      for position in columns.indices {
        if let plain = plainCells[position] {
          cells[filled] = plain.cell(values[plain.index])
          filled += 1
          continue
        }
        let column = columns[position]
        if let titles = page.titles(position) {
          if titles.cell(values) == nil, !titles.isComplete { try loadTitles(for: [values]) }
          // A foreign key that leads to no row is shown as it is stored, not as NULL.
          cells[filled] =
            titles.cell(values)
            ?? (titles.sourceIndexes.count == 1
              ? ShownValue(
                values[titles.sourceIndexes[0]],
                text: values[titles.sourceIndexes[0]].storedText())
              : ShownValue(.null, text: page.context(position).displayStringForNil))
          filled += 1
          continue
        }
        guard let object else { continue }
        var cell = page.context(position).with(\.object, object)
        // The page knows the value: read it from the row, or through the resolved path.
        if let index = column.valueIndex {
          cell.propertyValue = values[index].sendableValue ?? AnySendableValue(nil)
        } else if let path = column.path {
          cell.propertyValue =
            PropertyValues.sendable(path.anyValue(in: object)) ?? AnySendableValue(nil)
        }
        let scope = ViewScope(context: cell, environment: environment)
        let node = try ComponentView(\.component).resolve(in: scope)
        // The cell's value is the one its component shows: none for a component that draws
        // text of its own (a password's dots), so that JSON never carries what the page
        // hides.
        cells[filled] = ShownValue(
          node.shownValue?.value ?? .null, text: node.cellText, style: node.cellStyle)
        filled += 1
      }
      return filled
    }
    if filled < cells.count { cells.removeSubrange(filled...) }
    if key.count == keyIndexes.count {
      for (place, index) in keyIndexes.enumerated() { key[place] = values[index] }
    } else {
      key.removeAll(keepingCapacity: true)
      for index in keyIndexes { key.append(values[index]) }
    }
    return TableRow(key: key, cells: cells)
  }

  /// Gives `row`'s arrays back once it is written, for ``row(_:_:)`` to fill again: their
  /// storage is reused when nothing else kept the row (two allocations a row fewer).
  func recycle(_ row: consuming TableRow) {
    spare.keep(row)
  }

  /// Whether some column shows a to-one by its title: rows are best handed to ``row(_:_:)``
  /// after ``loadTitles(for:)`` has seen a chunk of them, unless ``titlesAreComplete``.
  var showsTitles: Bool { columns.contains { $0.titles != nil } }

  /// Whether every to-one column holds the titles of all its destinations (after
  /// ``loadAllTitles(upTo:)``): then making rows never queries.
  var titlesAreComplete: Bool {
    columns.indices.allSatisfy { page.titles($0)?.isComplete ?? true }
  }

  /// Makes the cells of every destination of each to-one column whose entity has at most
  /// `limit` rows (one statement each): a long list then reads its rows ahead, since no
  /// row needs a query.
  func loadAllTitles(upTo limit: Int) throws {
    guard let database else { return }
    for position in columns.indices {
      guard let titles = page.titles(position), !titles.isComplete else { continue }
      let objects = try database.fetch(
        FetchSpecification(entityName: titles.destination.name, limit: limit + 1))
      guard objects.count <= limit else { continue }
      let indexes = titles.destinationKeys.compactMap {
        titles.destination.attributeIndex(named: $0)
      }
      for object in objects {
        titles.store(
          try titleCell(position, object), for: indexes.map { object.databaseValue(at: $0) })
      }
      titles.cells[[]] = try titleCell(position, nil)
      titles.isComplete = true
    }
  }

  /// Fetches the destinations of `rows`' to-ones that no cell shows yet (one statement per
  /// column per batch of keys, never one per row) and makes their cells.
  func loadTitles(for rows: [[DatabaseValue]]) throws {
    for position in columns.indices {
      guard let titles = page.titles(position), !titles.isComplete else { continue }
      var missing = Set<[DatabaseValue]>()
      for values in rows where titles.cell(values) == nil {
        missing.insert(titles.key(values) ?? [])
      }
      if missing.remove([]) != nil { titles.cells[[]] = try titleCell(position, nil) }
      guard !missing.isEmpty, let database else { continue }
      let keys = Array(missing)
      let found = try database.objects(
        of: titles.destination, matching: titles.destinationKeys, in: keys)
      for key in keys {
        // A foreign key that leads to no row: its value as stored, not the cell of NULL.
        let cell =
          if let object = found[key] { try titleCell(position, object) } else {
            key.count == 1
              ? ShownValue(key[0], text: key[0].storedText())
              : try titleCell(position, nil)
          }
        titles.store(cell, for: key)
      }
    }
  }

  /// The cell of the to-one column at `position` showing `object` (nil: none), as its
  /// component makes it.
  private func titleCell(_ position: Int, _ object: DatabaseObject?) throws -> ShownValue {
    var cell = page.context(position)
    cell.propertyValue = PropertyValues.sendable(object) ?? AnySendableValue(nil)
    let scope = ViewScope(context: cell, environment: environment)
    let node = try ComponentView(\.component).resolve(in: scope)
    return ShownValue(
      FormattedValue.value(of: object), text: node.cellText, style: node.cellStyle)
  }
}
