import D2SModel
import EnvKeys
import RuleCore

/// A textual view: renders itself as lines of text for a rule context.
///
/// Pages, page wrappers, rows and property components are all components, registered under a
/// look by name; rules pick them by name (`component = 'EditRating'`).
public protocol D2SComponent: Sendable {
  /// The lines this component shows in `context`.
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String]
}

/// What rendering needs besides the rule context: the looks and formatters, the width, and
/// what a list page should fetch.
public struct RenderEnvironment: Sendable {
  public var looks: LookRegistry
  public var formatters: FormatterRegistry
  /// Terminal columns available.
  public var width: Int
  /// The list page's request: the user's qualifier, orderings and window.
  public var list: ListRequest
  /// The label column width rows align to (set by pages that show rows).
  public var labelWidth = 0

  public init(looks: LookRegistry = LookRegistry(), formatters: FormatterRegistry = FormatterRegistry(), width: Int = 100,
    list: ListRequest = ListRequest())
  {
    self.looks = looks
    self.formatters = formatters
    self.width = width
    self.list = list
  }

  /// The component `name` of the context's look (falling back to `BasicLook`).
  public func component(_ name: ComponentName, in context: RuleContext) throws -> any D2SComponent {
    try looks.component(name, look: context.look)
  }

  /// Renders the component the key at `keyPath` names, or nothing when it names none. With
  /// `debug = true`, a property component's first line starts with its tag (`[DS] `).
  public func render(_ keyPath: KeyPath<RuleContext, ComponentName?>, in context: RuleContext) throws -> [String] {
    guard let name = context[keyPath: keyPath] else { return [] }
    let component = try component(name, in: context)
    guard keyPath == \RuleContext.component, context.debug else { return try component.render(in: context, self) }
    let tag = "[\(name.debugTag)] "
    var tagged = self  // the tag takes room from wrapped values
    tagged.labelWidth += TextWidth.of(tag)
    let lines = try component.render(in: context, tagged)
    guard let first = lines.first else { return lines }
    return [tag + first] + lines.dropFirst()
  }

  /// The whole page for `context`: its page wrapper around its page.
  public func renderPage(_ context: RuleContext) throws -> String {
    let lines = context.pageWrapper == nil ? try render(\.page, in: context) : try render(\.pageWrapper, in: context)
    return lines.joined(separator: "\n") + "\n"
  }
}

/// What a list page fetches beyond the entity: a qualifier, orderings and a window.
public struct ListRequest: Sendable {
  public var qualifier: Qualifier?
  public var sortOrderings: [SortOrdering]
  public var limit: Int?
  public var offset: Int
  public init(qualifier: Qualifier? = nil, sortOrderings: [SortOrdering] = [], limit: Int? = nil, offset: Int = 0) {
    self.qualifier = qualifier
    self.sortOrderings = sortOrderings
    self.limit = limit
    self.offset = offset
  }
}

import Qualifiers
