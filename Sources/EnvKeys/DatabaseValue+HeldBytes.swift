extension DatabaseValue {
  /// How many bytes of text and data the value holds: a text's UTF-8, data's bytes, an array's
  /// or a list's items' (each one more, for its place); 0 for a number, a date or NULL.
  public var heldByteCount: Int {
    switch self {
    case .string(let text), .verbatim(let text): text.utf8.count
    case .data(let data), .textBytes(let data): data.count
    case .array(let texts): texts.reduce(0) { $0 + ($1?.utf8.count ?? 0) + 1 }
    case .list(let values): values.reduce(0) { $0 + $1.heldByteCount + 1 }
    default: 0
    }
  }
}
