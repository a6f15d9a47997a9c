import Components
import D2SModel
import EnvKeys
import Plugins
import RuleCore

/// Edits a film rating: the current one among `G PG PG-13 R NC-17`.
public struct EditRating: D2SView {
  public static let ratings = ["G", "PG", "PG-13", "R", "NC-17"]
  @Environment(\.propertyValue) var value
  @Environment(\.propertyKey) var key

  public init() {}

  public var body: some D2SView {
    let current = KVC.unwrap(value) as? String
    HStack {
      Text(Self.ratings.map { $0 == current ? "[\($0)]" : $0 }.joined(separator: " "))
      Action(.set(property: key, value: .string("PG-13")))
    }
  }
}

/// A number as up to five stars.
public struct DisplayStars: D2SView {
  @Environment(\.propertyValue) var value

  public init() {}

  public var body: some D2SView {
    let stars = min(max((KVC.unwrap(value) as? Int) ?? 0, 0), 5)
    Text(String(repeating: "★", count: stars) + String(repeating: "☆", count: 5 - stars))
  }
}

/// `3` → `3/5`.
public struct OutOfFiveFormatter: ValueFormatter {
  public init() {}
  public func format(_ value: DatabaseValue, for attribute: Attribute?) -> String {
    "\(value.intValue ?? 0)/5"
  }
  public func parse(_ text: String, for attribute: Attribute?) throws -> DatabaseValue {
    guard
      let n = Int(
        text.replacingOccurrences(of: "/5", with: "").trimmingCharacters(in: .whitespaces))
    else {
      throw FormatterError(formatter: "outOfFive", text: text, accepted: "3 or 3/5")
    }
    return .int(n)
  }
}

/// Registers the rating editor and the stars in BasicLook, and picks them by rules.
public struct RatingComponentsPlugin: D2SPlugin {
  public init() {}
  public let name = "RatingComponents"
  public var components: [PluginComponent] {
    [
      PluginComponent(look: "BasicLook", EditRating()),
      PluginComponent(look: "BasicLook", DisplayStars()),
    ]
  }
  public var formatters: [String: any ValueFormatter] { ["outOfFive": OutOfFiveFormatter()] }
  /// The rules ship as a resource (`rating.d2s`), found without `Bundle.module`: beside the
  /// executable, in the build folder, or under `D2S_RESOURCES`; else installing stops with an
  /// error naming where it looked.
  public var ruleResource: PluginResource? {
    PluginResource("rating.d2s", package: "RatingComponents", target: "RatingComponents")
  }
}
