import Foundation

/// A database catalog as an adaptor reads it, before any naming: the input of
/// ``ModelBuilder``.
public struct Catalog: Sendable {
  public var tables: [Table]
  /// The schemas a bare table name is looked up in, in order (PostgreSQL's `search_path`);
  /// empty for databases without schemas. A table of the first keeps its bare name when two
  /// schemas have one of the same name.
  public var searchPath: [String]
  /// A catalog of `tables`, with the schemas of `searchPath` first.
  public init(tables: [Table], searchPath: [String] = []) {
    self.tables = tables
    self.searchPath = searchPath
  }

  /// The numbers of a declared type: `varchar(45)` → 45; `numeric(5,2)` → 5, 2.
  public static func widthAndScale(_ type: String) -> (Int?, Int?) {
    guard let open = type.firstIndex(of: "("), let close = type.lastIndex(of: ")"), open < close
    else { return (nil, nil) }
    // Trimmed by hand: Foundation's character sets cost a start-up's worth of set-up.
    let numbers = type[type.index(after: open)..<close].split(separator: ",").map { part in
      Int(String(part.filter { $0 != " " }))
    }
    return (numbers.first ?? nil, numbers.count > 1 ? numbers[1] : nil)
  }
}
