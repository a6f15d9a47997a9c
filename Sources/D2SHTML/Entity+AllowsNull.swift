import D2SModel

extension Entity {
  /// Whether the property `key` (an attribute, or a to-one by its foreign keys) may be NULL.
  package func allowsNull(_ key: String) -> Bool {
    if let attribute = attribute(named: key) { return attribute.allowsNull }
    guard let relationship = relationship(named: key) else { return false }
    return relationship.joins.allSatisfy { attribute(named: $0.source)?.allowsNull == true }
  }
}

extension Entity {
  /// Whether the property `key` (an attribute, or a to-one by its foreign keys) needs a value
  /// a save cannot make up (``Attribute/requiresValue``).
  package func requiresValue(_ key: String) -> Bool {
    if let attribute = attribute(named: key) { return attribute.requiresValue }
    guard let relationship = relationship(named: key), !relationship.isToMany else {
      return false
    }
    return relationship.joins.contains { attribute(named: $0.source)?.requiresValue == true }
  }
}
