import D2SModel
import EnvKeys
import Qualifiers

extension ListRequest {
  /// The values of the row position `token` holds (``ListPosition/token``), read for this list
  /// of `entity` within `auxiliary` (a page's own filter): a position of this very list, with
  /// a value for each ordering and each primary key column. A value is compared as it is,
  /// whatever its column's type: SQLite keeps text in an INTEGER column, and its rows sort by
  /// such values too; PostgreSQL refuses a value that does not fit (a 400). A URL's `after=`
  /// and the REPL's `list … after TOKEN` read positions this way.
  ///
  /// - Throws: ``PositionTokenError`` when the token is no position of this list.
  public func position(
    _ token: String, of entity: Entity, auxiliary: Qualifier?, in model: Model
  ) throws -> [DatabaseValue] {
    guard !entity.primaryKeyAttributes.isEmpty else {
      throw PositionTokenError(message: "\(entity.name) has no key to page by")
    }
    let values = try ListPosition(token: token, in: identity(of: entity, auxiliary: auxiliary))
      .values
    let width = sortOrderings.count + entity.primaryKeyAttributes.count
    guard values.count == width else {
      throw PositionTokenError(
        message: "a position of this list has \(width) values, not \(values.count)")
    }
    return values
  }
}
