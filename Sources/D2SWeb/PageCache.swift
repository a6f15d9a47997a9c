import D2SModel
import NIOCore
import Synchronization

/// Anonymous pages as rendered, reused while the connection that read them still sees the
/// same database contents (its ``ContentVersion``) and the rules are the ones they were made
/// with: many visitors asking for one page make it once. A page is never reused by another
/// connection (versions of different connections do not compare), nor after ``lifetime``
/// (what no version tracks, a count that ran out of time, is then worked out anew). At most
/// ``capacity`` bytes of pages are kept; past it the oldest go.
final class PageCache: Sendable {
  /// How long a page may be reused, however unchanged the database.
  let lifetime: Duration

  /// What a page is kept under: the request target as sent, and whether it asked for JSON.
  struct Key: Hashable, Sendable {
    let target: String
    let json: Bool
    let connection: ObjectIdentifier
  }

  private struct Entry: Sendable {
    /// The connection that read the page (weak: a replaced connection's address may be
    /// reused by a new one, which must not match).
    weak var database: Database?
    let version: ContentVersion
    let body: ByteBuffer
    let made: ContinuousClock.Instant
  }

  private struct State: Sendable {
    var entries: [Key: Entry] = [:]
    var bytes = 0
    var generation = 0
  }

  /// The most bytes of pages kept (0: nothing is kept).
  let capacity: Int
  private let state = Mutex(State())

  /// A cache of at most `capacity` bytes of pages, each reused for `lifetime` at most.
  init(capacity: Int, lifetime: Duration = .seconds(1)) {
    self.capacity = capacity
    self.lifetime = lifetime
  }

  /// Whether pages are kept at all.
  var isEnabled: Bool { capacity > 0 }

  /// The current generation: a page made in an older one is not kept (``clear()``).
  var generation: Int { state.withLock { $0.generation } }

  /// The page kept for `key`, when `database` read it at `version` less than ``lifetime`` ago.
  func page(
    _ key: Key, database: Database, version: ContentVersion,
    now: ContinuousClock.Instant = .now
  ) -> ByteBuffer? {
    state.withLock { state in
      guard let entry = state.entries[key] else { return nil }
      guard entry.database === database, entry.version == version,
        isFresh(entry, now)
      else {
        state.bytes -= entry.body.readableBytes
        state.entries[key] = nil
        return nil
      }
      return entry.body
    }
  }

  /// Keeps `body`, read by `database` at `version`, unless the cache was cleared since
  /// `generation` or the page alone is over a quarter of the capacity.
  func store(
    _ body: ByteBuffer, for key: Key, database: Database, version: ContentVersion,
    generation: Int, now: ContinuousClock.Instant = .now
  ) {
    let size = body.readableBytes
    guard size <= capacity / 4 else { return }
    // Kept at its size (the allocator rounds up to a power of two), not at the room its
    // writer grew it to: the memory held is less than twice the bytes counted.
    var body = body
    if body.capacity >= 2 * size {
      var trimmed = ByteBufferAllocator().buffer(capacity: size)
      trimmed.writeBuffer(&body)
      body = trimmed
    }
    state.withLock { state in
      guard state.generation == generation else { return }
      if let old = state.entries[key] { state.bytes -= old.body.readableBytes }
      state.entries[key] = Entry(database: database, version: version, body: body, made: now)
      state.bytes += size
      guard state.bytes > capacity else { return }
      // Full: the expired go, then the oldest until a quarter of the room is free.
      let byAge = state.entries.sorted { $0.value.made < $1.value.made }
      for (key, entry) in byAge where state.bytes > capacity * 3 / 4 || !isFresh(entry, now) {
        state.entries[key] = nil
        state.bytes -= entry.body.readableBytes
      }
    }
  }

  /// Forgets every page, and refuses those being made now (the rules were replaced).
  func clear() {
    state.withLock { state in
      state.entries.removeAll()
      state.bytes = 0
      state.generation += 1
    }
  }

  /// How many pages and bytes are kept (for tests).
  var usage: (pages: Int, bytes: Int) { state.withLock { ($0.entries.count, $0.bytes) } }

  /// The memory the kept pages' buffers hold (their capacities): less than twice their bytes.
  var heldCapacity: Int {
    state.withLock { $0.entries.values.reduce(0) { $0 + $1.body.capacity } }
  }

  private func isFresh(_ entry: Entry, _ now: ContinuousClock.Instant) -> Bool {
    entry.made.duration(to: now) < lifetime
  }
}
