import D2SModel
import EnvKeys
import Foundation
import Synchronization

/// Turns values into display text and typed text back into values, identically on every
/// machine and locale (no Foundation formatters). A plugin registers it by name
/// (`formatters: ["outOfFive": OutOfFiveFormatter()]`) and rules pick it
/// (`formatter = 'outOfFive'`):
///
/// ```swift
/// struct OutOfFiveFormatter: ValueFormatter {
///   func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
///     "\(value.intValue ?? 0)/5"
///   }
///   func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
///     guard let n = Int(text.replacingOccurrences(of: "/5", with: "")) else {
///       throw FormatterError(formatter: "outOfFive", text: text, accepted: "3 or 3/5")
///     }
///     return .int(n)
///   }
/// }
/// ```
public protocol ValueFormatter: Sendable {
  /// The display text of `value` (never called with `.null`): the same for the same value,
  /// always, as a list asks a column's formatter once for each of its distinct values and
  /// keeps the texts for its next pages, until a formatter is registered again.
  func format(_ value: DatabaseValue, for attribute: Attribute?) -> String
  /// The value typed as `text`.
  /// - Throws: ``FormatterError`` naming the formatter and the accepted forms.
  func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue
  /// A value `formatters` shows this formatter's text of (`1234.5` for `currency`); nil, the
  /// default, shows none.
  var example: DatabaseValue? { get }
}

extension ValueFormatter {
  /// No example.
  public var example: DatabaseValue? { nil }
}

/// Text a formatter cannot read.
public struct FormatterError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The formatter that could not read the text.
  public var formatter: String
  /// The text as typed.
  public var text: String
  /// The forms it accepts (`3 or 3/5`).
  public var accepted: String
  /// An error naming the formatter, the text and the accepted forms.
  public init(formatter: String, text: String, accepted: String) {
    self.formatter = formatter
    self.text = text
    self.accepted = accepted
  }
  /// `'x' is not a valid outOfFive value (write 3 or 3/5)`.
  public var description: String {
    "'\(text)' is not a valid \(formatter) value (write \(accepted))"
  }
}

/// Formatters by name: the builtin ones (`integer`, `decimal`, `currency`, `percent`, `date`,
/// `time`, `dateTime`, `minutesDuration`, `daysDuration`) and those plugins register.
public final class FormatterRegistry: Sendable {
  private let table = Mutex<[String: any ValueFormatter]>([:])
  private let registrations = Atomic(0)

  /// A registry with the builtin formatters (or, with `empty`, none).
  public init(empty: Bool = false) {
    if !empty { for (name, formatter) in BuiltinFormatters.all { register(formatter, as: name) } }
  }

  /// The builtin formatters by name.
  public static var builtin: [(name: String, formatter: any ValueFormatter)] {
    BuiltinFormatters.all.map { ($0.0, $0.1) }
  }

  /// Registers `formatter` as `name` (replacing an earlier one of that name).
  public func register(_ formatter: any ValueFormatter, as name: String) {
    table.withLock { $0[name] = formatter }
    registrations.add(1, ordering: .releasing)
  }

  /// How many registrations have been made: what was looked up by name stays right while it
  /// is the same (a list's columns keep their formatters, rather than ask under the lock on
  /// every page).
  public var version: Int { registrations.load(ordering: .acquiring) }

  /// The formatter registered as `name`, if any.
  public func formatter(named name: String) -> (any ValueFormatter)? { table.withLock { $0[name] } }

  /// Every registered name, sorted.
  public var names: [String] { table.withLock { $0.keys.sorted() } }
}
