import Foundation

/// A database catalog as an adaptor reads it, before any naming: the input of
/// ``ModelBuilder``.
public struct Catalog: Sendable {
  /// The tables and views, each with its columns and keys.
  public var tables: [Table]
  /// The schemas a bare table name is looked up in, in order (PostgreSQL's `search_path`);
  /// empty for databases without schemas. A table of the first keeps its bare name when two
  /// schemas have one of the same name.
  public var searchPath: [String]
  /// A view's columns, read when its entity is first asked for them (SQLite compiles a view to
  /// name its columns, most of a catalog's cost); nil when every table's and view's columns
  /// are in ``tables``. The reader gives none for a view SQLite can no longer compile (over a
  /// table dropped since), and nil when the columns cannot be read now (a lock held past the
  /// busy timeout): the view's entity has none until a later ask reads them.
  public var viewColumns: (@Sendable (_ view: String) -> [Column]?)?
  /// The tables and views with their columns, keys and full-text indexes, read when the
  /// model first needs any of them; nil when ``tables`` hold them. When set, ``tables`` only
  /// name the tables and views (and say which are internal), and a start that lists the
  /// entities reads no more. A table it does not return (dropped since) has no columns. Nil
  /// from the reader: the catalog cannot be read now (a lock held past the busy timeout);
  /// the entities have no columns until a later ask reads it.
  public var details: (@Sendable () -> [Table]?)?
  /// A catalog of `tables`, with the schemas of `searchPath` first.
  public init(tables: [Table], searchPath: [String] = []) {
    self.tables = tables
    self.searchPath = searchPath
  }

  /// The numbers of a declared type: `varchar(45)` → 45; `numeric(5,2)` → 5, 2. Each part
  /// between the parentheses reads as `Int(_:)` reads it once spaces are removed.
  public static func widthAndScale(_ type: String) -> (Int?, Int?) {
    let bytes = type.utf8
    guard let open = bytes.firstIndex(of: UInt8(ascii: "(")),
      let close = bytes.lastIndex(of: UInt8(ascii: ")")), open < close
    else { return (nil, nil) }
    // By byte: splitting and trimming strings cost more than the rest of a column's reading.
    var numbers: [Int?] = []
    var part = NumberPart()
    for byte in bytes[bytes.index(after: open)..<close] {
      if byte == UInt8(ascii: ",") {
        numbers.append(part.value)
        part = NumberPart()
      } else if byte != UInt8(ascii: " ") {
        part.read(byte)
      }
    }
    numbers.append(part.value)
    return (numbers[0], numbers.count > 1 ? numbers[1] : nil)
  }

  /// One comma-separated part of a declared type's numbers, read a byte at a time.
  private struct NumberPart {
    var magnitude = 0
    var negative = false
    var digits = 0
    var valid = true
    var signed = false

    mutating func read(_ byte: UInt8) {
      guard valid else { return }
      if digits == 0, !signed, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
        signed = true
        negative = byte == UInt8(ascii: "-")
        return
      }
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
        valid = false
        return
      }
      let digit = Int(byte - UInt8(ascii: "0"))
      let (times, overflowA) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, overflowB) =
        negative ? times.subtractingReportingOverflow(digit) : times.addingReportingOverflow(digit)
      guard !overflowA, !overflowB else {
        valid = false
        return
      }
      magnitude = sum
      digits += 1
    }

    var value: Int? { valid && digits > 0 ? magnitude : nil }
  }
}
