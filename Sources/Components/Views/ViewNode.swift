import D2SModel
import EnvKeys

/// A view resolved in its scope: what renderers turn into terminal text, Markdown or JSON.
public indirect enum ViewNode: Sendable {
  /// Nothing.
  case empty
  /// Text as it is (may hold line breaks).
  case text(String)
  /// A value with its displayed text; `wraps` asks a terminal to wrap it to the width.
  case value(ShownValue, wraps: Bool)
  /// A property row: its label, and its content beside it (``RowStyle/nameValue``) or below it.
  case row(PropertyRowNode)
  /// A table of rows, read from its source while it is rendered.
  case table(TableNode)
  /// Something the page offers (following `filmActors`), shown as `(follow filmActors)` on a
  /// terminal.
  case action(PageAction)
  /// A view that leads somewhere (an entity's name to its list): on a terminal the view
  /// alone (its action is in the page's JSON), a link on the web.
  case link(ViewNode, PageAction)
  /// An edit field with its changed and invalid state.
  case editField(EditFieldNode)
  /// A message line (`logged in as …`, `error: no page for task 'x'`).
  case message(String)
  /// Views one below the other.
  case stack([ViewNode])
  /// Views side by side on one line, `separator` between them.
  case line([ViewNode], separator: String)
  /// A debug tag (`[DS]`) before a property component's first line.
  case tagged(String, ViewNode)
  /// A view in a style (bold, a colour…), which each renderer shows its own way.
  case styled(TextStyle, ViewNode)
  /// A whole page: what it is, its title, and its content.
  case page(PageNode)
  /// A group of a page's property rows under a heading: a section (`(Basics)` in
  /// `displayPropertyKeys`) or a tab (`[Pricing]`).
  case section(SectionNode)
}

/// Property rows grouped under a heading, as ERD2W's `displayPropertyKeys` write them.
public struct SectionNode: Sendable {
  /// The heading (`Basics`).
  public var title: String
  /// Whether it is a tab (`[Pricing]`): one of several panes a page shows one at a time
  /// where it can; else a section, shown with the others.
  public var isTab: Bool
  /// The rows.
  public var content: ViewNode

  /// A section or tab of `content` headed `title`.
  public init(title: String, isTab: Bool, content: ViewNode) {
    self.title = title
    self.isTab = isTab
    self.content = content
  }
}

extension ViewNode {
  /// Whether the node lays out blocks (rows, tables, pages), which styles do not reach:
  /// renderers show a styled block as the block itself.
  public var isBlock: Bool {
    switch self {
    case .row, .table, .page, .section: true
    case .stack(let children): children.contains(where: \.isBlock)
    case .tagged(_, let inner), .styled(_, let inner): inner.isBlock
    default: false
    }
  }
}

/// A value as shown: the typed value (nil when there is none) and its text.
public struct ShownValue: Sendable, Equatable {
  /// The value, typed (`.null` for nil).
  public var value: DatabaseValue
  /// The text a person sees: through the formatter, nil as `displayStringForNil`.
  public var text: String
  /// The style a table cell shows it in (its component's), nil for none.
  public var style: TextStyle?
  /// A value shown as `text`.
  public init(_ value: DatabaseValue, text: String, style: TextStyle? = nil) {
    self.value = value
    self.text = text
    self.style = style
  }
}

/// How a property row places its label.
public enum RowStyle: Sendable {
  /// `Label  value`, continuation lines under the value.
  case nameValue
  /// `Label:` above the value, indented.
  case nameAsTitle
  /// The value alone.
  case valueOnly
}

/// A property row.
public struct PropertyRowNode: Sendable {
  /// The property key (`lastName`).
  public var key: String
  /// The label (`Last Name`).
  public var label: String
  /// The width labels of the page align to (terminal pages).
  public var labelWidth: Int
  /// Where the label goes.
  public var style: RowStyle
  /// The row's value.
  public var content: ViewNode
}

/// An edit field.
public struct EditFieldNode: Sendable {
  /// The current value.
  public var value: ShownValue
  /// Whether it differs from the saved value.
  public var changed: Bool
  /// Why the value cannot be saved, when it cannot (`required`).
  public var invalid: String?
  /// How to choose a related object, for to-one fields (`choose language`).
  public var choose: PageAction?
}

/// A page: its component name, task, entity and title, around its content.
public struct PageNode: Sendable {
  /// The page component's name (`QueryList`).
  public var name: String
  /// The task (`list`).
  public var task: String
  /// The entity, when the page has one.
  public var entity: String?
  /// The title (`navigationBarTitle`).
  public var title: String
  /// Whether the title is shown above the content (the page wrapper's job).
  public var showsTitle: Bool
  /// The page's content.
  public var content: ViewNode
  /// Shown below the content, after a blank line (debug views).
  public var footer: ViewNode
  /// What the page offers besides its views' own (`next`, the entity list's lists).
  public var actions: [PageAction]
}
