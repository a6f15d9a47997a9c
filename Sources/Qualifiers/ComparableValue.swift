import EnvKeys
import Foundation

/// A value normalised for comparison: numbers of any width and representation compare by
/// value, strings with substrings, model objects by their stand-in (an entity by its name).
public enum ComparableValue {
  case null
  case bool(Bool)
  case int(Int64)
  case decimal(Decimal)
  case double(Double)
  case string(String)
  case date(Date)
  case list([Any?])
  case other(Any)

  /// Normalises any value (literal values included).
  public init(_ value: Any?) {
    guard var value = KVC.unwrap(value) else {
      self = .null
      return
    }
    // A list (a to-many key path's values) is taken for what it is before any protocol cast:
    // a failed cast searches the runtime's conformance tables, each time for a new type.
    if KVC.isArray(value), let list = value as? [Any] {
      self = .list(list)
      return
    }
    let plain = KVC.isPlainValue(value)
    if !plain, let databaseValue = value as? DatabaseValue {
      self = ComparableValue(databaseValue)
      return
    }
    if !plain, let standIn = value as? any QualifierComparable {
      guard let inner = KVC.unwrap(standIn.qualifierComparisonValue) else {
        self = .null
        return
      }
      value = inner
    }
    switch value {
    case let s as String: self = .string(s)
    case let b as Bool: self = .bool(b)
    case let i as Int: self = .int(Int64(i))
    case let d as Decimal: self = .decimal(d)
    case let d as Double: self = .double(d)
    case let f as Float: self = .double(Double(f))
    case let i as any BinaryInteger:
      if let small = Int64(exactly: i) {
        self = .int(small)
      } else {
        self = .decimal(Decimal(string: "\(i)") ?? 0)
      }
    case let s as Substring: self = .string(String(s))
    case let d as Date: self = .date(d)
    case let l as Literal: self = DatabaseValue(literal: l).map(ComparableValue.init) ?? .other(l)
    case let list as [Any]: self = .list(list)
    default: self = .other(value)
    }
  }

  /// Normalises a database value without a trip through `Any`: a blob and a verbatim value
  /// compare only with an equal one, an array and a list item by item.
  public init(_ value: DatabaseValue) {
    switch value {
    case .null: self = .null
    case .bool(let b): self = .bool(b)
    case .int(let i): self = .int(Int64(i))
    case .decimal(let d): self = .decimal(d)
    case .double(let d): self = .double(d)
    case .string(let s): self = .string(s)
    case .date(let d): self = .date(d)
    // As key-value coding gives them: a blob as its `Data`, a verbatim value as itself.
    case .data(let data): self = .other(data)
    case .verbatim, .textBytes: self = .other(value)
    case .array(let items): self = .list(items.map { $0.map { DatabaseValue.string($0) } ?? .null })
    case .list(let items): self = .list(items)
    }
  }

  /// The number as a `Decimal`, for mixed comparisons.
  var decimalValue: Decimal? {
    switch self {
    case .int(let i): Decimal(i)
    case .decimal(let d): d.isNaN ? nil : d
    case .double(let d): d.isFinite ? Decimal(string: "\(d)") : nil
    default: nil
    }
  }

  var isNumber: Bool {
    switch self {
    case .int, .decimal, .double: true
    default: false
    }
  }
}

/// Value-based comparison used by in-memory qualifier evaluation: `1 = 1.0`, integer widths
/// compare, `nil = nil`, `nil` sorts first; a Boolean is 0 or 1 and a date equals its ISO
/// text, as a fetch converts a constant for its column; no other string↔number equality.
public enum ValueComparison {
  /// Whether two values are equal by value.
  public static func equal(_ a: Any?, _ b: Any?) -> Bool {
    compare(ComparableValue(a), ComparableValue(b)) == .orderedSame
  }

  /// The order of two values, or nil when they cannot be ordered (different kinds).
  public static func compare(_ a: Any?, _ b: Any?) -> ComparisonResult? {
    compare(ComparableValue(a), ComparableValue(b))
  }

  static func order<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult {
    x < y ? .orderedAscending : (x == y ? .orderedSame : .orderedDescending)
  }

  /// The order of two normalised values, or nil when they cannot be ordered.
  public static func compare(_ a: ComparableValue, _ b: ComparableValue) -> ComparisonResult? {
    switch (a, b) {
    case (.null, .null): return .orderedSame
    case (.null, _): return .orderedAscending
    case (_, .null): return .orderedDescending
    case (.bool(let x), .bool(let y)):
      return x == y ? .orderedSame : (x ? .orderedDescending : .orderedAscending)
    case (.int(let x), .int(let y)): return order(x, y)
    case (.double(let x), .double(let y)): return x.isNaN || y.isNaN ? nil : order(x, y)
    case (.string(let x), .string(let y)): return order(x, y)
    case (.date(let x), .date(let y)): return order(x, y)
    // As a fetch converts a constant to its column's type: a date with its ISO text
    // (`object.due < '2024-01-01'`), a Boolean with 0 or 1 (`object.active = 1`).
    case (.date(let x), .string(let y)):
      return ISODateText.parse(y).map { order(x, $0) }
    case (.string(let x), .date(let y)):
      return ISODateText.parse(x).map { order($0, y) }
    case (.bool(let x), _) where b.isNumber: return compare(.int(x ? 1 : 0), b)
    case (_, .bool(let y)) where a.isNumber: return compare(a, .int(y ? 1 : 0))
    case (.list(let x), .list(let y)):
      for (l, r) in zip(x, y) {
        guard let o = compare(l, r) else { return nil }
        if o != .orderedSame { return o }
      }
      return order(x.count, y.count)
    case (.other(let x), .other(let y)):
      if let hx = x as? AnyHashable, let hy = y as? AnyHashable, hx == hy { return .orderedSame }
      if type(of: x) is AnyClass, type(of: y) is AnyClass, (x as AnyObject) === (y as AnyObject) {
        return .orderedSame
      }
      return nil
    default:
      guard a.isNumber, b.isNumber, let x = a.decimalValue, let y = b.decimalValue else {
        return nil
      }
      return order(x, y)
    }
  }

  /// A hashable key with `indexKey(a) == indexKey(b)` exactly when `equal(a, b)`, for the
  /// value kinds that can be indexed (nil, Booleans, numbers, strings); nil otherwise (a date,
  /// which equals texts no key names, a list).
  public static func indexKey(_ value: Any?) -> IndexKey? {
    indexKey(ComparableValue(value))
  }

  /// The index key of a normalised value.
  public static func indexKey(_ value: ComparableValue) -> IndexKey? {
    switch value {
    case .null: return .null
    // A Boolean equals 0 or 1 (``compare(_:_:)-(ComparableValue,ComparableValue)``).
    case .bool(let b): return .int(b ? 1 : 0)
    case .int(let i): return .int(i)
    case .string(let s): return .string(s)
    // A date equals its text too, which no key can say: none, so every rule is tried.
    case .date: return nil
    case .decimal, .double:
      guard let d = value.decimalValue else { return nil }
      var source = d
      var rounded = Decimal()
      NSDecimalRound(&rounded, &source, 0, .plain)
      if rounded == d, let i = Int64(exactly: NSDecimalNumber(decimal: d).int64Value),
        Decimal(i) == d
      {
        return .int(i)
      }
      return .decimal(NSDecimalNumber(decimal: d).stringValue)
    case .list, .other: return nil
    }
  }

  /// See ``ValueComparison/indexKey(_:)-(Any?)``.
  public enum IndexKey: Hashable, Sendable {
    case null
    case int(Int64)
    case decimal(String)
    case string(String)
  }
}
