import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

/// `task = 'login'`: who may log in, and how.
struct LoginPage: D2SView {
  @Environment(\.entity) var entity
  @Environment(\.user) var user
  var body: some D2SView {
    if let entity, let login = UserEntity.loginAttribute(of: entity) {
      if let user {
        Message("logged in as \(user.displayDescription)")
      } else {
        Message("log in as a \(entity.name) by \(login.name): login USER PASSWORD")
      }
    } else {
      Message("no user entity: nobody can log in")
    }
  }
}

/// `task = 'select'`: the candidates for a to-one relationship (`relationship`) of the object
/// being edited, the current one marked.
struct SelectPage: PrimitiveView {
  func node(in scope: ViewScope) throws -> ViewNode {
    let context = scope.context
    let list = scope.environment.list
    guard let database = context.database, let relationship = context.relationship,
      !relationship.isToMany,
      let destination = database.model.entity(named: relationship.destinationName)
    else {
      return .message("error: nothing to choose (choose a to-one relationship while editing)")
    }
    let current = try context.object?.related(relationship.name)
    let candidates = try database.fetch(
      FetchSpecification(
        entityName: destination.name, qualifier: list.qualifier, sortOrderings: list.sortOrderings,
        limit: list.limit, offset: list.offset == 0 ? nil : list.offset))
    var child = context
    child.relationship = nil
    let rows = candidates.map { candidate -> TableRow in
      let mark = candidate.primaryKeyValues == current?.primaryKeyValues ? "*" : " "
      let title = ValueText.title(of: candidate, child)
      let key = candidate.primaryKeyValues
      return TableRow(
        key: candidate.primaryKeyValues,
        cells: [
          ShownValue(
            key.count == 1 ? key[0] : .array(key.map(\.description)),
            text: mark + " " + candidate.primaryKeyDescription),
          ShownValue(.string(title), text: title),
        ])
    }
    let columns = [
      TableColumn(
        key: destination.primaryKeyAttributeNames.joined(separator: ","),
        label: "  " + destination.primaryKeyAttributeNames.joined(separator: ","), component: "Key"),
      TableColumn(key: "title", label: destination.name, component: "Title"),
    ]
    return .table(
      TableNode(
        columns: columns, rows: RowSource(rows),
        summary: .hint(hint(relationship.name, example: candidates.first))))
  }

  /// `set it with: object.manager = KEY`, with the first candidate's key as it is typed
  /// (a uuid bare, text quoted) when the key is one column.
  private func hint(_ name: String, example: DatabaseObject?) -> String {
    let hint = "set it with: object.\(name) = KEY"
    guard let key = example?.primaryKeyValues, key.count == 1 else { return hint }
    if case .data = key[0] { return hint }
    return hint + " (e.g. object.\(name) = \(DatabaseValue.keyText(key[0])))"
  }
}
