import Components
import D2SModel
import Foundation

/// HTML: a whole document per page, from the same view values as the terminal, Markdown
/// and JSON renderers (`platform = 'html'`). Every value is escaped; object keys, to-ones
/// and to-manys become links; a list gets sortable headers, a filter form, its total and
/// Next/Previous links. Plain HTML and one stylesheet: it works with JavaScript off.
public struct HTMLRenderer: PageRenderer {
  /// The page's links.
  public var links: WebLinks

  /// A renderer for one page.
  public init(links: WebLinks) { self.links = links }

  /// Writes `node` as the page's HTML.
  public func render(_ node: ViewNode, to output: any TextOutput) throws {
    var title = ""
    var content = node
    var footer = ViewNode.empty
    var actions: [PageAction] = []
    var task = ""
    if case .page(let page) = node {
      (title, content, footer, actions, task) =
        (page.title, page.content, page.footer, page.actions, page.task)
    }
    Self.writeHead(
      title: title, databaseName: links.databaseName, user: links.userName, csrf: links.csrf,
      returnTo: links.returnPath, to: output)
    Self.writeBreadcrumb(links.breadcrumb, to: output)
    output.write("<h1>\(HTML.escape(title))\(links.whyLink(nil, label: "this page"))</h1>\n")
    if let notice = links.notice {
      output.write("<p class=\"saved\" role=\"status\">\(HTML.escape(notice))</p>\n")
    }
    var writer = Writer(links: links, output: output)
    if task == "query" {
      writer.entityList(content)
    } else if let form = links.form {
      try writeForm(content, form: form, to: output)
    } else {
      try writer.write(content)
      writer.flushRows()
      let commands = [
        ("New", links.newPath), ("Edit", links.editPath), ("Delete", links.deletePath),
        ("Add or remove", links.linksPath),
      ].compactMap {
        label, path in path.map { "<a href=\"\(HTML.escape($0))\">\(label)</a>" }
      }
      if !commands.isEmpty {
        output.write("<p class=\"buttons\">\(commands.joined(separator: " "))</p>\n")
      }
      writer.actions(actions)
      if case .empty = footer {
      } else {
        output.write("<footer class=\"debug\">")
        try writer.write(footer)
        writer.flushRows()
        output.write("</footer>\n")
      }
    }
    Self.writeTail(to: output)
  }

  /// The edit form of a page's `content`: its inputs, Save and Cancel (alone on the 409 page).
  package func writeForm(_ content: ViewNode, form: WebForm, to output: any TextOutput) throws {
    var writer = Writer(links: links, output: output)
    // A form with tabs is checked by the server alone: a browser stops at an empty required
    // field in a tab it hides, without showing it.
    writer.openForm(form, validates: !content.sections.contains(where: \.isTab))
    try writer.write(content)
    writer.flushRows()
    let continues =
      links.continues
      ? " <button type=\"submit\" name=\"_continue\" value=\"1\">Save and continue editing</button>"
      : ""
    output.write(
      "<p class=\"buttons\"><button type=\"submit\">Save</button>\(continues) <a href=\"\(HTML.escape(form.cancel))\">Cancel</a></p>\n</form>\n"
    )
  }

  /// The trail of pages above this one, each a link (nothing for an empty trail).
  package static func writeBreadcrumb(
    _ trail: [(label: String, path: String)], to output: any TextOutput
  ) {
    guard !trail.isEmpty else { return }
    let items = trail.map { "<a href=\"\(HTML.escape($0.path))\">\(HTML.escape($0.label))</a>" }
    output.write(
      "<nav class=\"breadcrumb\" aria-label=\"Breadcrumb\">\(items.joined(separator: " › "))</nav>\n"
    )
  }

  /// The document's start: language, title, viewport, stylesheet, the site header (with who
  /// is logged in, their agents' tokens and Log out, or a login link), `<main>`.
  package static func writeHead(
    title: String, databaseName: String, user: String? = nil, csrf: String? = nil,
    returnTo: String? = nil, to output: any TextOutput
  ) {
    let account: String
    if let user, let csrf {
      account =
        "<span class=\"user\">\(HTML.escape(user))</span> <a href=\"/-/tokens\">Agent tokens</a> <form class=\"inline\" method=\"post\" action=\"/-/logout\"><input type=\"hidden\" name=\"_csrf\" value=\"\(HTML.escape(csrf))\"><button type=\"submit\">Log out</button></form>"
    } else {
      // Logging in returns to the page it was asked from.
      let next = returnTo.map { "?" + HTML.query([("next", $0)]) } ?? ""
      account = "<a href=\"/-/login\(HTML.escape(next))\">Log in</a>"
    }
    output.write(
      """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(HTML.escape(title)) · \(HTML.escape(databaseName))</title>
      <link rel="stylesheet" href="/-/static/d2s.css">
      </head>
      <body>
      <header><a href="/">\(HTML.escape(databaseName))</a> <nav class="account">\(account)</nav></header>
      <main>

      """)
  }

  /// The document's end.
  package static func writeTail(to output: any TextOutput) {
    output.write("</main>\n</body>\n</html>\n")
  }

  /// Writes views as HTML, grouping consecutive property rows into one table.
  struct Writer {
    let links: WebLinks
    let output: any TextOutput
    var rows: [PropertyRowNode] = []
    /// The tabs written so far (their ids count on).
    var tabCount = 0

    /// The entity list: one item per entity the page links to its list, labelled as the page
    /// shows it.
    mutating func entityList(_ content: ViewNode) {
      output.write("<ul class=\"entities\">\n")
      for (label, action) in Self.links(in: content) {
        guard let path = links.path(of: action) else { continue }
        let text = TextLines.plain.lines(label).joined(separator: " ")
          .trimmingCharacters(in: .whitespaces)
        output.write("<li><a href=\"\(HTML.escape(path))\">\(HTML.escape(text))</a></li>\n")
      }
      output.write("</ul>\n")
    }

    /// The links of `node`, in order: what each shows and where it leads.
    static func links(in node: ViewNode) -> [(ViewNode, PageAction)] {
      switch node {
      case .link(let inner, let action): [(inner, action)]
      case .stack(let children), .line(let children, _): children.flatMap { links(in: $0) }
      case .tagged(_, let inner), .styled(_, let inner): links(in: inner)
      default: []
      }
    }

    mutating func write(_ node: ViewNode) throws {
      switch node {
      case .empty: break
      case .page(let inner):
        flushRows()
        output.write("<h2>\(HTML.escape(inner.title))</h2>\n")
        try write(inner.content)
      case .stack(let children):
        // A run of tabs gets its tab links and one container; the rest is written in order.
        var index = children.startIndex
        while index < children.endIndex {
          var tabs: [SectionNode] = []
          while index < children.endIndex, case .section(let section) = children[index],
            section.isTab
          {
            tabs.append(section)
            index += 1
          }
          if tabs.isEmpty {
            try write(children[index])
            index += 1
          } else {
            try writeTabs(tabs)
          }
        }
      case .section(let section):
        flushRows()
        try writeSection(section, id: nil)
      case .styled(_, let inner) where inner.isBlock:
        try write(inner)
      case .row(let row):
        rows.append(row)
      case .table(let table):
        flushRows()
        try writeTable(table)
      case .message(let text):
        flushRows()
        output.write("<p class=\"message\">\(HTML.escape(text))</p>\n")
      case .text(let text):
        flushRows()
        output.write("<p class=\"text\">\(HTML.escape(text))</p>\n")
      default:
        flushRows()
        output.write("<p>\(inline(node, key: nil))</p>\n")
      }
    }

    /// A section or tab: a fieldset with its legend in a form, else a section with its heading.
    mutating func writeSection(_ section: SectionNode, id: String?) throws {
      let kind = section.isTab ? "tab" : "section"
      let idAttribute = id.map { " id=\"\($0)\"" } ?? ""
      let inForm = links.form != nil
      if inForm {
        output.write(
          "<fieldset class=\"\(kind)\"\(idAttribute)><legend>\(HTML.escape(section.title))</legend>\n"
        )
      } else {
        output.write(
          "<section class=\"\(kind)\"\(idAttribute)><h2>\(HTML.escape(section.title))</h2>\n")
      }
      try write(section.content)
      flushRows()
      output.write(inForm ? "</fieldset>\n" : "</section>\n")
    }

    /// Tabs: links to each (`#tab-1`), then the tabs, of which the stylesheet shows the one
    /// linked to (the first at first); without CSS, all one below the other. A form with an
    /// error shows them all, so that no error is hidden. Every tab's fields are in the form.
    mutating func writeTabs(_ tabs: [SectionNode]) throws {
      flushRows()
      let first = tabCount + 1
      tabCount += tabs.count
      let ids = tabs.indices.map { "tab-\(first + $0)" }
      let names = zip(tabs, ids).map { tab, id in
        "<a href=\"#\(id)\">\(HTML.escape(tab.title))</a>"
      }
      output.write(
        "<nav class=\"tabs\" aria-label=\"Tabs\">\(names.joined(separator: " "))</nav>\n")
      let showsAll = links.form.map { !$0.errors.isEmpty || $0.message != nil } ?? false
      output.write(showsAll ? "<div>\n" : "<div class=\"tabbed\">\n")
      for (tab, id) in zip(tabs, ids) { try writeSection(tab, id: id) }
      output.write("</div>\n")
    }

    /// The actions of the page that are links on the web.
    func actions(_ actions: [PageAction]) {
      let linked = actions.compactMap { action in
        links.path(of: action).map { (action.command, $0) }
      }
      guard !linked.isEmpty else { return }
      output.write("<ul class=\"actions\">\n")
      for (command, path) in linked {
        output.write(
          "<li><a href=\"\(HTML.escape(path))\">\(HTML.escape(command))</a></li>\n")
      }
      output.write("</ul>\n")
    }

    /// The start of an edit form: its action, its CSRF token (and a new object's one-time
    /// token), a message above it, the inputs of a new object's key.
    func openForm(_ form: WebForm, validates: Bool = true) {
      if let message = form.message {
        output.write("<p class=\"error\" role=\"alert\">\(HTML.escape(message))</p>\n")
      }
      output.write(
        "<form class=\"edit\" method=\"post\" action=\"\(HTML.escape(form.action))\"\(validates ? "" : " novalidate")>"
          + "<input type=\"hidden\" name=\"_csrf\" value=\"\(HTML.escape(form.csrf))\">")
      if let once = form.once {
        output.write("<input type=\"hidden\" name=\"_once\" value=\"\(HTML.escape(once))\">")
      }
      output.write("\n")
      guard !form.keyFields.isEmpty else { return }
      output.write("<table class=\"properties\">\n")
      for field in form.keyFields {
        output.write(
          bytes: input(
            key: field.key, label: field.label, value: ShownValue(.null, text: ""), invalid: nil,
            form: form))
      }
      output.write("</table>\n")
    }

    /// An input for an edit field: the control its widget says, the text typed (or shown),
    /// the values first shown in hidden fields, a NULL checkbox for a nullable column, the
    /// error beside it.
    func input(key: String, label: String, value: ShownValue, invalid: String?, form: WebForm)
      -> [UInt8]
    {
      let id = "f-" + key
      let widget = form.widgets[key]
      let kind = widget?.kind ?? .text
      let current = widget?.value ?? value.value
      var shownText = form.shownText[key] ?? widget?.text ?? (current.isNull ? "" : value.text)
      if form.shownText[key] == nil {
        if kind == .checkbox { shownText = current == .bool(true) ? "true" : "false" }
        if kind == .dateTime, let input = DateInput.inputForm(shownText) { shownText = input }
      }
      let shownToken = form.shown[key] ?? PositionToken.encode([current], arrays: true) ?? "n"
      let text = form.typed[key] ?? shownText
      let isNull = form.typed[key] == nil ? current.isNull : form.nulls.contains(key)
      // The control's own attributes, written into it.
      var attributes = HTMLBytes(capacity: 256)
      attributes.append("id=\"")
      HTML.appendEscaped(id, to: &attributes)
      attributes.append("\" name=\"")
      HTML.appendEscaped(key, to: &attributes)
      attributes.append("\"")
      // A control that cannot be left empty (a number, a date, a choice, a to-one) of a
      // column that needs a value is required; text can be the empty text.
      let required = links.entity?.requiresValue(key) == true && kind.emptyIsNoValue
      if required { attributes.append(" required aria-required=\"true\"") }
      let error = form.errors[key] ?? invalid
      if error != nil {
        attributes.append(" aria-invalid=\"true\" aria-describedby=\"e-")
        HTML.appendEscaped(key, to: &attributes)
        attributes.append("\"")
      }
      var html = HTMLBytes(capacity: 1_024)
      html.append("<tr><th scope=\"row\"><label for=\"")
      HTML.appendEscaped(id, to: &html)
      html.append("\"")
      if required { html.append(" class=\"required\"") }
      html.append(">")
      HTML.appendEscaped(label, to: &html)
      html.append("</label>")
      html.append(unescaped: links.whyLink(key, label: label))
      html.append("</th><td>")
      FormControl.append(
        kind, attributes: attributes.take(), key: key, text: text, isNull: isNull,
        current: value.text, to: &html)
      // A long value is carried back by its digest (``FormDigest``).
      html.append("<input type=\"hidden\" name=\"_shown.")
      HTML.appendEscaped(key, to: &html)
      html.append("\" value=\"")
      HTML.appendEscaped(FormDigest.token(shownToken), to: &html, showingFormatCharacters: false)
      if shownText.hasPrefix(FormDigest.textMark) || shownText.utf8.count > FormDigest.wholeLimit {
        html.append("\"><input type=\"hidden\" name=\"_textsum.")
        HTML.appendEscaped(key, to: &html)
        html.append("\" value=\"")
        let sum =
          shownText.hasPrefix(FormDigest.textMark)
          ? String(shownText.dropFirst(FormDigest.textMark.count))
          : FormDigest.textDigest(shownText)
        HTML.appendEscaped(sum, to: &html)
      } else {
        html.append("\"><input type=\"hidden\" name=\"_text.")
        HTML.appendEscaped(key, to: &html)
        html.append("\" value=\"")
        HTML.appendEscaped(shownText, to: &html, showingFormatCharacters: false)
      }
      html.append("\">")
      if let entity = links.entity, entity.allowsNull(key) {
        html.append(" <label for=\"n-")
        HTML.appendEscaped(key, to: &html)
        html.append("\" class=\"null\"><input type=\"checkbox\" id=\"n-")
        HTML.appendEscaped(key, to: &html)
        html.append("\" name=\"_null.")
        HTML.appendEscaped(key, to: &html)
        html.append("\" aria-label=\"")
        HTML.appendEscaped(label, to: &html)
        html.append(": NULL\"")
        if isNull { html.append(" checked") }
        html.append("> NULL</label>")
      }
      if let error {
        html.append(" <span class=\"error\" id=\"e-")
        HTML.appendEscaped(key, to: &html)
        html.append("\">")
        HTML.appendEscaped(error, to: &html)
        html.append("</span>")
      }
      html.append("</td></tr>\n")
      return html.take()
    }

    /// The pending property rows as a table: labels as row headers.
    mutating func flushRows() {
      guard !rows.isEmpty else { return }
      output.write("<table class=\"properties\">\n")
      for row in rows {
        // A new object's key has its inputs above the others.
        if let form = links.form, form.keyFields.contains(where: { $0.key == row.key }) {
          continue
        }
        if let form = links.form, links.editable.contains(row.key),
          let field = row.content.editField
        {
          output.write(
            bytes: input(
              key: row.key, label: row.label, value: field.value, invalid: field.invalid, form: form
            ))
          continue
        }
        let label =
          row.style == .valueOnly
          ? "" : HTML.escape(row.label) + links.whyLink(row.key, label: row.label)
        output.write(
          "<tr><th scope=\"row\">\(label)</th><td>\(inline(row.content, key: row.key))</td></tr>\n"
        )
      }
      output.write("</table>\n")
      rows.removeAll()
    }

    /// A view inside a cell or paragraph: values escaped, links where the value leads
    /// somewhere (a to-one's object, a to-many's list, a URL).
    func inline(_ node: ViewNode, key: String?) -> String {
      switch node {
      case .empty: return ""
      case .value(let shown, _): return value(shown, key: key)
      case .text(let text), .message(let text): return HTML.escape(text)
      case .editField(let field): return value(field.value, key: key)
      case .tagged(_, let inner): return inline(inner, key: key)
      case .styled(let style, let inner):
        return HTML.styled(inline(inner, key: key), style)
      case .link(let inner, let action):
        let text = inline(inner, key: nil)
        guard let path = links.path(of: action) else { return text }
        return "<a href=\"\(HTML.escape(path))\">\(text)</a>"
      case .action(let action):
        guard let path = links.path(of: action) else { return "" }
        return "<a href=\"\(HTML.escape(path))\">\(HTML.escape(action.command))</a>"
      case .line(let items, let separator):
        // A to-many's count beside its `follow`: the count is the link.
        let follow = items.compactMap { item -> String? in
          if case .action(let action) = item { return links.path(of: action) }
          return nil
        }.first
        let shown = items.filter {
          if case .action = $0 { return false }
          return true
        }
        let text = shown.map { inline($0, key: follow == nil ? key : nil) }.joined(
          separator: HTML.escape(separator))
        guard let follow else { return text }
        return "<a href=\"\(HTML.escape(follow))\">\(text)</a>"
      case .stack(let children):
        return children.map { inline($0, key: key) }.joined(separator: "<br>")
      case .row(let row): return HTML.escape(row.label) + " " + inline(row.content, key: row.key)
      case .section(let section):
        return HTML.escape(section.title) + "<br>" + inline(section.content, key: key)
      case .table, .page: return ""
      }
    }

    /// A value: a link to its to-one's object, or to itself when it is a web URL.
    func value(_ shown: ShownValue, key: String?) -> String {
      value(shown, destination: key.flatMap(links.toOneDestination))
    }

    /// A value in a column whose cells link to `destination`'s objects (when not nil).
    func value(_ shown: ShownValue, destination: String?) -> String {
      var bytes = HTMLBytes(capacity: shown.text.utf8.count * 2 + 64)
      ListRowHTML.appendValue(
        shown.value, text: shown.text, destination: destination.map(ListRowHTML.pathPrefix),
        to: &bytes)
      return bytes.string
    }

    /// A table: headers that sort (for a list), rows whose first cell links to the object,
    /// then the total and the paging links.
    func writeTable(_ table: TableNode) throws {
      let list = links.list
      let linksRows = links.entity.map { !$0.primaryKeyAttributes.isEmpty } ?? false
      let whys = table.columns.map { links.whyLink($0.key, label: $0.label) }
      if let list {
        let example = table.columns.first?.key ?? "name"
        let sortable = links.sorts?(table.columns.map(\.key))
        let head = ListHead(
          list: list, example: example, columns: table.columns, sortable: sortable, whys: whys)
        output.write(
          bytes: ListHeads.bytes(head) {
            Self.filterForm(list, example: example)
              + Self.tableHead(table.columns, list: list, sortable: sortable, whys: whys)
          })
      } else {
        output.write(Self.tableHead(table.columns, list: nil, sortable: nil, whys: whys))
      }
      // Worked out once per column, not once per cell; each row written as bytes.
      var rowHTML = ListRowHTML(
        columns: table.columns, entity: linksRows ? links.entity?.name : nil,
        rowSuffix: links.rowSuffix,
        destinations: table.columns.map { links.toOneDestination($0.key) })
      try table.rows.stream { row in
        rowHTML.append(row)
        if rowHTML.pendingBytes >= Self.rowBytesPerWrite { output.write(bytes: rowHTML.takeRows()) }
      }
      if rowHTML.pendingBytes > 0 { output.write(bytes: rowHTML.takeRows()) }
      output.write("</tbody>\n</table>\n")
      switch table.summary {
      case .none: break
      case .hint(let text): output.write("<p class=\"hint\">\(HTML.escape(text))</p>\n")
      case .list(let summary):
        let shown = table.rows.count
        let total = try summary.total(shown)
        output.write(
          "<p class=\"total\">\(HTML.escape(Self.totalText(summary, shown, total)))</p>\n")
        if let list {
          let rows = summary.displayGroup?.shown
          let previous = list.previousURL(rows: rows)
          let next = list.nextURL(
            shown: shown, rows: rows, more: summary.displayGroup?.hasMore)
          if previous != nil || next != nil {
            output.write("<nav class=\"pager\" aria-label=\"Pages\">")
            if let previous {
              output.write("<a rel=\"prev\" href=\"\(HTML.escape(previous))\">Previous</a> ")
            }
            if let next { output.write("<a rel=\"next\" href=\"\(HTML.escape(next))\">Next</a>") }
            output.write("</nav>\n")
          }
          output.write(
            "<p class=\"download\"><a href=\"\(HTML.escape(list.csvURL))\" download>Download CSV</a> (every row, as stored)</p>\n"
          )
        }
        if summary.hasFacets {
          // The list first: its rows reach the browser while the facets are counted.
          output.flush()
          facets(try summary.facets(), list)
        }
      }
    }

    /// The facets: each value with its count, a link that narrows the list to it (on a list
    /// page); a chosen value with a link that removes it.
    func facets(_ facets: [Facet], _ list: WebListQuery?) {
      var html = "<aside class=\"facets\" aria-label=\"Facets\">\n"
      for facet in facets {
        html += "<section class=\"facet\"><h2>\(HTML.escape(facet.label))</h2>"
        let chosen = list?.chosenFacets.first { $0.key == facet.key }?.literal
        guard let values = facet.values else {
          html += "<p class=\"hint\">too slow to count</p></section>\n"
          continue
        }
        if values.isEmpty { html += "<p class=\"hint\">no values</p>" }
        html += "<ul>"
        for value in values {
          let text = HTML.escape(value.text)
          let count = "<span class=\"count\">\(value.count)</span>"
          if let list, value.literal == chosen {
            let remove = HTML.escape(list.unchooseURL(facet.key))
            html +=
              "<li class=\"chosen\"><strong>\(text)</strong> \(count) <a class=\"clear\" href=\"\(remove)\" aria-label=\"Remove \(HTML.escape(facet.label)): \(text)\">×</a></li>"
          } else if let list {
            let href = HTML.escape(list.chooseURL(facet.key, value.literal))
            html += "<li><a href=\"\(href)\">\(text)</a> \(count)</li>"
          } else {
            html += "<li>\(text) \(count)</li>"
          }
        }
        html += "</ul>"
        if facet.more { html += "<p class=\"hint\">and more</p>" }
        html += "</section>\n"
      }
      output.write(html + "</aside>\n")
    }

    /// How many bytes of a list's rows are written to the output at once.
    static let rowBytesPerWrite = 8_192

    /// The filter form: the qualifier, the order and the window size, each labelled; it
    /// starts the list anew.
    static func filterForm(_ list: WebListQuery, example key: String) -> String {
      func field(_ name: String, _ label: String, _ value: String, _ hint: String) -> String {
        // The filter's error beside it, the text as typed kept.
        let error = name == "where" ? list.filterError : nil
        let invalid =
          error == nil ? "" : " aria-invalid=\"true\" aria-describedby=\"e-\(name)\""
        let message =
          error.map {
            " <span class=\"error\" id=\"e-\(name)\" role=\"alert\">\(HTML.escape($0))</span>"
          } ?? ""
        return
          "<label for=\"f-\(name)\">\(label)<input id=\"f-\(name)\" name=\"\(name)\" value=\"\(HTML.formValue(value))\" placeholder=\"\(HTML.escape(hint))\"\(invalid)></label>\(message)"
      }
      // The search box: words, each beginning a word of the searched properties; it keeps
      // the filter and the order.
      var kept = ""
      for (name, value) in [("where", list.whereText), ("order", list.orderText)]
      where !value.isEmpty {
        kept +=
          "<input type=\"hidden\" name=\"\(name)\" value=\"\(HTML.formValue(value))\">"
      }
      return
        "<form class=\"search\" role=\"search\" method=\"get\" action=\"\(HTML.escape(list.path))\">"
        + "<label for=\"f-q\">Search<input id=\"f-q\" name=\"q\" type=\"search\" value=\"\(HTML.formValue(list.searchText))\"></label>"
        + kept + "<button type=\"submit\">Search</button>"
        // An entity's own list links to its query page (a control per property).
        + (list.path.utf8.dropFirst().contains(UInt8(ascii: "/"))
          ? ""
          : " <a class=\"query\" href=\"\(HTML.escape(list.path))/-/query\">More search options</a>")
        + (list.searchText.isEmpty
          ? ""
          : " <a class=\"clear\" href=\"\(HTML.escape(list.clearedURL(search: true)))\">Clear the search</a>")
        + "</form>\n"
        + "<form class=\"filter\" method=\"get\" action=\"\(HTML.escape(list.path))\">"
        + (list.searchText.isEmpty
          ? ""
          : "<input type=\"hidden\" name=\"q\" value=\"\(HTML.formValue(list.searchText))\">")
        + field("where", "Filter", list.whereText, "\(key) like 'A*'")
        + field("order", "Order by", list.orderText, "\(key) desc")
        + field("limit", "Rows", list.limit.map(String.init) ?? "", "\(list.window)")
        + "<button type=\"submit\">Apply</button>"
        + (list.whereText.isEmpty
          ? ""
          : " <a class=\"clear\" href=\"\(HTML.escape(list.clearedURL(search: false)))\">Clear the filter</a>")
        + "</form>\n"
    }

    /// The table's start and head: a column's label, with a link that sorts the list by it
    /// when it `sortable` says it sorts (on a list page), and its "why?" link.
    static func tableHead(
      _ columns: [TableColumn], list: WebListQuery?, sortable: Set<String>?, whys: [String]
    ) -> String {
      var html = "<table class=\"list\">\n<thead><tr>"
      for (index, column) in columns.enumerated() {
        let sort = list?.sortState(column.key).map { " aria-sort=\"\($0)\"" } ?? ""
        let numeric = column.rightAligned ? " class=\"num\"" : ""
        let label = HTML.escape(column.label)
        let why = index < whys.count ? whys[index] : ""
        if let list, !column.key.utf8.contains(UInt8(ascii: "@")),
          sortable?.contains(column.key) ?? true
        {
          html +=
            "<th scope=\"col\"\(sort)\(numeric)><a href=\"\(HTML.escape(list.sortURL(column.key)))\">\(label)</a>\(why)</th>"
        } else {
          html += "<th scope=\"col\"\(sort)\(numeric)>\(label)\(why)</th>"
        }
      }
      return html + "</tr></thead>\n<tbody>\n"
    }

    /// `21–40 of 16044 Rental`, as the terminal's footer without its REPL hint.
    static func totalText(_ summary: ListSummary, _ shown: Int, _ total: ListTotal) -> String {
      var plain = summary
      plain.hiddenKey = nil
      return plain.footer(shown: shown, total: total)
    }
  }
}
