/// The attributes that title an entity's objects, chosen as a person would. Names compare
/// case-insensitively, with underscores and spaces ignored; only text attributes that are
/// neither keys nor passwords take part. In this order:
///
/// 1. `name`, `fullName` or `displayName`;
/// 2. `<entity>Name` or `<entity>` itself, with the entity's name as it is or singularised
///    (`productName` in `Products`, `address` in `Address`), else `companyName`;
/// 3. first and last name together (`first_?name`, `last_?name`), shown as "First Last";
/// 4. `title`, unless the entity also has first and last names (then it is a job title);
/// 5. the first other text attribute, except names ending in `code` or `id`, starting with
///    `contact` or `address`, and `email`, `phone`, `fax`.
///
/// Each choice is a list of attributes shown together; an object whose choice is empty falls
/// back on the next one.
public enum TitleAttributes {
  /// The choices in order, each a list of attribute names (two for first and last name).
  public static func choices(
    attributes: [Attribute], entityName: String, keys: Set<String>
  ) -> [[String]] {
    let candidates = attributes.filter {
      $0.valueType == .string && !$0.isPassword && !keys.contains($0.name)
    }
    let normalizedNames = candidates.map { normalized($0.name) }
    func named(_ names: Set<String>) -> Attribute? {
      normalizedNames.firstIndex(where: names.contains).map { candidates[$0] }
    }
    var choices: [[String]] = []
    func add(_ attributes: [Attribute?]) {
      let names = attributes.compactMap { $0?.name }
      if names.count == attributes.count, !names.isEmpty, !choices.contains(names) {
        choices.append(names)
      }
    }
    add([named(Self.nameWords)])
    let entity = Inflection.singularCandidates(entityName).map(normalized)
    add([named(Set(entity.map { $0 + "name" }))])
    add([named(Set(entity))])
    add([named(Self.companyWords)])
    let first = named(Self.firstNameWords)
    let last = named(Self.lastNameWords)
    add([first, last])
    let isPerson = first != nil && last != nil
    if !isPerson { add([named(Self.titleWords)]) }
    for (attribute, name) in zip(candidates, normalizedNames)
    where isPlainText(name) && !(isPerson && name == "title") {
      add([attribute])
    }
    return choices
  }

  private static let nameWords: Set<String> = ["name", "fullname", "displayname"]
  private static let companyWords: Set<String> = ["companyname"]
  private static let firstNameWords: Set<String> = ["firstname"]
  private static let lastNameWords: Set<String> = ["lastname"]
  private static let titleWords: Set<String> = ["title"]

  /// Lower case, without underscores and spaces.
  static func normalized(_ name: some StringProtocol) -> String {
    // ASCII names (nearly all) by byte; others by Character.
    guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
      return name.lowercased().filter { $0 != "_" && $0 != " " }
    }
    let bytes = name.utf8.compactMap { byte -> UInt8? in
      switch byte {
      case UInt8(ascii: "_"), UInt8(ascii: " "): nil
      case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
      default: byte
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Not a code, an identifier, a contact's or an address's detail.
  static func isPlainText(_ name: String) -> Bool {
    !(name.hasSuffix("code") || name.hasSuffix("id") || name.hasPrefix("contact")
      || name.hasPrefix("address")
      || name.hasPrefix("email") || ["phone", "fax"].contains(name))
  }
}
