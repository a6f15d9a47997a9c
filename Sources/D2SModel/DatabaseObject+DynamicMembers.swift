import EnvKeys
import Foundation
import Qualifiers

extension DatabaseObject {
  /// The value of the property (attribute or relationship) named `key`:
  /// `object.lastName`, `object.address?.phone`. In the Swift rule DSL this names the key
  /// path `object.lastName` as rule text does.
  public subscript(dynamicMember key: String) -> Member? {
    if let recorder {
      recorder.recordMember(key)
      return Member(recorder: recorder)
    }
    return value(forKey: key).map { Member(value: $0) }
  }

  /// What a dynamic member of a database object reads: an attribute's value (`String`,
  /// `Int`, `Decimal`, `Date` …), a related object or related objects, itself read on by
  /// dynamic members (`object.address?.city?.city`).
  ///
  /// In the Swift rule DSL it compares with literals as rule text does:
  /// `\.object?.firstName == "PENELOPE"`.
  @dynamicMemberLookup
  public struct Member: Sendable, ContextLiteralConvertible, ExpressibleByStringLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral, CustomStringConvertible
  {
    private let box: AnySendableValue
    private let literal: Literal?
    private let recorder: KeyPathRecorder?

    /// The value read (a related object is a ``DatabaseObject``).
    public var value: Any? { literal?.anyValue ?? box.value }

    /// A member holding `value`.
    public init(value: Any?) {
      box = AnySendableValue(value)
      literal = nil
      recorder = nil
    }

    init(recorder: KeyPathRecorder) {
      box = AnySendableValue(nil)
      literal = nil
      self.recorder = recorder
    }

    private init(literal: Literal) {
      box = AnySendableValue(nil)
      self.literal = literal
      recorder = nil
    }

    /// The property named `key` of the value read.
    public subscript(dynamicMember key: String) -> Member? {
      if let recorder {
        recorder.recordMember(key)
        return Member(recorder: recorder)
      }
      return KVC.value(forKey: key, of: value).map { Member(value: $0) }
    }

    /// `value`.
    public static var contextTypeName: String { "value" }
    /// A member standing for a rule literal.
    public init(contextLiteral literal: Literal) throws(LiteralCoercionError) {
      self.init(literal: literal)
    }
    /// The value as a rule literal (objects by their primary key).
    public var contextLiteral: Literal {
      if let literal { return literal }
      switch KVC.unwrap(value) {
      case nil: return .null
      case let object as DatabaseObject: return Literal(any: object.qualifierComparisonValue)
      case let other: return Literal(any: other)
      }
    }
    /// A string.
    public init(stringLiteral value: String) { self.init(literal: .string(value)) }
    /// An integer.
    public init(integerLiteral value: Int) { self.init(literal: .int(value)) }
    /// A boolean.
    public init(booleanLiteral value: Bool) { self.init(literal: .bool(value)) }

    /// The value as rule text prints it.
    public var description: String { contextLiteral.description }
  }
}

extension DatabaseObject: KeyPathRecordable {
  /// The object the Swift rule DSL reads key paths with: its dynamic members report their
  /// names.
  public static func recordingPlaceholder(recorder: KeyPathRecorder) -> DatabaseObject {
    DatabaseObject(recorder: recorder)
  }

  private convenience init(recorder: KeyPathRecorder) {
    self.init(entity: Entity.recordingPlaceholder, database: nil, values: [], recorder: recorder)
  }
}

extension Entity {
  /// An entity with no properties, for placeholder objects.
  static let recordingPlaceholder = Entity(
    name: "", externalName: "", attributes: [], relationships: [], primaryKeyAttributeNames: [],
    isView: false)
}

extension Literal {
  /// A plain Swift value as a literal: strings, numbers, booleans, dates as text; others by
  /// their description.
  fileprivate init(any value: Any?) {
    switch KVC.unwrap(value) {
    case nil: self = .null
    case let v as String: self = .string(v)
    case let v as Bool: self = .bool(v)
    case let v as Int: self = .int(v)
    case let v as Decimal: self = .decimal(v)
    case let v as Double: self = Decimal(string: "\(v)").map { .decimal($0) } ?? .string("\(v)")
    case let v as Date: self = .string(ISODateText.format(v))
    case let other?: self = .string(String(describing: other))
    }
  }
}
