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
    add([named(["name", "fullname", "displayname"])])
    let entity = Inflection.singularCandidates(entityName).map(normalized)
    add([named(Set(entity.map { $0 + "name" }))])
    add([named(Set(entity))])
    add([named(["companyname"])])
    let first = named(["firstname"])
    let last = named(["lastname"])
    add([first, last])
    let isPerson = first != nil && last != nil
    if !isPerson { add([named(["title"])]) }
    for (attribute, name) in zip(candidates, normalizedNames)
    where isPlainText(name) && !(isPerson && name == "title") {
      add([attribute])
    }
    return choices
  }

  /// Lower case, without underscores and spaces.
  static func normalized(_ name: String) -> String {
    name.lowercased().filter { $0 != "_" && $0 != " " }
  }

  /// Not a code, an identifier, a contact's or an address's detail.
  static func isPlainText(_ name: String) -> Bool {
    !(name.hasSuffix("code") || name.hasSuffix("id") || name.hasPrefix("contact")
      || name.hasPrefix("address")
      || name.hasPrefix("email") || ["phone", "fax"].contains(name))
  }
}
