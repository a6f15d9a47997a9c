import ArgumentParser
import Components
import D2SApplication
import D2SModel
import Foundation
import Logging

/// `d2s-mcp DB [--rules FILE]… [--user NAME]`: an MCP server over stdio for one agent, as
/// one user (the password from `D2S_PASSWORD` or `--password-file`, never an argument). Each
/// line of stdin is a JSON-RPC message; each answer is a line of stdout; the log goes to
/// stderr.
public struct MCPCommand: ParsableCommand {
  /// The command's name and abstract, as `--help` prints them.
  public static let configuration = CommandConfiguration(
    commandName: "d2s-mcp",
    abstract: "A database as an MCP server for AI agents, under D2S's rules (stdio).")

  @Argument(help: "An SQLite file (or sqlite:PATH), or a PostgreSQL URL or conninfo.")
  var database: String

  @Option(name: .customLong("rules"), help: "A rule file (repeatable).")
  var rules: [String] = []

  @Option(help: "The user the agent works as (the user entity's login name).")
  var user: String?

  @Option(help: "A file holding the user's password (else D2S_PASSWORD).")
  var passwordFile: String?

  @Flag(help: "Open the database read-only.")
  var readOnly = false

  /// The command, its options read by ArgumentParser.
  public init() {}

  /// Opens the database, logs the user in and answers stdin's messages until it ends.
  public func run() throws {
    var logger = Logger(label: "d2s-mcp") { StreamLogHandler.standardError(label: $0) }
    logger.logLevel = .notice
    // As d2s-serve: an agent that has not logged in never writes.
    var app = try D2SApp(plugins: [ServerRules()])
    try app.open(database, readOnly: readOnly)
    for file in rules { try app.loadRules(atPath: file) }
    var caller = "anonymous"
    var who: DatabaseObject?
    if let user {
      let password = try Self.password(file: passwordFile)
      do {
        who = try Login.authenticate(login: user, password: password, in: app.context)
      } catch {
        throw ValidationError("login failed for \(user)")
      }
      caller = user
    }
    let server = MCPServer(
      tools: AgentTools(pages: app.pages, user: who), caller: caller, logger: logger)
    logger.notice("d2s-mcp: serving \(caller) on stdio")
    while let line = readLine(strippingNewline: true) {
      guard !line.isEmpty, let answer = server.answer(Data(line.utf8)) else { continue }
      FileHandle.standardOutput.write(Data((answer + "\n").utf8))
    }
  }

  /// The password: the file's first line, else `D2S_PASSWORD`.
  static func password(file: String?) throws -> String {
    if let file {
      guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
        throw ValidationError("cannot read the password file \(file)")
      }
      return String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
    }
    guard let password = ProcessInfo.processInfo.environment["D2S_PASSWORD"] else {
      throw ValidationError("--user needs a password: D2S_PASSWORD or --password-file FILE")
    }
    return password
  }
}
