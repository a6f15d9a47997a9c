/// A hash table for tables built once and read (a key's rule buckets): values are set and
/// looked up, and the table emptied all at once; no key is removed alone.
///
/// A `Dictionary` keyed by one of our types costs a search of every conformance table of the
/// process the first time it makes storage: its storage type requires `Key: Hashable`, which
/// the runtime checks by searching, some 380,000 instructions at each start for each such key
/// type. This table's type requires nothing of its key; its methods, which need `Hashable`,
/// are handed the conformance by the compiler. Its look-ups take about three times a
/// dictionary's (tens of nanoseconds): the rule cache's hot tables stay dictionaries.
struct ProbeTable<Key, Value> {
  /// Open addressing with linear probing: a power of two of slots (or none), at most half
  /// of them used.
  private var keys: [Key?] = []
  private var values: [Value?] = []
  /// Each slot's key hash with its low bit set (0: an empty slot), compared before keys.
  private var hashes: [UInt] = []
  /// How many keys have values.
  private(set) var count = 0
  /// 64 minus the number of bits that index a slot: the hash's top bits pick its first slot.
  private var shift = 64

  /// An empty table.
  init() {}

  /// Empties the table (its slots are freed too).
  mutating func removeAll() {
    keys = []
    values = []
    hashes = []
    count = 0
    shift = 64
  }
}

extension ProbeTable where Key: Hashable {
  /// The value for `key`, or nil.
  subscript(key: Key) -> Value? {
    guard let index = index(of: key, hash: Self.hash(key)) else { return nil }
    return values[index]
  }

  /// The key's hash, never 0 (which marks an empty slot).
  @inline(__always)
  private static func hash(_ key: Key) -> UInt { UInt(bitPattern: key.hashValue) | 1 }

  /// Fibonacci hashing: the product's top bits, whatever the hash's low bits are like.
  @inline(__always)
  private func firstSlot(_ hash: UInt) -> Int {
    Int(truncatingIfNeeded: (hash &* 0x9E37_79B9_7F4A_7C15) >> UInt(shift))
  }

  /// The slot holding `key`, or nil. At most half the slots are used: the probe meets an
  /// empty one.
  private func index(of key: Key, hash: UInt) -> Int? {
    guard !hashes.isEmpty else { return nil }
    let mask = hashes.count - 1
    var index = firstSlot(hash)
    while true {
      let stored = hashes[index]
      if stored == 0 { return nil }
      if stored == hash, keys[index] == key { return index }
      index = (index + 1) & mask
    }
  }

  /// Sets `value` for `key`, adding or replacing it.
  mutating func set(_ value: Value, for key: Key) {
    let hash = Self.hash(key)
    if let index = index(of: key, hash: hash) {
      values[index] = value
      return
    }
    if (count + 1) * 2 > hashes.count { grow() }
    insertNew(key, value, hash: hash)
    count += 1
  }

  /// Places a key that is not in the table.
  private mutating func insertNew(_ key: Key, _ value: Value, hash: UInt) {
    let mask = hashes.count - 1
    var index = firstSlot(hash)
    while hashes[index] != 0 { index = (index + 1) & mask }
    hashes[index] = hash
    keys[index] = key
    values[index] = value
  }

  /// Doubles the slots (8 at first) and places every key again.
  private mutating func grow() {
    let oldKeys = keys
    let oldValues = values
    let oldHashes = hashes
    let capacity = max(8, hashes.count * 2)
    keys = Array(repeating: nil, count: capacity)
    values = Array(repeating: nil, count: capacity)
    hashes = Array(repeating: 0, count: capacity)
    shift = 64 - capacity.trailingZeroBitCount
    for index in oldHashes.indices where oldHashes[index] != 0 {
      if let key = oldKeys[index], let value = oldValues[index] {
        insertNew(key, value, hash: oldHashes[index])
      }
    }
  }
}

extension ProbeTable: Sendable where Key: Sendable, Value: Sendable {}
