import Components
import D2SApplication
import D2SModel
import EnvKeys
import Foundation
import Qualifiers
import RuleCore
import Synchronization

/// The tools an agent is given, generated from the rules for its user: a small, fixed set
/// whose `entity` argument is an enum of the entities the user sees, so that the count does not
/// grow with the schema. Every page is the one a person with the same rules gets (the page
/// function, `client = 'mcp'` in every rule look-up); there is no SQL path.
public struct AgentTools: Sendable {
  /// The page function and the writing API, on the database the agent works in.
  public internal(set) var pages: PageApplication
  /// The agent's user.
  public let user: DatabaseObject?
  /// The most rows one call returns.
  public var maximumRows = 100
  /// The rows a list returns when the call names no `limit`.
  public var defaultRows = 20
  /// The most bytes one answer holds (a call asking for more is refused: a smaller `limit`).
  public var maximumBytes = 1 << 20
  /// The most to-many relationships a filter or an order may cross.
  public var maximumToManyHops = 2
  /// Whether the writing tools are refused whatever the rules say (a token of scope `read`).
  public var readsOnly = false
  /// Where proposed changes go (`agentWrites = 'propose'`); nil where no person can approve
  /// them (stdio), which refuses them.
  public var desk: (any ProposalDesk)?
  /// Who the agent is, as proposals name it.
  public var proposer = "an agent"

  /// Tools for `user` over `pages` (whose base context has the database).
  public init(pages: PageApplication, user: DatabaseObject?) {
    var pages = pages
    pages.base.client = "mcp"
    if let user { pages.base.user = user }
    self.pages = pages
    self.user = user
  }

  /// The tools with changes made proposals whatever the rules say (a token of scope
  /// `propose`): `agentWrites` is set to `propose`, which no rule overrides.
  public func proposingOnly() -> AgentTools {
    var tools = self
    tools.pages.base.agentWrites = "propose"
    return tools
  }

  /// The context of every call: the agent's user, `client = 'mcp'`.
  var context: RuleContext { pages.base }

  /// Names as URLs take them: only what the pages show, never a password.
  var names: ModelNames { ModelNames(context: context, policy: .shown) }

  /// The entities the user sees on the entity list and may reach, whose names an agent may
  /// be given (a plain identifier: a name from the database is data, never text for the
  /// model to read as a description).
  public var entityNames: [String] { shown.names(context, all: false) }

  /// Every entity the user may reach, shown on the entity list or not (`visibleEntityNames`
  /// is presentation, as on the web, where `/Rental/76` is a page though Rental is not
  /// listed): those the tools take, and their schemas' `enum`; plain identifiers only.
  public var reachableEntityNames: [String] { shown.names(context, all: true) }

  /// The entity names, worked out once for these tools (a rule look-up per entity).
  private let shown = ShownEntities()

  /// The entity names of a context, kept once asked.
  final class ShownEntities: Sendable {
    private let names = Mutex<(listed: [String], reachable: [String])?>(nil)

    func names(_ context: RuleContext, all: Bool) -> [String] {
      if let known = names.withLock({ $0 }) { return all ? known.reachable : known.listed }
      let listed = context.reachableVisibleEntityNames.filter(AgentTools.isPlainName)
      let reachable = context.model.entities.map(\.name).filter {
        AgentTools.isPlainName($0) && context.isEntityReachable($0)
      }
      names.withLock { $0 = (listed, reachable) }
      return all ? reachable : listed
    }
  }

  /// Whether `name` is a plain identifier (`Film`, `film_actor`).
  static func isPlainName(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first, first.properties.isAlphabetic || first == "_"
    else { return false }
    return name.count <= 64
      && name.unicodeScalars.allSatisfy {
        ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil))
          || $0 == "_"
      }
  }

  /// An answer of a tool: its structured content (a JSON object's text) and the text a model
  /// reads, or an error's message.
  public struct Answer: Sendable {
    /// The JSON object's text, nil for an error.
    public var structured: String?
    /// An error's message.
    public var error: String?

    /// A result.
    public static func result(_ json: String) -> Answer { Answer(structured: json, error: nil) }
    /// A failure the agent reads (`isError`).
    public static func failure(_ message: String) -> Answer {
      Answer(structured: nil, error: message)
    }
  }

  /// Runs tool `name` with `arguments`; nil for a tool that does not exist.
  public func call(_ name: String, _ arguments: [String: Any]) -> Answer? {
    let run: (Arguments) throws -> String
    switch name {
    case "entities": run = { _ in try entities() }
    case "describe": run = describe
    case "list": run = list
    case "inspect": run = inspect
    case "follow": run = follow
    case "edit": run = edit
    case "new": run = new
    case "delete": run = delete
    case "why_not" where context.mayExplain: run = whyNot
    default: return nil
    }
    if readsOnly, ["edit", "new", "delete"].contains(name) {
      return .failure("not allowed: this agent may only read (a token of scope read)")
    }
    do {
      // A relationship the database could not answer was read as none: not an answer, nor a
      // refusal made on it.
      let run = { try run(Arguments(arguments, tool: name)) }
      let json = try context.database.map { try $0.readingAnswered(run) } ?? run()
      guard json.utf8.count <= maximumBytes else {
        return .failure(
          "the answer is larger than \(maximumBytes) bytes: ask for fewer rows (limit)")
      }
      return .result(json)
    } catch {
      return .failure(Self.message(error))
    }
  }

  /// What an agent reads of an error: request errors in their own words, never SQL.
  static func message(_ error: any Error) -> String {
    switch error {
    case let failure as ToolError: return failure.message
    case let failure as ProposalError: return failure.message
    case let failure as NameError: return failure.message
    case let failure as FormatterError: return failure.description
    case let failure as PermissionError: return "not allowed: " + failure.message
    case let failure as DatabaseError:
      switch failure.code {
      case .conflict: return "conflict: " + failure.message
      case .notNull: return "not saved: a value is required"
      case .unique: return "not saved: another row already has this value"
      case .check: return "not saved: the database does not accept this value"
      case .foreignKey: return "not saved: a row it refers to does not exist, or rows refer to it"
      case .invalidValue, .notFound, .readOnly: return failure.message
      default: return "the database refused the request"
      }
    case let parse as ParseError:
      return "\(parse.message) (at column \(parse.location.column))"
    default:
      return "the request failed"
    }
  }
}

/// A tool's refusal of its arguments, in words for the agent.
struct ToolError: Error {
  let message: String
  init(_ message: String) { self.message = message }
}

/// A call's arguments, read by name with the type each must have.
struct Arguments {
  let values: [String: Any]
  let tool: String

  init(_ values: [String: Any], tool: String) {
    self.values = values
    self.tool = tool
  }

  func string(_ name: String) throws -> String? {
    guard let value = values[name], !(value is NSNull) else { return nil }
    guard let text = value as? String else { throw ToolError("\(name): expected a string") }
    return text
  }

  func required(_ name: String) throws -> String {
    guard let text = try string(name), !text.isEmpty else {
      throw ToolError("\(tool) needs \(name)")
    }
    return text
  }

  func integer(_ name: String) throws -> Int? {
    guard let value = values[name], !(value is NSNull) else { return nil }
    guard let number = value as? NSNumber, String(cString: number.objCType) != "c",
      let integer = Int(exactly: number.doubleValue)
    else { throw ToolError("\(name): expected an integer") }
    return integer
  }

  func object(_ name: String) throws -> [String: Any]? {
    guard let value = values[name], !(value is NSNull) else { return nil }
    guard let object = value as? [String: Any] else {
      throw ToolError("\(name): expected an object of property names and values")
    }
    return object
  }

  /// A primary key as the agent gives it: a string (`1`, `1,23`: parts split at commas), an
  /// integer, or an array of the key's parts (a part may then hold a comma).
  func key(_ name: String = "key") throws -> [String] {
    switch values[name] {
    case let text as String where !text.isEmpty:
      return text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    case let number as NSNumber where String(cString: number.objCType) != "c":
      return ["\(number)"]
    case let parts as [Any] where !parts.isEmpty:
      return try parts.map { part -> String in
        if let text = part as? String { return text }
        if let number = part as? NSNumber { return "\(number)" }
        throw ToolError("\(name): each part is a string or a number")
      }
    default: throw ToolError("\(tool) needs \(name): the row's primary key")
    }
  }
}
