import D2SModel

extension ListColumns {
  /// Where each column's value is in a row and what a row holds: worked out from the rules'
  /// decisions (``ColumnPlan``), the entity and the model alone, so kept in the plan with them
  /// rather than worked out again for every page.
  struct Layout: Sendable {
    /// One column's place.
    struct Column: Sendable {
      /// Where the column's value is in a row (attributes first, then joined paths).
      let valueIndex: Int?
      /// The entity attribute the column shows, when its path is the attribute itself.
      let ownAttribute: String?
      /// Whether its cells are its value's text (no component per cell).
      let isPlainValue: Bool
      /// For a to-one shown by its title: where its foreign key is.
      let titles: Titles?
    }

    /// Where a to-one column's foreign key is, and what it matches.
    struct Titles: Sendable {
      let destination: Entity
      let destinationKeys: [String]
      let sources: [PropertyPath]
      let sourceIndexes: [Int]
    }

    let columns: [Column]
    /// The key paths read through joins, in row order after the attributes.
    let joinedPaths: [PropertyPath]
    /// Whether some column renders its component per cell (and so needs the row's object).
    let needsObjects: Bool
    /// The relationships those cells read, fetched a chunk of rows at a time.
    let prefetch: [String]
    /// The entity attributes a row holds when no cell needs an object (nil: all of them).
    let rowAttributes: [Attribute]?
    /// Where the primary key's values are in a row.
    let keyIndexes: [Int]
    /// The key attributes when the columns do not show them all (see
    /// ``ListColumns/hiddenKey``).
    let hiddenKey: [String]?

    /// The layout of `decided`'s columns of `entity`'s list.
    init(_ decided: [ColumnPlan.Column], entity: Entity, model: Model) {
      var joined: [PropertyPath] = []
      /// Where `path`'s value will be in a row: its own attribute's name, or a joined path's
      /// place among the joined paths (made absolute below, once the row's attributes are
      /// known).
      func place(_ path: PropertyPath) -> (own: String?, joined: Int?) {
        guard let attribute = path.attribute else { return (nil, nil) }
        if path.relationships.isEmpty { return (attribute.name, nil) }
        joined.append(path)
        return (nil, joined.count - 1)
      }
      struct Placed {
        let own: String?
        let joined: Int?
        let isPlainValue: Bool
        /// A to-one's titles: its destination, the keys matched and their sources' places.
        let titles: (ToOneTitlesPath, [(own: String?, joined: Int?)])?
        let needsObject: Bool
        let prefetch: String?
      }
      let placed = decided.map { column -> Placed in
        let path = column.path
        let isWholeColumn = !column.perCell
        let (own, joinedIndex) = path.map(place) ?? (nil, nil)
        let isPlainValue =
          (own != nil || joinedIndex != nil) && isWholeColumn && column.showsValue
        var titles: (ToOneTitlesPath, [(own: String?, joined: Int?)])?
        if isWholeColumn, column.showsTitle, let path,
          let found = ToOneTitlesPath(path, from: entity, in: model)
        {
          titles = (found, found.sources.map(place))
        }
        let needsObject = !isPlainValue && titles == nil
        var prefetch: String?
        if needsObject, let path, !path.relationships.isEmpty || path.attribute == nil {
          prefetch = path.keyPath
        }
        return Placed(
          own: own, joined: joinedIndex, isPlainValue: isPlainValue, titles: titles,
          needsObject: needsObject, prefetch: prefetch)
      }
      needsObjects = placed.contains { $0.needsObject }
      prefetch = placed.compactMap(\.prefetch)
      // Without objects a row holds only what is shown, and the key; with them, every
      // attribute. In column order, so that the statement is the same on every run.
      let keyNames = entity.primaryKeyAttributeNames
      var names: [String] = []
      let sourceNames = placed.flatMap { ($0.titles?.1 ?? []).compactMap(\.own) }
      for name in keyNames + placed.compactMap(\.own) + sourceNames where !names.contains(name) {
        names.append(name)
      }
      let attributes =
        needsObjects ? entity.attributes : names.compactMap { entity.attribute(named: $0) }
      rowAttributes = needsObjects ? nil : attributes
      func position(_ place: (own: String?, joined: Int?)) -> Int? {
        if let own = place.own { return attributes.firstIndex { $0.name == own } }
        return place.joined.map { attributes.count + $0 }
      }
      columns = placed.map { placed in
        Column(
          valueIndex: position((placed.own, placed.joined)), ownAttribute: placed.own,
          isPlainValue: placed.isPlainValue,
          titles: placed.titles.map { path, places in
            Titles(
              destination: path.destination, destinationKeys: path.destinationKeys,
              sources: path.sources, sourceIndexes: places.compactMap(position))
          })
      }
      keyIndexes = keyNames.compactMap { position(($0, nil)) }
      joinedPaths = joined
      let shown = placed.compactMap(\.own)
      hiddenKey = keyNames.isEmpty || keyNames.allSatisfy(shown.contains) ? nil : keyNames
    }
  }

  /// The to-one a column's path ends at, when its foreign key can be read from a row.
  struct ToOneTitlesPath {
    let destination: Entity
    /// The destination's attributes the foreign key matches.
    let destinationKeys: [String]
    /// Where the foreign key's values are: an attribute of the row's entity, or a path
    /// through the to-ones before the last (joined).
    let sources: [PropertyPath]

    init?(_ path: PropertyPath, from entity: Entity, in model: Model) {
      // To-ones all the way (a to-many stops the walk short).
      let walk = KeyPathWalk(path.relationships, from: entity, in: model)
      guard path.attribute == nil, walk.rest.isEmpty, let last = walk.steps.last,
        !last.relationship.isFlattened, !last.relationship.joins.isEmpty
      else { return nil }
      let through = path.relationships.dropLast()
      let relationship = last.relationship
      let sources = relationship.joins.compactMap { join in
        try? PropertyPath(
          (through + [join.source]).joined(separator: "."), from: entity, in: model)
      }
      guard sources.count == relationship.joins.count, sources.allSatisfy({ $0.attribute != nil })
      else { return nil }
      self.destination = last.destination
      self.destinationKeys = relationship.joins.map(\.destination)
      self.sources = sources
    }
  }
}
