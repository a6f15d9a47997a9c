import D2SModel
import EnvKeys
import Qualifiers
import RuleCore

/// `task = 'login'`: who may log in, and how.
struct LoginPage: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    guard let entity = context.entity, let login = UserEntity.loginAttribute(of: entity) else {
      return ["no user entity: nobody can log in"]
    }
    if let user = context.user { return ["logged in as \(user.displayDescription)"] }
    return ["log in as a \(entity.name) by \(login.name): login USER PASSWORD"]
  }
}

/// `task = 'select'`: the candidates for a to-one relationship (`relationship`) of the object
/// being edited, the current one marked.
struct SelectPage: D2SComponent {
  func render(in context: RuleContext, _ environment: RenderEnvironment) throws -> [String] {
    guard let database = context.database, let relationship = context.relationship, !relationship.isToMany,
      let destination = database.model.entity(named: relationship.destinationName)
    else { return ["error: nothing to choose (choose a to-one relationship while editing)"] }
    let current = try context.object?.related(relationship.name)
    let candidates = try database.fetch(
      FetchSpecification(
        entityName: destination.name, qualifier: environment.list.qualifier, sortOrderings: environment.list.sortOrderings,
        limit: environment.list.limit, offset: environment.list.offset == 0 ? nil : environment.list.offset))
    var child = context
    child.relationship = nil
    let rows = candidates.map { candidate -> [String] in
      let mark = candidate.primaryKeyValues == current?.primaryKeyValues ? "*" : " "
      return [mark + " " + candidate.primaryKeyDescription, ValueText.title(of: candidate, child)]
    }
    var lines = Table(headers: ["  " + destination.primaryKeyAttributeNames.joined(separator: ","), destination.name], rightAligned: [false, false], rows: rows)
      .lines(width: environment.width)
    lines.append("set it with: object.\(relationship.name) = KEY")
    return lines
  }
}
