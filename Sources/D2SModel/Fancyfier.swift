/// Friendly names for catalog names (upstream ZeeQL's rules): `film_actor` → `FilmActor`,
/// `last_name` → `lastName`, `CustomerID` → `customerID`, `ID` → `id`.
public enum Fancyfier {
  /// The words of a name: split at anything but a letter or a digit (`_`, spaces, dots,
  /// symbols), so that a name is always a plain key path component; a word in all capitals
  /// is lower-cased.
  static func words(_ name: String) -> [String] {
    // ASCII names take ``asciiName(_:lowerFirst:)``; this is the rule for all others.
    return name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { word in
      let text = String(word)
      let letters = text.filter(\.isLetter)
      return !letters.isEmpty && letters.allSatisfy(\.isUppercase) ? text.lowercased() : text
    }
  }

  /// For an ASCII name (nearly all), in one pass over its bytes, what ``words(_:)`` and then
  /// capitalising every word give (`lowerFirst`: but the first, whose first letter is lowered):
  /// `entityName` and `propertyName` for the names a catalog has. Empty when the name has no
  /// word; nil when it is not ASCII.
  static func asciiName(_ name: String, lowerFirst: Bool) -> String? {
    let bytes = name.utf8
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
    func isUpper(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) }
    func isLower(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) }
    func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var word: [UInt8] = []
    func finishWord() {
      guard !word.isEmpty else { return }
      // A word in all capitals (with at least one letter) is lower-cased first.
      let hasLetter = word.contains { isUpper($0) || isLower($0) }
      if hasLetter, !word.contains(where: isLower) {
        for index in word.indices where isUpper(word[index]) { word[index] += 32 }
      }
      let first = word[0]
      if lowerFirst, out.isEmpty {
        out.append(isUpper(first) ? first + 32 : first)
      } else {
        out.append(isLower(first) ? first - 32 : first)
      }
      out.append(contentsOf: word.dropFirst())
      word.removeAll(keepingCapacity: true)
    }
    for byte in bytes {
      if isUpper(byte) || isLower(byte) || isDigit(byte) {
        word.append(byte)
      } else {
        finishWord()
      }
    }
    finishWord()
    return String(decoding: out, as: UTF8.self)
  }

  static func capitalized(_ word: String) -> String {
    if let cased = asciiFirstLetter(of: word, upper: true) { return cased }
    guard let first = word.first else { return word }
    return first.uppercased() + String(word.dropFirst())
  }

  static func lowerFirst(_ word: String) -> String {
    if let cased = asciiFirstLetter(of: word, upper: false) { return cased }
    guard let first = word.first else { return word }
    return first.lowercased() + String(word.dropFirst())
  }

  /// `word` with its first letter in upper or lower case, by byte, when its first two bytes
  /// are ASCII (so no combining mark joins the letter): unchanged when it starts with
  /// anything but a letter of the other case. Nil when the bytes are not ASCII. (A
  /// Character's case mapping and Substring appends are Unicode and generic paths.)
  private static func asciiFirstLetter(of word: String, upper: Bool) -> String? {
    guard let first = word.utf8.first, first < 0x80, word.utf8.dropFirst().first ?? 0 < 0x80
    else { return nil }
    let from = upper ? UInt8(ascii: "a") : UInt8(ascii: "A")
    guard first >= from, first <= from + 25 else { return word }
    var bytes = Array(word.utf8)
    bytes[0] = upper ? first - 32 : first + 32
    return String(decoding: bytes, as: UTF8.self)
  }

  /// An entity name: UpperCamelCase (`film_actor` → `FilmActor`, `Order Details` →
  /// `OrderDetails`, `Album` stays).
  public static func entityName(_ table: String) -> String {
    if let name = asciiName(table, lowerFirst: false) { return name.isEmpty ? "Table" : name }
    let parts = words(table)
    guard !parts.isEmpty else { return "Table" }
    return parts.map(capitalized).joined()
  }

  /// A property name: lowerCamelCase (`last_name` → `lastName`, `FirstName` → `firstName`,
  /// `CustomerID` → `customerID`, `ID` → `id`).
  public static func propertyName(_ column: String) -> String {
    if let name = asciiName(column, lowerFirst: true) { return name.isEmpty ? "column" : name }
    let parts = words(column)
    guard let head = parts.first else { return "column" }
    return lowerFirst(head) + parts.dropFirst().map(capitalized).joined()
  }

  /// The column name without an id suffix (`address_id` → `address`, `ArtistId` → `Artist`,
  /// `CustomerID` → `Customer`), or nil when it has none.
  public static func strippingIDSuffix(_ column: String) -> String? {
    for suffix in ["_id", "_ID", "_Id", "Id", "ID"]
    where column.hasSuffix(suffix) && column.count > suffix.count {
      return String(column.dropLast(suffix.count))
    }
    return nil
  }

  /// The plural of a lowerCamel name (`customer` → `customers`, `inventory` →
  /// `inventories`, `staff` → `staff`, `address` → `addresses`, `orderDetails` stays): see
  /// ``Inflection``.
  public static func plural(_ name: String) -> String { Inflection.plural(name) }

  /// `base`, else `base2`, `base3`, … — the first name not in `taken`.
  static func unique(_ base: String, in taken: Set<String>) -> String {
    if !taken.contains(base) { return base }
    var n = 2
    while taken.contains("\(base)\(n)") { n += 1 }
    return "\(base)\(n)"
  }
}
