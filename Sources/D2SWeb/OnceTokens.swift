import Foundation
import Synchronization

/// The one-time tokens of new-object forms, against a double submit: a form's second POST
/// leads to the object its first one made, instead of making another. Only the tokens of
/// forms sent in the last ``lifetime`` are kept, at most ``capacity`` of them; a token is
/// signed, so the store holds only tokens this server issued.
final class OnceTokens: Sendable {
  /// How long a new-object form may wait before it is sent.
  static let lifetime: TimeInterval = 12 * 3600
  /// The most tokens kept at once.
  static let capacity = 100_000

  /// What a token's claim found.
  enum Claim: Equatable {
    /// Not used before: the form may be saved.
    case fresh
    /// Its first POST is being saved now.
    case pending
    /// Its first POST made the object at this path.
    case done(String)
    /// Too many forms are in flight.
    case full
  }

  private struct Use {
    var expiry: Date
    var path: String?
  }

  private let uses = Mutex<[String: Use]>([:])

  /// Claims `nonce` for a save, valid until `expiry`.
  func claim(_ nonce: String, expiry: Date, now: Date = Date()) -> Claim {
    uses.withLock { uses in
      if let use = uses[nonce] { return use.path.map(Claim.done) ?? .pending }
      if uses.count >= Self.capacity { uses = uses.filter { $0.value.expiry > now } }
      guard uses.count < Self.capacity else { return .full }
      uses[nonce] = Use(expiry: expiry, path: nil)
      return .fresh
    }
  }

  /// Records that the save of `nonce` made the object at `path`.
  func finish(_ nonce: String, path: String) {
    uses.withLock { $0[nonce]?.path = path }
  }

  /// Frees `nonce` after a save that did not happen (an invalid value): the form may be sent
  /// again.
  func release(_ nonce: String) {
    _ = uses.withLock { $0.removeValue(forKey: nonce) }
  }
}
