import Components
import D2SModel
import RuleCore

extension HTMLRenderer {
  /// The renderer of `platform = 'html'` for one page, its links made from the page's context
  /// by the one link builder (``WebLinks``): the page d2s-serve serves a visitor who is not
  /// logged in (`d2s-repl --format html -c 'inspect Film 1'` prints `/Film/1`).
  public init(options: RenderOptions) {
    guard let context = options.context else {
      self.init(links: WebLinks(databaseName: "", model: Model(entities: [])))
      return
    }
    var links = WebLinks(
      databaseName: context.database?.name ?? "", model: context.model,
      entity: context.entity, objectKey: context.object?.primaryKeyValues,
      reaches: { context.isEntityReachable($0) })
    links.breadcrumb = WebLinks.trail(of: context)
    self.init(links: links)
  }
}
