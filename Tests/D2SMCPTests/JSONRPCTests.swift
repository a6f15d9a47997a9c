import Foundation
import Testing

@testable import D2SMCP

/// JSON-RPC as MCP uses it: ids echoed as sent (a string stays a string), notifications not
/// answered, malformed messages answered with the error codes the specification names.
@Suite struct JSONRPCTests {
  @Test func idsAreEchoedAsSentAndErrorsCarryTheirCodes() throws {
    guard
      case .success(let message) = JSONRPC.parse(
        Data(#"{"jsonrpc":"2.0","id":"7","method":"ping"}"#.utf8))
    else {
      Issue.record("not parsed")
      return
    }
    #expect(message.id == #""7""#)
    guard
      case .success(let number) = JSONRPC.parse(
        Data(#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#.utf8))
    else {
      Issue.record("not parsed")
      return
    }
    #expect(number.id == "7")
    guard
      case .success(let notification) = JSONRPC.parse(
        Data(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.utf8))
    else {
      Issue.record("not parsed")
      return
    }
    #expect(notification.id == nil)
    for (text, code) in [
      ("not json", -32700), ("[1]", -32600), (#"{"jsonrpc":"1.0","id":1,"method":"x"}"#, -32600),
      (#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#, -32600),
      (#"{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}"#, -32602),
    ] {
      guard case .failure(let refusal) = JSONRPC.parse(Data(text.utf8)) else {
        Issue.record("\(text) parsed")
        continue
      }
      #expect(refusal.failure.code.rawValue == code, "\(text)")
    }
  }

  /// A response (this server sends no requests) and a notification that is not valid are
  /// answered with nothing: JSON-RPC never answers a notification. Before, both were answered
  /// with an error.
  @Test func responsesAndNotificationsAreNeverAnswered() {
    for text in [
      #"{"jsonrpc":"2.0","id":7,"result":{}}"#,
      #"{"jsonrpc":"2.0","id":7,"error":{"code":-1,"message":"x"}}"#,
      #"{"jsonrpc":"2.0","method":"notifications/x","params":[1]}"#,
    ] {
      guard case .failure(let refusal) = JSONRPC.parse(Data(text.utf8)) else {
        Issue.record("\(text) parsed")
        continue
      }
      #expect(refusal.isSilent, "\(text)")
    }
    // A request with the same fault is answered.
    guard
      case .failure(let refusal) = JSONRPC.parse(
        Data(#"{"jsonrpc":"2.0","id":1,"method":"x","params":[1]}"#.utf8))
    else {
      Issue.record("parsed")
      return
    }
    #expect(!refusal.isSilent)
  }
}
