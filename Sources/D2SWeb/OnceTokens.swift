import EnvKeys
import Foundation
import Synchronization

/// The one-time tokens of new-object forms, against a double submit: a form's second POST
/// leads to the object its first one made, instead of making another. A token is kept until
/// its form expires, and for ``doneLifetime`` once its save is done; at most ``capacity`` of
/// them. A token is signed, so the store holds only tokens this server issued.
final class OnceTokens: Sendable {
  /// How long a new-object form may wait before it is sent.
  static let lifetime: TimeInterval = 12 * 3600
  /// The most tokens kept at once; past it the oldest are forgotten.
  static let capacity = 100_000
  /// How long a saved form's token is remembered: a double submit comes within seconds.
  static let doneLifetime: TimeInterval = 600

  /// What a token's claim found.
  enum Claim: Equatable {
    /// Not used before: the form may be saved.
    case fresh
    /// Its first POST is being saved now.
    case pending
    /// Its first POST made the object at this path.
    case done(String)
  }

  private struct Use {
    var expiry: Date
    var path: String?
  }

  private let uses = Mutex<[String: Use]>([:])

  /// Claims `nonce` for a save, valid until `expiry`.
  func claim(_ nonce: String, expiry: Date, now: Date = DependencyValues.current.clock.now) -> Claim
  {
    uses.withLock { uses in
      if let use = uses[nonce], use.expiry > now { return use.path.map(Claim.done) ?? .pending }
      if uses.count >= Self.capacity {
        uses = uses.filter { $0.value.expiry > now }
        // Still full: the oldest half goes (a forgotten token only loses its double-submit
        // guard; its form's signature and expiry are still checked).
        if uses.count >= Self.capacity {
          let kept = uses.sorted { $0.value.expiry > $1.value.expiry }.prefix(Self.capacity / 2)
          uses = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
        }
      }
      uses[nonce] = Use(expiry: expiry, path: nil)
      return .fresh
    }
  }

  /// Records that the save of `nonce` made the object at `path`, for ``doneLifetime``.
  func finish(_ nonce: String, path: String, now: Date = DependencyValues.current.clock.now) {
    uses.withLock { uses in
      guard var use = uses[nonce] else { return }
      use.path = path
      use.expiry = min(use.expiry, now + Self.doneLifetime)
      uses[nonce] = use
    }
  }

  /// Frees `nonce` after a save that did not happen (an invalid value): the form may be sent
  /// again.
  func release(_ nonce: String) {
    _ = uses.withLock { $0.removeValue(forKey: nonce) }
  }
}
