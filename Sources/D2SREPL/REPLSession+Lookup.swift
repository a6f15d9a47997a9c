import D2SModel
import EnvKeys
import Foundation
import Qualifiers

/// Names and keys typed by the user, resolved against the open database.
extension REPLSession {
  /// The open database, or an error saying how to open one.
  var database: Database {
    get throws {
      guard let database = context.database else {
        throw REPLError("no database is open (use `open DATABASE`)")
      }
      return database
    }
  }

  /// The entity `name` means (exactly, else without regard to case when unique).
  func entity(_ name: String) throws -> Entity {
    let model = try database.model
    if let entity = model.lookupEntity(name) { return entity }
    throw NameMatching.notFound("no entity named \(name)", name, among: model.entities.map(\.name))
  }

  /// A property name matched exactly, else case-insensitively when unique.
  func propertyName(_ name: String, in entity: Entity) throws -> String {
    let names = entity.attributes.map(\.name) + entity.relationships.map(\.name)
    if let match = NameMatching.match(name, among: names) { return match }
    // A column by its own name (backticked: `name with . and spaces`).
    if let column = NameMatching.match(name, among: entity.attributes.map(\.columnName)),
      let attribute = entity.attributes.first(where: { $0.columnName == column })
    {
      return attribute.name
    }
    throw NameMatching.notFound("\(entity.name) has no property '\(name)'", name, among: names)
  }

  /// The object of `entityName` whose primary key is `key` (one literal per key column).
  func fetch(_ entityName: String, _ key: [Literal]) throws -> DatabaseObject {
    let entity = try self.entity(entityName)
    let keys = entity.primaryKeyAttributes
    guard !keys.isEmpty else {
      throw REPLError("\(entity.name) has no primary key: list it instead")
    }
    guard keys.count == key.count else {
      // The form, with the key of a row that exists: `inspect FilmActor 1,1`.
      let example =
        (try? database.fetch(FetchSpecification(entityName: entity.name, limit: 1)))?.first.map {
          $0.primaryKeyValues.map { DatabaseValue.keyText($0) }.joined(separator: ",")
        } ?? keys.map { $0.name.uppercased() }.joined(separator: ",")
      throw REPLError(
        "\(entity.name) has a key of \(keys.count) values (\(keys.map(\.name).joined(separator: ", "))): "
          + "type them separated by commas, as in inspect \(entity.name) \(example)")
    }
    let values = try zip(keys, key).map { attribute, literal -> DatabaseValue in
      if case .string(let text) = literal, attribute.valueType == .int {
        if let number = Int(text) { return .int(number) }
        if text.drop(while: { $0 == "-" }).allSatisfy(\.isNumber), text.contains(where: \.isNumber)
        {
          throw REPLError(
            "\(text) is out of range for \(attribute.name) (a whole number of 64 bits)")
        }
      }
      return try DatabaseValue.coerce(literal, to: attribute)
    }
    guard let object = try database.fetchObject(entity.name, primaryKey: values) else {
      let shown = key.map { if case .string(let s) = $0 { s } else { $0.description } }.joined(
        separator: ",")
      throw REPLError("no \(entity.name) with \(keys.count == 1 ? keys[0].name : "key") \(shown)")
    }
    return object
  }
}
