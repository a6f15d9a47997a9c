import D2SModel
import EnvKeys
import RuleCore

extension ListColumns {
  /// A list's columns as their plan decides them, and what rows read of them: kept by the
  /// connection for the plan's next page (``KeptObjects``), which one page holds at a time.
  final class ColumnSet {
    /// The plan they were made from: held, as its identity names them.
    let plan: ColumnPlan.Identity
    /// Whether decimals keep their scale, as the connection's adaptor says.
    let keepsScale: Bool
    /// The columns. A `let`, as each column's `plain` is: ``PlainCell`` reads the texts they
    /// hold unretained.
    let columns: [Column]
    /// Per column, the plain text of its cells and where their value is in a row, when they
    /// skip their component: what a row reads of each column, with no access to the column.
    let plainCells: [PlainCell?]
    /// The arrays of the last row written, given back (``recycle(_:)``) for the next row.
    let spare = SpareRowArrays()

    /// The columns `plan` decides, their decimals' scale kept when `keepsScale`.
    init(_ plan: ColumnPlan, keepsScale: Bool) {
      self.plan = plan.identity
      self.keepsScale = keepsScale
      columns = zip(plan.columns, plan.layout.columns).map { decided, placed in
        Column(
          description: TableColumn(
            key: decided.key, label: decided.label, component: decided.component,
            rightAligned: decided.rightAligned,
            cuttable: decided.cuttable,
            scale: keepsScale ? decided.attribute?.scale : nil,
            dateKind: decided.attribute?.dateKind),
          path: decided.path, valueIndex: placed.valueIndex, ownAttribute: placed.ownAttribute,
          plain: placed.isPlainValue
            ? PlainText(
              formatter: decided.formatter,
              attribute: decided.attribute, nilText: decided.nilText, style: decided.style)
            : nil,
          titles: placed.titles)
      }
      // Each made from the text its column holds (and keeps: `columns` and `plain` are `let`).
      plainCells = columns.map { column in
        column.plain.flatMap { plain in
          column.valueIndex.map { PlainCell(text: plain, index: $0) }
        }
      }
    }
  }

  /// What a page adds to its columns: its rule context, its cells' contexts (made when a cell
  /// first asks, since a column whose cells are plain text never does) and the to-one titles
  /// it fetched. When the page lets go of it, its columns go back to the connection.
  final class PageState {
    let set: ColumnSet
    let rowContext: RuleContext
    /// Per column, its cells' context, once asked for (empty until then).
    private var contexts: [RuleContext?] = []
    /// Per column, the titles its to-one cells show (empty when no column shows any).
    private let titles: [ToOneTitles?]
    /// Where `set` goes back to, if it is kept.
    private let keeper: KeptObjects?

    init(set: ColumnSet, rowContext: RuleContext, keeper: KeptObjects?) {
      self.set = set
      self.rowContext = rowContext
      self.keeper = keeper
      let columns = set.columns
      titles =
        columns.contains { $0.titles != nil }
        ? columns.map { $0.titles.map(ToOneTitles.init) } : []
    }

    deinit { keeper?.keep(set, for: set.plan) }

    /// The context of the cells of the column at `position`: the page's, with the column's
    /// property key.
    func context(_ position: Int) -> RuleContext {
      if contexts.isEmpty { contexts = Array(repeating: nil, count: set.columns.count) }
      if let context = contexts[position] { return context }
      let context = rowContext.with(\.propertyKey, set.columns[position].description.key)
      contexts[position] = context
      return context
    }

    /// The titles the to-one column at `position` shows on this page, nil for another column.
    func titles(_ position: Int) -> ToOneTitles? {
      position < titles.count ? titles[position] : nil
    }
  }

  /// A column whose cells are its value's text, at `index` in a row. Its text is held by the
  /// column (``columns`` keeps it as long as the rows are made): read here unretained, with
  /// no retain and release a cell.
  struct PlainCell {
    let unretainedText: Unmanaged<PlainText>
    let index: Int

    init(text: PlainText, index: Int) {
      unretainedText = .passUnretained(text)
      self.index = index
    }

    /// The cell's text for `value`, and its style.
    func cell(_ value: DatabaseValue) -> ShownValue {
      unretainedText._withUnsafeGuaranteedRef { text in
        ShownValue(value, text: text.text(value), style: text.style)
      }
    }
  }
}
