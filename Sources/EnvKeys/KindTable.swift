import Synchronization

/// The kinds ``TypeTraits`` found, read without a lock. Every context value set asks for its
/// type's kind; under 64 connections the threads setting them met on one mutex, and waited
/// for it in the kernel (3.3% of a PostgreSQL list page, most of it futex waits).
///
/// Entries are appended under a lock and published by an atomic count, then never changed;
/// readers scan from the newest, so a later entry for a type (a declaration) hides an
/// earlier one. Past ``capacity`` entries, the overflow dictionary holds the later ones and is
/// read first, under its lock.
final class KindTable: Sendable {
  /// One type's kind.
  struct Entry {
    let id: ObjectIdentifier
    let kind: TypeTraits.Kind
  }

  /// The most entries read without a lock.
  static let capacity = 64
  nonisolated(unsafe) private let entries = UnsafeMutablePointer<Entry>.allocate(
    capacity: KindTable.capacity)
  private let published = Atomic<Int>(0)
  /// Written under its lock: appending, and the kinds past ``capacity``.
  private let overflow = Mutex<[ObjectIdentifier: TypeTraits.Kind]>([:])

  deinit {
    entries.deinitialize(count: published.load(ordering: .acquiring))
    entries.deallocate()
  }

  /// The kind recorded for `id`, the latest one, if any.
  func kind(_ id: ObjectIdentifier) -> TypeTraits.Kind? {
    // Once the table is full, the overflow holds the later entries.
    guard published.load(ordering: .acquiring) == Self.capacity else { return latest(id) }
    return overflow.withLock { kind(id, $0) }
  }

  /// ``kind(_:)`` with the overflow's lock held.
  private func kind(_ id: ObjectIdentifier, _ overflow: [ObjectIdentifier: TypeTraits.Kind])
    -> TypeTraits.Kind?
  {
    overflow[id] ?? latest(id)
  }

  /// The latest kind published for `id`, if any.
  private func latest(_ id: ObjectIdentifier) -> TypeTraits.Kind? {
    var index = published.load(ordering: .acquiring)
    while index > 0 {
      index -= 1
      if entries[index].id == id { return entries[index].kind }
    }
    return nil
  }

  /// Records `kind` for `id`: appended (hiding an earlier entry for `id`), or in the overflow
  /// once the table is full. Nothing is added when `id` already reads `kind` (two threads
  /// that found the same answer).
  func record(_ id: ObjectIdentifier, _ kind: TypeTraits.Kind) {
    overflow.withLock { overflow in
      guard self.kind(id, overflow) != kind else { return }
      let count = published.load(ordering: .relaxed)
      guard count < Self.capacity else {
        overflow[id] = kind
        return
      }
      (entries + count).initialize(to: Entry(id: id, kind: kind))
      published.store(count + 1, ordering: .releasing)
    }
  }
}
