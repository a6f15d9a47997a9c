/// Random bytes for keys, session ids and nonces, from the system's generator: Swift's
/// `SystemRandomNumberGenerator` reads the kernel's (`getrandom(2)` on Linux), which is
/// cryptographically secure.
package enum RandomBytes {
  /// `count` random bytes.
  package static func make(_ count: Int) -> [UInt8] {
    var generator = SystemRandomNumberGenerator()
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count + 7)
    while bytes.count < count {
      let word = generator.next()
      for shift in stride(from: 0, to: 64, by: 8) {
        bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
      }
    }
    bytes.removeLast(bytes.count - count)
    return bytes
  }
}
