import D2SModel

extension ListColumns {
  /// The name of a list's plan, and what it was made from: kept by the connection with the
  /// entity, as a list's next page is named by the same keys, looks and formatters.
  final class PlanName {
    let keys: [String]
    let looks: LookRegistry
    let formatters: FormatterRegistry
    let version: Int
    let name: String

    private init(
      keys: [String], looks: LookRegistry, formatters: FormatterRegistry, version: Int,
      name: String
    ) {
      self.keys = keys
      self.looks = looks
      self.formatters = formatters
      self.version = version
      self.name = name
    }

    /// The name of the plan of `entity`'s list of `keys` in `environment`: what it depends on
    /// besides the keys its rules read (the entity, the looks and the formatters, as
    /// registered). The name last made for the entity is looked up in `kept`, and kept there.
    static func of(
      _ entity: Entity, keys: [String], environment: RenderEnvironment, kept: KeptObjects?
    ) -> String {
      let looks = environment.looks
      let formatters = environment.formatters
      let version = formatters.version
      // Read in place: a name is never changed, so pages share it.
      if let last = kept?.object(for: entity) as? PlanName, last.looks === looks,
        last.formatters === formatters, last.version == version, last.keys == keys
      {
        return last.name
      }
      let name =
        "ListColumns/\(entity.ruleCacheIdentity)/\(ObjectIdentifier(looks).hashValue)/"
        + "\(ObjectIdentifier(formatters).hashValue)/\(version)/"
        + keys.joined(separator: "\u{0}")
      kept?.keep(
        PlanName(
          keys: keys, looks: looks, formatters: formatters, version: version, name: name),
        for: entity)
      return name
    }
  }
}
