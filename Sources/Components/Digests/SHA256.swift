/// SHA-256 (FIPS 180-4 §6.2): the digest d2s-serve keeps session ids under, signs its cookies
/// and forms with (``HMACSHA256``), and fingerprints a links page's keys with.
///
/// Written here rather than taken from swift-crypto, whose BoringSSL took a fifth of a fresh
/// clone's build for these two functions (Documentation/Performance.md, part 27). It is
/// checked against the standard's vectors and Python's `hashlib` at every length around the
/// block and padding boundaries. Nothing secret steers a branch or an index.
package enum SHA256 {
  /// The digest's length in bytes.
  package static let byteCount = 32
  /// The length of a block in bytes.
  package static let blockByteCount = 64

  /// The digest of `message`'s bytes (32 bytes).
  package static func hash(_ message: UnsafeRawBufferPointer) -> [UInt8] {
    var state = initialState
    let wholeBlocks = message.count / blockByteCount
    withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
      for block in 0..<wholeBlocks {
        compress(
          UnsafeRawBufferPointer(rebasing: message[(block * blockByteCount)...]), &state,
          schedule)
      }
      // The last bytes, a 1 bit, zeros, and the length in bits, in one block or two.
      let rest = message.count - wholeBlocks * blockByteCount
      var tail = [UInt8](repeating: 0, count: rest < 56 ? blockByteCount : 2 * blockByteCount)
      for index in 0..<rest { tail[index] = message[wholeBlocks * blockByteCount + index] }
      tail[rest] = 0x80
      let bits = UInt64(message.count) &* 8
      for index in 0..<8 {
        tail[tail.count - 1 - index] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(index)))
      }
      tail.withUnsafeBytes { tail in
        for block in stride(from: 0, to: tail.count, by: blockByteCount) {
          compress(UnsafeRawBufferPointer(rebasing: tail[block...]), &state, schedule)
        }
      }
    }
    var digest = [UInt8](repeating: 0, count: byteCount)
    for (index, word) in state.enumerated() {
      for position in 0..<4 {
        digest[4 * index + position] = UInt8(truncatingIfNeeded: word >> (24 - 8 * position))
      }
    }
    return digest
  }

  /// The digest of `message`'s bytes (32 bytes).
  package static func hash(_ message: [UInt8]) -> [UInt8] {
    message.withUnsafeBytes { hash($0) }
  }

  /// The digest of `text`'s UTF-8 bytes (32 bytes).
  package static func hash(_ text: String) -> [UInt8] {
    var text = text
    return text.withUTF8 { hash(UnsafeRawBufferPointer($0)) }
  }

  /// The first 32 bits of the fractional parts of the square roots of the first 8 primes.
  private static let initialState: [UInt32] = [
    0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a,
    0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19,
  ]

  /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  /// Folds the 64-byte block at the start of `block` into `state`, with `schedule` (64 words)
  /// as the message schedule's room.
  private static func compress(
    _ block: UnsafeRawBufferPointer, _ state: inout [UInt32],
    _ schedule: UnsafeMutableBufferPointer<UInt32>
  ) {
    for index in 0..<16 {
      var word: UInt32 = 0
      for position in 0..<4 { word = word << 8 | UInt32(block[4 * index + position]) }
      schedule[index] = word
    }
    for index in 16..<64 {
      let early = schedule[index - 15]
      let late = schedule[index - 2]
      let sigma0 = rotateRight(early, 7) ^ rotateRight(early, 18) ^ (early >> 3)
      let sigma1 = rotateRight(late, 17) ^ rotateRight(late, 19) ^ (late >> 10)
      schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
    }
    var (a, b, c, d) = (state[0], state[1], state[2], state[3])
    var (e, f, g, h) = (state[4], state[5], state[6], state[7])
    for index in 0..<64 {
      let sum1 = rotateRight(e, 6) ^ rotateRight(e, 11) ^ rotateRight(e, 25)
      let choice = (e & f) ^ (~e & g)
      let first = h &+ sum1 &+ choice &+ roundConstants[index] &+ schedule[index]
      let sum0 = rotateRight(a, 2) ^ rotateRight(a, 13) ^ rotateRight(a, 22)
      let majority = (a & b) ^ (a & c) ^ (b & c)
      let second = sum0 &+ majority
      h = g
      g = f
      f = e
      e = d &+ first
      d = c
      c = b
      b = a
      a = first &+ second
    }
    state[0] = state[0] &+ a
    state[1] = state[1] &+ b
    state[2] = state[2] &+ c
    state[3] = state[3] &+ d
    state[4] = state[4] &+ e
    state[5] = state[5] &+ f
    state[6] = state[6] &+ g
    state[7] = state[7] &+ h
  }

  private static func rotateRight(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value >> count) | (value << (32 - count))
  }
}
