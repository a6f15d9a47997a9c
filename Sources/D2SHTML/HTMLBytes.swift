/// HTML written as UTF-8 bytes into one buffer that grows as needed and is freed with it.
///
/// A list page appends a few bytes at a time, eighteen times a row: an `Array`'s append
/// checks that its buffer is not shared and reads its header each time (about 90
/// instructions for `</td><td>`), this one a bound and a copy.
struct HTMLBytes: ~Copyable {
  /// The bytes, `count` of them written, `capacity` allocated.
  private var base: UnsafeMutablePointer<UInt8>
  /// How many bytes are written.
  private(set) var count = 0
  /// How many bytes fit before the buffer grows.
  private var capacity: Int

  /// An empty buffer with room for `capacity` bytes.
  init(capacity: Int = 1_024) {
    self.capacity = max(capacity, 16)
    base = .allocate(capacity: self.capacity)
  }

  deinit { base.deallocate() }

  /// Appends `bytes`.
  @inline(__always)
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress else { return }
    if count + bytes.count > capacity { grow(toHold: bytes.count) }
    (base + count).initialize(from: source, count: bytes.count)
    count += bytes.count
  }

  /// Appends one byte.
  @inline(__always)
  mutating func append(_ byte: UInt8) {
    if count == capacity { grow(toHold: 1) }
    base[count] = byte
    count += 1
  }

  /// Appends markup of the renderer's own, as it is.
  @inline(__always)
  mutating func append(_ markup: StaticString) {
    markup.withUTF8Buffer { append($0) }
  }

  /// Appends `bytes`.
  mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { append($0) }
  }

  /// Appends `text`'s UTF-8 as it is (text that needs no escaping).
  mutating func append(unescaped text: String) {
    var text = text
    text.withUTF8 { append($0) }
  }

  /// The bytes written, which are then no longer held (the buffer is kept for more).
  mutating func take() -> [UInt8] {
    defer { count = 0 }
    return Array(UnsafeBufferPointer(start: base, count: count))
  }

  /// The bytes written, as text.
  var string: String {
    String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
  }

  /// Makes room for `more` bytes beyond those written: at least twice the room there was.
  private mutating func grow(toHold more: Int) {
    let grown = max(capacity * 2, count + more)
    let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: grown)
    moved.initialize(from: base, count: count)
    base.deallocate()
    base = moved
    capacity = grown
  }
}
