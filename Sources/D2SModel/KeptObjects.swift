import Synchronization

/// Objects a connection keeps from one page to the next (a list's columns, made from a plan
/// the rules' answers are kept in), each under the object it was made from: a page takes one
/// out for itself (``take(for:)``) and gives it back when done (``keep(_:for:)``), so no two
/// pages ever hold the same one.
///
/// The owner is held with what was made from it: its identity is never another's while its
/// objects are kept.
public final class KeptObjects: Sendable {
  /// An object and its owner. Handed from page to page whole: only the page that took it
  /// reads it.
  private struct Entry: @unchecked Sendable {
    let owner: AnyObject
    let object: AnyObject
  }

  /// What is kept, by its owner's identity.
  private let kept = Mutex<[ObjectIdentifier: Entry]>([:])

  /// The most objects kept; past it, those kept are forgotten.
  public static let maximumCount = 32

  /// Nothing kept yet.
  public init() {}

  /// The object kept for `owner`, which is then no longer kept; nil when none is (none was
  /// made yet, or another page holds it).
  public func take(for owner: AnyObject) -> AnyObject? {
    let entry = kept.withLock { $0.removeValue(forKey: ObjectIdentifier(owner)) }
    guard let entry, entry.owner === owner else { return nil }
    return entry.object
  }

  /// The object kept for `owner`, left kept: for an object no page changes, which pages may
  /// read at once.
  public func object(for owner: AnyObject) -> AnyObject? {
    let entry = kept.withLock { $0[ObjectIdentifier(owner)] }
    guard let entry, entry.owner === owner else { return nil }
    return entry.object
  }

  /// Keeps `object` for `owner`'s next ``take(for:)``.
  public func keep(_ object: AnyObject, for owner: AnyObject) {
    kept.withLock { kept in
      if kept.count >= Self.maximumCount, kept[ObjectIdentifier(owner)] == nil {
        kept.removeAll()
      }
      kept[ObjectIdentifier(owner)] = Entry(owner: owner, object: object)
    }
  }
}
