import Components
import D2SApplication
import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

/// Navigation: opening a database and moving between pages.
extension REPLSession {
  /// `open DATABASE`: an SQLite file (or `sqlite:PATH`) or a PostgreSQL URL or conninfo.
  func open(_ target: String) throws -> String {
    try leaveEditing()
    let database: Database
    if let opening, opening.target == target, opening.readOnly == readOnly {
      self.opening = nil
      database = try app.open(opening)
    } else {
      database = try app.open(target, readOnly: readOnly)
    }
    list = ListRequest()
    return "opened \(database.name): \(database.model.entities.count) entities"
  }

  /// The `firstTask` page (`query`, or `login` when a rule says so), shown at start.
  public func firstPage() throws -> String {
    try navigate(task: context.firstTask, entity: nil, object: nil)
    return try render()
  }

  /// `entities`: the query page; with `all`, internal tables (`sqlite_sequence`, full-text
  /// shadow tables) are listed too.
  func entities(all: Bool = false) throws -> String {
    try leaveEditing()
    try navigate(task: "query", entity: nil, object: nil)
    guard all else { return try render() }
    let visible = context
    context.visibleEntityNames = try database.model.entities.map(\.name).sorted()
    defer { context = visible }
    return try render()
  }

  /// Throws when a path of `qualifier` or `orderings` crosses more to-many relationships than
  /// ``maximumToManyHops`` allows.
  func requireHops(_ qualifier: Qualifier?, _ orderings: [SortOrdering], from entity: Entity)
    throws
  {
    guard let limit = maximumToManyHops else { return }
    let model = try database.model
    let paths =
      (qualifier?.keyPaths.map(\.components) ?? [])
      + orderings.map { $0.keyPath.split(separator: ".").map(String.init) }
    for path in paths where model.toManyHops(path, from: entity) > limit {
      throw REPLError(
        "\(path.joined(separator: ".")) crosses \(model.toManyHops(path, from: entity)) to-many relationships; --max-to-many-hops allows \(limit)"
      )
    }
  }

  /// `list ENTITY …`, with the clauses' property names matched against the model.
  func listPage(_ entityName: String, _ clauses: ListClauses) throws -> String {
    try leaveEditing()
    let entity = try self.entity(entityName)
    // A search adds its words to the filter, over the properties the rules search.
    var searchContext = context
    searchContext.entity = entity
    searchContext.task = "list"
    let keys = try searchContext.searchKeys.map {
      try matchedPath(KVCPath($0), from: entity).description
    }
    // Through the entity's full-text index when it holds the searched columns, ranked.
    let (search, fullText) = SearchText(clauses.search ?? "").conditions(keys: keys, of: entity)
    let typed = try clauses.qualifier.map { try matchedQualifier($0, from: entity) }
    let filter: Qualifier? =
      switch (typed, search) {
      case (let typed?, let search?): .and([typed, search])
      case (let typed, nil): typed
      case (nil, let search): search
      }
    var request = ListRequest(
      qualifier: filter,
      sortOrderings: try clauses.orderings.map {
        SortOrdering(
          try matchedPath(CommandParser.keyPath($0.keyPath), from: entity).description,
          ascending: $0.ascending)
      },
      limit: clauses.limit ?? defaultLimit, offset: clauses.offset ?? 0,
      columns: try clauses.columns.map {
        try matchedPath(CommandParser.keyPath($0), from: entity).description
      })
    request.fullText = fullText
    try requireHops(request.qualifier, request.sortOrderings, from: entity)
    if let token = clauses.after ?? clauses.before {
      let database = try self.database
      let values = try request.position(token, of: entity, auxiliary: nil, in: database.model)
      if clauses.after != nil {
        request.keyset = .after(values)
      } else {
        guard request.limit != nil else { throw REPLError("before POSITION needs a limit") }
        let rows = DisplayGroup.Rows(database: database, entity: entity, auxiliary: nil)
        // No row before the position: the list's first window.
        request =
          try DisplayGroup.window(
            endingBefore: values, of: request, numberedFrom: request.offset, in: rows)
          ?? ListRequest(
            qualifier: request.qualifier, sortOrderings: request.sortOrderings,
            limit: request.limit, columns: request.columns)
        request.fullText = fullText
      }
    }
    try navigate(task: "list", entity: entity, object: nil)
    list = request
    return try render()
  }

  /// `position`: the clauses that list the windows before and after the one shown, from the
  /// positions of its first and last rows (`offset 20 after TOKEN`): a transcript can go on
  /// from there, as a URL's `after=` does.
  func position() throws -> String {
    guard context.task == "list", let entity = context.entity,
      let group = shownList.flatMap({ showsList($0) ? $0 : nil })
    else { throw REPLError("no list shown to take positions from (list first)") }
    // A list without a limit is shown whole, in one window.
    guard list.limit != nil else {
      throw REPLError("the list is shown whole (no limit): it has no other window")
    }
    guard let shown = group.shown else {
      throw REPLError("\(entity.name)'s rows have no positions (no primary key, or no rows)")
    }
    let identity = list.identity(of: entity, auxiliary: context.auxiliaryQualifier)
    var lines: [String] = []
    if let limit = list.limit,
      let previous = shown.previous(
        offset: list.offset, limit: limit, positioned: list.keyset != nil, in: identity)
    {
      lines.append("offset \(previous.offset) before \(previous.token)")
    }
    if let next = shown.next(offset: list.offset, in: identity) {
      lines.append("offset \(next.offset) after \(next.token)")
    }
    guard !lines.isEmpty else { throw REPLError("the list has no other window") }
    return lines.joined(separator: "\n")
  }

  /// `count ENTITY [where QUALIFIER]`: the exact number, alone on its line (Ctrl-C stops it).
  func count(_ entityName: String, _ qualifier: Qualifier?) throws -> String {
    let entity = try self.entity(entityName)
    let matched = try qualifier.map { try matchedQualifier($0, from: entity) }
    try requireHops(matched, [], from: entity)
    let specification = FetchSpecification(entityName: entity.name, qualifier: matched)
    return String(try database.count(specification))
  }

  /// `facets ENTITY [where QUALIFIER] by KEY, …`: each key's values among the rows and their
  /// counts, counted to the end (Ctrl-C stops them); JSON as the web's `facets` member.
  func facets(_ entityName: String, _ qualifier: Qualifier?, _ keys: [String]) throws -> String {
    let entity = try self.entity(entityName)
    let matched = try qualifier.map { try matchedQualifier($0, from: entity) }
    try requireHops(matched, [], from: entity)
    let names = try keys.map {
      try matchedPath(CommandParser.keyPath($0), from: entity).description
    }
    var listContext = context
    listContext.entity = entity
    listContext.task = "list"
    let plan = FacetPlan(keys: names, context: listContext)
    for key in names where !plan.keys.contains(key) {
      throw REPLError(
        "\(key) cannot be counted (an attribute, or a to-one whose key is one column)")
    }
    guard names.count <= FacetPlan.facetLimit else {
      throw REPLError("at most \(FacetPlan.facetLimit) facets at once")
    }
    let facets = try plan.facets(
      of: entity, qualifier: matched, in: try database, budget: .seconds(24 * 3600),
      environment: application.environment(for: PageRequest(width: width)))
    if printsJSON {
      renderedPage = true
      return JSONText.object([
        ("entity", JSONText.string(entity.name)),
        ("facets", JSONText.array(facets.map(JSONRenderer.facet))),
      ])
    }
    var lines: [String] = []
    for facet in facets {
      if !lines.isEmpty { lines.append("") }
      lines.append(TerminalText.escaped(facet.label))
      let values = facet.values ?? []
      let width = values.map { TextWidth.of(TerminalText.escaped($0.text)) }.max() ?? 0
      for value in values {
        let text = TerminalText.escaped(value.text)
        lines.append(
          "  " + text + String(repeating: " ", count: max(0, width - TextWidth.of(text)))
            + "  \(value.count)")
      }
      if values.isEmpty { lines.append("  (no rows)") }
      if facet.more { lines.append("  … (more values)") }
    }
    return lines.joined(separator: "\n")
  }

  /// `query ENTITY`: the query form's fields, each with its control and operators (a choice's
  /// values after `is`), as the web's query page has them; its JSON with `--format json`.
  func queryForm(_ entityName: String) throws -> String {
    var query = context
    query.entity = try self.entity(entityName)
    let form = try QueryForm(context: query)
    if printsJSON {
      renderedPage = true
      return form.json
    }
    let width = form.fields.map { TextWidth.of(TerminalText.escaped($0.label)) }.max() ?? 0
    var lines = [
      "Query \(form.entity)  (the filter it makes is a where clause: list \(form.entity) where …)"
    ]
    for field in form.fields {
      let label = TerminalText.escaped(field.label)
      let padding = String(repeating: " ", count: max(0, width - TextWidth.of(label)))
      let detail: String
      switch field.control {
      case .text: detail = "text: " + field.control.operators.joined(separator: ", ")
      case .range(let date): detail = (date ? "date" : "number") + ": from, to"
      case .choice(let choices):
        let shown = choices.prefix(8).map { TerminalText.escaped($0.text) }
        detail =
          "is one of: " + shown.joined(separator: ", ") + (choices.count > 8 ? ", …" : "")
      }
      lines.append("  \(label)\(padding)  \(field.path)  \(detail)")
    }
    return lines.joined(separator: "\n")
  }

  /// `next` (1) and `prev` (-1): the window after the last row shown, or before the first,
  /// found by the rows' positions (keyset paging), so page k costs what page 1 costs and
  /// rows inserted or deleted meanwhile neither repeat nor skip others. Lists whose pages
  /// recorded no positions (no primary key, a look's own fetch) move by offset.
  func page(by direction: Int) throws -> String {
    guard context.task == "list", let limit = list.limit, limit > 0, context.entity != nil
    else {
      throw REPLError("no paged list to move in (list with a limit first)")
    }
    // The last page's display group knows where its window began and ended, when it showed
    // this list; without one (a look's own list) a new group moves by offset.
    let group =
      try shownList.flatMap { showsList($0) ? $0 : nil }
      ?? DisplayGroup(context: context, request: list)
    if direction < 0 {
      guard let previous = try group.previous() else {
        throw REPLError("already at the first page")
      }
      list = previous
    } else {
      guard let next = try group.next() else {
        throw REPLError("already at the last page")
      }
      list = next
    }
    return try render()
  }

  /// Whether `group` read the session's list: its entity, filter, orderings and window.
  private func showsList(_ group: DisplayGroup) -> Bool {
    guard let entity = context.entity, group.entity === entity, group.offset == list.offset,
      group.request.keyset == list.keyset, group.request.limit == list.limit
    else { return false }
    return group.request.identity(of: group.entity, auxiliary: group.rows.auxiliary)
      == list.identity(of: entity, auxiliary: context.auxiliaryQualifier)
  }

  /// `inspect ENTITY KEY`.
  func inspect(_ entityName: String, _ key: [Literal]) throws -> String {
    try leaveEditing()
    let object = try fetch(entityName, key)
    try navigate(task: "inspect", entity: object.entity, object: object)
    return try render()
  }

  /// `follow RELATIONSHIP` from an inspected object: a to-many lists, a to-one inspects.
  func follow(_ name: String) throws -> String {
    guard context.task == "inspect", let object = context.object else {
      throw REPLError("follow works from an inspected object")
    }
    try leaveEditing()
    let property = try propertyName(name, in: object.entity)
    guard let relationship = object.entity.relationship(named: property) else {
      throw REPLError("\(property) is not a relationship")
    }
    if relationship.isToMany {
      guard let destination = try database.model.entity(named: relationship.destinationName) else {
        throw REPLError("no destination")
      }
      let qualifier = try database.qualifier(for: relationship, of: object)
      try navigate(task: "list", entity: destination, object: nil, auxiliary: qualifier)
      followedTitle = context.title(ofRelationship: property, of: object)
      list = ListRequest(limit: defaultLimit)
      return try render()
    }
    guard let target = try object.related(property) else {
      throw REPLError("\(object.entity.name) \(object.primaryKeyDescription) has no \(property)")
    }
    try navigate(task: "inspect", entity: target.entity, object: target)
    return try render()
  }

  /// `render`: the page again, with the shown object read again (unless it is being edited).
  func rerender() throws -> String {
    if editing == nil, let object = context.object, !object.isNew,
      !object.entity.primaryKeyAttributeNames.isEmpty
    {
      guard
        let fresh = try database.fetchObject(
          object.entity.name, primaryKey: object.primaryKeyValues)
      else {
        throw REPLError("\(object.entity.name) \(object.primaryKeyDescription) no longer exists")
      }
      context.object = fresh
    }
    return try render()
  }

  // MARK: - Pages

  /// Moves the session to a page: task, entity and object overwritten, the to-many filter cleared.
  func navigate(task: String, entity: Entity?, object: DatabaseObject?, auxiliary: Qualifier? = nil)
    throws
  {
    var next = context
    next.task = task
    if let entity { next.entity = entity } else { next.removeValue(for: D2SKeys.EntityKey.self) }
    if let object { next.object = object } else { next.removeValue(for: D2SKeys.Object.self) }
    if let auxiliary {
      next.auxiliaryQualifier = auxiliary
    } else {
      next.removeValue(for: D2SKeys.AuxiliaryQualifier.self)
    }
    context = next
    shownList = nil
    followedTitle = nil
  }

  /// What pages are rendered from: the session's context and its registries.
  var application: PageApplication {
    PageApplication(base: context, looks: looks, formatters: formatters, renderers: renderers)
  }

  /// The page for the context, through the one page function. A rule error met while
  /// rendering (a cycle) fails the command instead of showing defaults.
  func render() throws -> String {
    renderedPage = true
    shownList = nil
    var request = PageRequest(list: list, width: width)
    request.csv = csv
    request.title = followedTitle
    if let pageOutput {
      // Straight to the output as rows are rendered: nothing is returned to print. Only
      // here do styles reach the terminal as ANSI codes (returned text is printed escaped).
      request.styles = styles
      defer { pageOutput.flush() }
      try pageOutput.page {
        shownList = try application.render(request, to: pageOutput).displayGroup
      }
      return ""
    }
    let output = StringOutput()
    shownList = try application.render(request, to: output).displayGroup
    return String(output.text.dropLast())
  }
}
