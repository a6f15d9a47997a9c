import D2SModel
import EnvKeys
import Foundation
import RuleCore

/// The named computations the default rules use (`@prettyPropertyKey` …): D2W's
/// *DefaultAssignments*. Each reads the context through its typed keys, so lookups record what
/// the answer depends on.
public enum D2SComputations {
  /// Registers every builtin computation in `computations`.
  public static func register(in computations: RuleComputations) {
    computations.register("model") { $0.database?.model ?? Model.empty }
    // A property key names an attribute or a relationship, never both.
    computations.declareExclusive(["attribute", "relationship"])
    computations.register("attributeForPropertyKey") { context in
      sendableOptional(context.entity?.attribute(named: context.propertyKey))
    }
    computations.register("relationshipForPropertyKey") { context in
      sendableOptional(context.entity?.relationship(named: context.propertyKey))
    }
    computations.register("propertyValue") { context in
      guard let object = context.object else { return AnySendableValue(nil) }
      // Read once: a read inside a look-up records the key as an input of the answer.
      let key = context.propertyKey
      guard !key.isEmpty else { return AnySendableValue(nil) }
      // An attribute's value straight from the object (an inspect page asks for each row's),
      // as `value(forKeyPath:)` gives it for a name without a dot.
      if !key.utf8.contains(UInt8(ascii: ".")),
        let value = object.databaseValue(forAttribute: key)
      {
        guard let plain = PropertyValues.sendable(plain: value) else {
          return PropertyValues.sendable(value.anyValue) ?? AnySendableValue(nil)
        }
        return plain ?? AnySendableValue(nil)
      }
      return PropertyValues.sendable(object.value(forKeyPath: key)) ?? AnySendableValue(nil)
    }
    computations.register("userEntity") { context in
      sendableOptional(try UserEntity.findReading(in: context.model))
    }
    computations.register("objectDefaultTitle") { $0.object?.defaultTitle }
    computations.register("prettyPropertyKey") { prettify($0.propertyKey) }
    computations.register("visibleEntityNames") {
      $0.model.entities.filter { !$0.isInternal }.map(\.name).sorted()
    }
    computations.register("isEntityReadOnly") { context in
      guard let entity = context.entity else { return false }
      return entity.isReadOnly || context.readOnlyEntityNames.contains(entity.name)
        || context.database?.readOnlyReason != nil
    }
    computations.register("listPropertyKeys") { context in
      guard let entity = context.entity else { return [String]() }
      return listPropertyKeys(of: entity)
    }
    computations.register("inspectPropertyKeys") { context in
      guard let entity = context.entity else { return [String]() }
      let hidden = entity.foreignKeyAttributeNames
      // A link table's to-many gives way to the many-to-many flattened through it (`actors`
      // for `filmActors`); it can still be followed by name.
      let linked = Set(
        entity.relationships.compactMap { $0.isFlattened ? $0.definition.first : nil })
      return entity.attributes.map(\.name).filter { !hidden.contains($0) }
        + entity.relationships.map(\.name).filter { !linked.contains($0) }
    }
    computations.register("editPropertyKeys") { context in
      guard let entity = context.entity else { return [String]() }
      let hidden = entity.foreignKeyAttributeNames
      // Generated columns are computed by the database, a rowid assigned by it: never
      // offered for editing.
      return entity.attributes.filter { !$0.isGenerated && !$0.isRowID }.map(\.name)
        .filter { !hidden.contains($0) }
        + entity.toOneRelationships.map(\.name)
    }
  }

  /// What identifies a row in a list, as Django admin and Datasette show it: the attributes
  /// less a surrogate key (`id`, a rowid), which stays hidden, and each to-one by its title
  /// where its foreign key is (`Rental`: `rentalDate`, `inventory`, `customer`, …).
  static func listPropertyKeys(of entity: Entity) -> [String] {
    let surrogate = Set(
      entity.primaryKeyAttributes.filter { $0.name == "id" || $0.isRowID }.map(\.name))
    let foreign = entity.foreignKeyAttributeNames
    let toOnes = entity.toOneRelationships.filter { !$0.isFlattened && !$0.joins.isEmpty }
    var placed = Set<String>()
    var keys: [String] = []
    for attribute in entity.attributes {
      let starting = toOnes.filter {
        $0.joins.first?.source == attribute.name && !placed.contains($0.name)
      }
      if !starting.isEmpty {
        keys += starting.map(\.name)
        placed.formUnion(starting.map(\.name))
      } else if !foreign.contains(attribute.name), !surrogate.contains(attribute.name) {
        keys.append(attribute.name)
      }
    }
    return keys + toOnes.map(\.name).filter { !placed.contains($0) }
  }

  /// `lastName` → `Last Name`, `customerID` → `Customer ID`, `id` → `Id`, `URLPath` →
  /// `URL Path`, `address.phone` → `Address Phone`, `first_name` → `First Name`.
  public static func prettify(_ key: String) -> String {
    var words: [String] = []
    for component in key.split(whereSeparator: { $0 == "." || $0 == "_" || $0 == " " }) {
      let chars = Array(component)
      var word = ""
      for (index, c) in chars.enumerated() {
        if index > 0, c.isUppercase {
          let previous = chars[index - 1]
          let next = index + 1 < chars.count ? chars[index + 1] : nil
          if !previous.isUppercase || (next?.isLowercase ?? false) {
            words.append(word)
            word = ""
          }
        }
        word.append(c)
      }
      words.append(word)
    }
    return words.filter { !$0.isEmpty }.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(
      separator: " ")
  }
}

/// An optional model object as a computation result: nil stays nil (so optional keys get nil).
func sendableOptional<T: Sendable>(_ value: T?) -> (any Sendable)? {
  value.map { $0 as any Sendable }
}
