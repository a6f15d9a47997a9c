import EnvKeys
import Foundation

/// A value by its exact bits, for keeping what a formatter made of it
/// (``ListColumns``' plain columns): two values with the same key are the same value, down to
/// a zero's sign and a decimal's digits, so a formatter gives both the same text. Only values
/// of fixed size have one: text, bytes and arrays do not.
struct FormattedValueKey: Equatable {
  private let kind: UInt8
  private let bits: UInt64
  private let more: UInt64
  private let rest: UInt32

  /// The key of `value`, or nil for a value kept by no key.
  init?(_ value: DatabaseValue) {
    switch value {
    case .int(let number): (kind, bits, more, rest) = (1, UInt64(bitPattern: Int64(number)), 0, 0)
    case .double(let number): (kind, bits, more, rest) = (2, number.bitPattern, 0, 0)
    case .bool(let flag): (kind, bits, more, rest) = (3, flag ? 1 : 0, 0, 0)
    case .date(let date):
      (kind, bits, more, rest) = (4, date.timeIntervalSinceReferenceDate.bitPattern, 0, 0)
    case .decimal(let number):
      guard let (bits, more, rest) = Self.bits(of: number) else { return nil }
      (kind, self.bits, self.more, self.rest) = (5, bits, more, rest)
    default: return nil
    }
  }

  /// Where the key goes among `2^shift` slots (its fields mixed, the top bits taken).
  func slot(among shift: Int) -> Int {
    var mixed = bits ^ (more &* 0xC2B2_AE3D_27D4_EB4F) ^ (UInt64(rest) &* 0x1656_67B1_9E37_79F9)
    mixed ^= UInt64(kind) &* 0x27D4_EB2F_1656_67C5
    mixed = (mixed ^ (mixed >> 31)) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mixed >> UInt64(64 - shift))
  }

  /// A decimal's 20 bytes (its exponent, length and sign, then its mantissa's eight 16-bit
  /// words), or nil where `Decimal` is laid out otherwise.
  private static func bits(of number: Decimal) -> (UInt64, UInt64, UInt32)? {
    guard MemoryLayout<Decimal>.size == 20 else { return nil }
    return withUnsafeBytes(of: number) { raw in
      (
        raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
        raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self),
        raw.loadUnaligned(fromByteOffset: 16, as: UInt32.self)
      )
    }
  }
}

/// A formatter's texts by ``FormattedValueKey``, in a fixed number of slots: a key is kept in
/// its own slot or the next one (so two keys that share a slot are both kept), and a new one
/// takes the next slot from what was there. Looking one up costs two comparisons, not a hash,
/// making one touches no slot, and a long download's column holds no more than these. Used
/// by one thread at a time (a page's).
final class FormattedTexts {
  /// 64 slots, one bit each in the occupied mask.
  private static let shift = 6
  private static let mask = (1 << shift) - 1
  /// Which slots hold a key and its text (the rest are not initialized).
  private let occupied: UnsafeMutablePointer<UInt64>
  private let keys: UnsafeMutablePointer<FormattedValueKey>
  private let texts: UnsafeMutablePointer<String>

  init() {
    occupied = .allocate(capacity: 1)
    occupied.initialize(to: 0)
    keys = .allocate(capacity: Self.mask + 1)
    texts = .allocate(capacity: Self.mask + 1)
  }

  deinit {
    removeAll()
    occupied.deallocate()
    keys.deallocate()
    texts.deallocate()
  }

  /// Forgets every text kept.
  private func removeAll() {
    var held = occupied.pointee
    while held != 0 {
      let slot = held.trailingZeroBitCount
      (keys + slot).deinitialize(count: 1)
      (texts + slot).deinitialize(count: 1)
      held &= held - 1
    }
    occupied.pointee = 0
  }

  private func holds(_ slot: Int) -> Bool { occupied.pointee & (1 << UInt64(slot)) != 0 }

  /// The text kept for `key`, or nil.
  subscript(key: FormattedValueKey) -> String? {
    let first = key.slot(among: Self.shift)
    if holds(first), keys[first] == key { return texts[first] }
    let second = (first + 1) & Self.mask
    if holds(second), keys[second] == key { return texts[second] }
    return nil
  }

  /// Keeps `text` for `key`: in the key's slot when it is free or the key's, else in the next.
  func keep(_ text: String, for key: FormattedValueKey) {
    let first = key.slot(among: Self.shift)
    let slot = !holds(first) || keys[first] == key ? first : (first + 1) & Self.mask
    if holds(slot) {
      keys[slot] = key
      texts[slot] = text
    } else {
      (keys + slot).initialize(to: key)
      (texts + slot).initialize(to: text)
      occupied.pointee |= 1 << UInt64(slot)
    }
  }
}
