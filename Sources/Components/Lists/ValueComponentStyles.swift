import Synchronization

/// The style of each value component type's cells (``FormattedValueComponent``, whose list
/// cells skip its body): read from its body once per type, the first time a list shows it,
/// not once per column of every page.
enum ValueComponentStyles {
  private static let known = Mutex<[ObjectIdentifier: TextStyle?]>([:])

  /// The style `view`'s cells show, resolving it in `scope` the first time its type is met.
  static func style(of view: any D2SView, in scope: ViewScope) -> TextStyle? {
    let type = ObjectIdentifier(Swift.type(of: view))
    if let found = known.withLock({ $0[type] }) { return found }
    let style = (try? view.resolve(in: scope))?.cellStyle
    known.withLock { $0[type] = style }
    return style
  }
}
