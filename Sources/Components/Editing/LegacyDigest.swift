import Foundation

/// MD5 (RFC 1321) and SHA-1 (FIPS 180-4) digests, for reading the password columns of
/// existing databases that store one (Sakila's staff passwords are SHA-1 hex). Neither is a
/// safe way to store a password; D2S only compares with what a database already holds.
enum LegacyDigest {
  /// The lowercase hex text of `digest`.
  static func hex(_ digest: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(digest.count * 2)
    for byte in digest {
      out.append(digits[Int(byte >> 4)])
      out.append(digits[Int(byte & 0x0f)])
    }
    return String(decoding: out, as: UTF8.self)
  }

  /// `message` padded to whole 64-byte blocks: a 1 bit, zeros, then its length in bits in
  /// 8 bytes, little-endian for MD5 and big-endian for SHA-1.
  private static func padded(_ message: [UInt8], bigEndianLength: Bool) -> [UInt8] {
    var bytes = message
    let bits = UInt64(message.count) &* 8
    bytes.append(0x80)
    while bytes.count % 64 != 56 { bytes.append(0) }
    for index in 0..<8 {
      let shift = UInt64(bigEndianLength ? 56 - index * 8 : index * 8)
      bytes.append(UInt8(truncatingIfNeeded: bits >> shift))
    }
    return bytes
  }

  /// The MD5 digest of `message` (16 bytes).
  static func md5(_ message: [UInt8]) -> [UInt8] {
    // Per-round shift amounts, and the constants floor(abs(sin(i + 1)) * 2^32).
    let shifts: [UInt32] = [
      7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
      5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
      4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
      6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]
    let constants: [UInt32] = (0..<64).map { index in
      UInt32(truncatingIfNeeded: Int64(abs(sin(Double(index + 1))) * 4_294_967_296))
    }
    var a0: UInt32 = 0x6745_2301
    var b0: UInt32 = 0xefcd_ab89
    var c0: UInt32 = 0x98ba_dcfe
    var d0: UInt32 = 0x1032_5476
    let bytes = padded(message, bigEndianLength: false)
    var words = [UInt32](repeating: 0, count: 16)
    for block in stride(from: 0, to: bytes.count, by: 64) {
      load(bytes, block: block, bigEndian: false, into: &words)
      var (a, b, c, d) = (a0, b0, c0, d0)
      for round in 0..<64 {
        var f: UInt32
        let g: Int
        switch round {
        case 0..<16:
          f = (b & c) | (~b & d)
          g = round
        case 16..<32:
          f = (d & b) | (~d & c)
          g = (5 * round + 1) % 16
        case 32..<48:
          f = b ^ c ^ d
          g = (3 * round + 5) % 16
        default:
          f = c ^ (b | ~d)
          g = (7 * round) % 16
        }
        f = f &+ a &+ constants[round] &+ words[g]
        a = d
        d = c
        c = b
        b = b &+ rotateLeft(f, shifts[round])
      }
      a0 = a0 &+ a
      b0 = b0 &+ b
      c0 = c0 &+ c
      d0 = d0 &+ d
    }
    return [a0, b0, c0, d0].flatMap { word in
      (0..<4).map { UInt8(truncatingIfNeeded: word >> (UInt32($0) * 8)) }
    }
  }

  /// The SHA-1 digest of `message` (20 bytes).
  static func sha1(_ message: [UInt8]) -> [UInt8] {
    var h: [UInt32] = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476, 0xc3d2_e1f0]
    let bytes = padded(message, bigEndianLength: true)
    var words = [UInt32](repeating: 0, count: 80)
    for block in stride(from: 0, to: bytes.count, by: 64) {
      load(bytes, block: block, bigEndian: true, into: &words)
      for index in 16..<80 {
        words[index] = rotateLeft(
          words[index - 3] ^ words[index - 8] ^ words[index - 14] ^ words[index - 16], 1)
      }
      var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
      for index in 0..<80 {
        let (f, k): (UInt32, UInt32)
        switch index {
        case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5a82_7999)
        case 20..<40: (f, k) = (b ^ c ^ d, 0x6ed9_eba1)
        case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8f1b_bcdc)
        default: (f, k) = (b ^ c ^ d, 0xca62_c1d6)
        }
        let next = rotateLeft(a, 5) &+ f &+ e &+ k &+ words[index]
        e = d
        d = c
        c = rotateLeft(b, 30)
        b = a
        a = next
      }
      h[0] = h[0] &+ a
      h[1] = h[1] &+ b
      h[2] = h[2] &+ c
      h[3] = h[3] &+ d
      h[4] = h[4] &+ e
    }
    return h.flatMap { word in
      (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - UInt32($0) * 8)) }
    }
  }

  /// The 16 words of the 64-byte block at `offset` into `words`, each of 4 bytes in the
  /// given order.
  private static func load(
    _ bytes: [UInt8], block offset: Int, bigEndian: Bool, into words: inout [UInt32]
  ) {
    for index in 0..<16 {
      var word: UInt32 = 0
      for position in 0..<4 {
        let byte = UInt32(bytes[offset + index * 4 + position])
        word |= byte << (bigEndian ? 24 - 8 * UInt32(position) : 8 * UInt32(position))
      }
      words[index] = word
    }
  }

  private static func rotateLeft(_ value: UInt32, _ count: UInt32) -> UInt32 {
    (value << count) | (value >> (32 - count))
  }
}
