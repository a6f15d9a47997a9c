import D2SModel
import EnvKeys
import Qualifiers

extension ListRequest {
  /// The values of the row position `token` holds (``ListPosition/token``), read for this list
  /// of `entity` within `auxiliary` (a page's own filter): a position of this very list, with
  /// a value for each ordering and each primary key column, each fitting its column. A URL's
  /// `after=` and the REPL's `list … after TOKEN` read positions this way.
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
    let types =
      sortOrderings.map {
        (try? PropertyPath($0.keyPath, from: entity, in: model))?.attribute?.valueType
      } + entity.primaryKeyAttributes.map { Optional($0.valueType) }
    for (value, type) in zip(values, types) where !Self.position(value, fits: type) {
      throw PositionTokenError(message: "a value of the position does not fit its column")
    }
    return values
  }

  /// Whether a position's `value` can be compared with a column of `type` (nil: any).
  static func position(_ value: DatabaseValue, fits type: Attribute.ValueType?) -> Bool {
    guard let type else { return true }
    switch (type, value) {
    case (_, .null), (_, .verbatim): return true
    // Positions read back from a database may come as text, which it converts to the column's
    // type when it compares; such text must read as that type.
    case (.int, .string(let text)): return Int(text) != nil
    case (.double, .string(let text)), (.decimal, .string(let text)): return Double(text) != nil
    case (.bool, .string(let text)):
      return ["t", "f", "true", "false", "0", "1"].contains(text.lowercased())
    case (.date, .string), (.data, .string), (.array, .string): return true
    case (.int, .int), (.string, .string), (.bool, .bool), (.date, .date), (.data, .data):
      return true
    case (.double, .double), (.double, .int), (.double, .decimal): return true
    case (.decimal, .decimal), (.decimal, .int), (.decimal, .double): return true
    case (.bool, .int): return true
    default: return false
    }
  }
}
