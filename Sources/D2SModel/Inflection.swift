/// English plurals and singulars of the last word of a camel-cased name, for relationship
/// names and title matching: `customer` → `customers`, `orderDetails` and `products` stay,
/// `status` → `statuses`, `analysis` → `analyses`, `salesPerson` → `salesPeople`.
public enum Inflection {
  /// Words with no separate plural (matched at the end of the last word: `metadata`).
  static let invariant = [
    "staff", "data", "info", "information", "equipment", "media", "series", "species", "news",
    "sheep", "fish",
    "deer", "feedback", "software", "hardware", "music", "personnel", "aircraft",
  ]
  /// Irregular plurals by singular.
  static let irregular = [
    "person": "people", "child": "children", "man": "men", "woman": "women", "mouse": "mice",
    "goose": "geese",
    "foot": "feet", "tooth": "teeth", "ox": "oxen", "criterion": "criteria",
    "phenomenon": "phenomena",
    "datum": "data", "medium": "media", "leaf": "leaves", "life": "lives", "wife": "wives",
    "knife": "knives",
    "half": "halves", "shelf": "shelves", "thief": "thieves",
  ]
  /// Plurals ending in `us` or `is`, which otherwise read as singular (`status`, `analysis`).
  static let pluralsLikeSingulars: Set<String> = [
    "menus", "emus", "gurus", "haikus", "skis", "taxis", "kiwis", "wikis",
  ]
  /// Singulars ending in `as` or `os`, which otherwise read as plural (`ideas`, `photos`).
  static let singularsLikePlurals: Set<String> = [
    "alias", "gas", "canvas", "atlas", "bias", "chaos", "ethos", "cosmos",
  ]

  /// The name split before its last word: `orderDetails` → (`order`, `Details`).
  static func lastWord(_ name: String) -> (head: Substring, word: Substring) {
    // By scalar, ASCII letters by range: Character's isUppercase is a Unicode table look-up.
    func isUppercase(_ scalar: Unicode.Scalar) -> Bool {
      scalar.isASCII ? ("A"..."Z").contains(scalar) : scalar.properties.isUppercase
    }
    let scalars = name.unicodeScalars
    var start: String.Index?
    var previousIsUppercase = true  // the first scalar never starts the last word
    for index in scalars.indices {
      let uppercase = isUppercase(scalars[index])
      if uppercase && !previousIsUppercase { start = index }
      previousIsUppercase = uppercase
    }
    guard let start else { return (name.prefix(0), Substring(name)) }
    return (name[..<start], name[start...])
  }

  /// Whether the last word of `name` is already plural (or has no plural).
  public static func isPlural(_ name: String) -> Bool {
    let word = lastWord(name).word.lowercased()
    if invariant.contains(where: { word.hasSuffix($0) }) || irregular.values.contains(word) {
      return true
    }
    if pluralsLikeSingulars.contains(word) { return true }
    if singularsLikePlurals.contains(word) { return false }
    if word.hasSuffix("ss") || word.hasSuffix("us") || word.hasSuffix("is") { return false }
    return word.hasSuffix("s") && word.count > 1
  }

  /// The plural of `name`'s last word; an already plural name is left as it is.
  public static func plural(_ name: String) -> String {
    if isPlural(name) { return name }
    let (head, word) = lastWord(name)
    let lower = word.lowercased()
    if let plural = irregular[lower] { return String(head) + matchingCase(plural, of: word) }
    if lower.hasSuffix("y"), let beforeY = lower.dropLast().last, !"aeiou".contains(beforeY) {
      return String(name.dropLast()) + "ies"
    }
    if lower.hasSuffix("is") { return String(name.dropLast(2)) + "es" }  // analysis → analyses
    for ending in ["s", "x", "z", "ch", "sh"] where lower.hasSuffix(ending) { return name + "es" }
    return name + "s"
  }

  /// The singulars `name` may stand for, itself first (`categories` → `categories`,
  /// `category`, …): generous, for matching against names that exist.
  public static func singularCandidates(_ name: String) -> [String] {
    var candidates = [name]
    let (head, word) = lastWord(name)
    let lower = word.lowercased()
    if let singular = irregular.first(where: { $0.value == lower })?.key {
      candidates.append(String(head) + matchingCase(singular, of: word))
    }
    if lower.hasSuffix("ies") { candidates.append(String(name.dropLast(3)) + "y") }
    if lower.hasSuffix("es") { candidates.append(String(name.dropLast(2))) }
    if lower.hasSuffix("s") { candidates.append(String(name.dropLast())) }
    return candidates
  }

  /// `replacement` with the first letter's case of `word` (`Person` → `People`).
  static func matchingCase(_ replacement: String, of word: Substring) -> String {
    guard let first = word.first, first.isUppercase else { return replacement }
    return replacement.prefix(1).uppercased() + replacement.dropFirst()
  }
}
