import D2SApplication
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

  /// The names of the open database as a person at a terminal types them: every property,
  /// but no entity the rules make unreachable (``ModelNames``).
  var names: ModelNames {
    get throws {
      _ = try database
      return ModelNames(context: context)
    }
  }

  /// The entity `name` means (exactly, else without regard to case when unique), when the
  /// rules let it be reached.
  func entity(_ name: String) throws -> Entity {
    try names.entity(name)
  }

  /// A property name matched exactly, else case-insensitively when unique, else a column's.
  func propertyName(_ name: String, in entity: Entity) throws -> String {
    try names.property(name, of: entity)
  }

  /// `path` from `entity` with each property name matched: through relationships up to an
  /// attribute; what follows an attribute, and `@` operators, are left as typed.
  func matchedPath(_ path: KVCPath, from entity: Entity) throws -> KVCPath {
    try names.path(path, from: entity)
  }

  /// `qualifier` with every key path matched against `entity`.
  func matchedQualifier(_ qualifier: Qualifier, from entity: Entity) throws -> Qualifier {
    try names.qualifier(qualifier, from: entity)
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
        "\(entity.name) has a key of \(keys.count) value\(keys.count == 1 ? "" : "s") (\(keys.map(\.name).joined(separator: ", "))): "
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
      // A number as typed (`1.50`, `1e3`) for a numeric key.
      if case .string(let text) = literal, [.int, .decimal, .double].contains(attribute.valueType),
        let number = try? QualifierParser.parseLiteral(text)
      {
        switch number {
        case .int, .decimal: return try DatabaseValue.coerce(number, to: attribute)
        default: break
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
