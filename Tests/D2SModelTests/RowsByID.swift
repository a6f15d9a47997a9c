import D2SModel
import SQLiteAdaptor

/// An in-memory SQLite database made by `script`, and the rows of its `entity` in the order
/// of their integer `id`.
func rowsByID(script: String, entity: String) throws -> [DatabaseObject] {
  let adaptor = try SQLiteAdaptor(path: "sqlite::memory:")
  try adaptor.executeScript(script)
  let database = try Database(adaptor: adaptor)
  return try database.fetch(FetchSpecification(entityName: entity)).sorted {
    ($0.value(forKey: "id") as? Int ?? 0) < ($1.value(forKey: "id") as? Int ?? 0)
  }
}
