import EnvKeys

extension PostgreSQLTypes {
  /// The values a numeric column's last few texts were read as, by their bytes: a column of
  /// prices repeats a few values (`0.99`, `2.99`, `4.99`), and a `Decimal` made from its text
  /// costs about 400 instructions, a quarter of a list row's decoding.
  struct DecimalMemo {
    /// A text of at most 16 bytes, packed: its bytes and their count.
    private struct Key: Equatable {
      var low: UInt64 = 0
      var high: UInt64 = 0
      var count: Int

      /// `bytes` packed, or nil when they are longer than 16.
      init?(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count <= 16 else { return nil }
        count = bytes.count
        // Copied into the two words at once, not a byte at a time.
        var words = (UInt64(0), UInt64(0))
        withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: bytes) }
        (low, high) = words
      }
    }

    // As SQLite's `DecimalMemo`, by another key: a generic of D2SModel's shared by both was
    // not specialized across modules (41,000 instructions more a list page).
    private var kept: [(key: Key, value: DatabaseValue)] = []
    private var next = 0
    /// The most values kept.
    static let size = 4

    /// The value of `bytes`, as `make` makes it (once for each of the last ``size`` texts;
    /// always for a text longer than 16 bytes).
    mutating func value(
      _ bytes: UnsafeRawBufferPointer, _ make: (UnsafeRawBufferPointer) -> DatabaseValue
    ) -> DatabaseValue {
      guard let key = Key(bytes) else { return make(bytes) }
      for entry in kept where entry.key == key { return entry.value }
      let value = make(bytes)
      if kept.count < Self.size {
        kept.append((key, value))
      } else {
        kept[next] = (key, value)
        next = (next + 1) % Self.size
      }
      return value
    }
  }
}
