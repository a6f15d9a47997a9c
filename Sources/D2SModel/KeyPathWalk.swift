/// The one walk of a key path through a model's relationships, which ``PropertyPath``, the
/// SQL builder's joins and `EXISTS` subqueries, and prefetching all read.
public struct KeyPathWalk: Sendable {
  /// One relationship followed.
  public struct Step: Sendable {
    /// The relationship's name, as written in the path (or in a flattened one's definition).
    public let name: String
    /// The relationship.
    public let relationship: Relationship
    /// The entity it starts from.
    public let source: Entity
    /// The entity it leads to.
    public let destination: Entity
  }

  /// Why the walk stopped before the path's end.
  public enum Stop: Sendable {
    /// Every component was a relationship followed.
    case end
    /// A component that is no relationship of the entity reached (an attribute, or unknown).
    case notARelationship
    /// A to-many relationship, not followed (``Step`` is its would-be step).
    case toMany(Step)
    /// A relationship whose destination entity the model lacks.
    case missingDestination(String)
  }

  /// The relationships followed, in order.
  public let steps: [Step]
  /// The components after the last step followed (from the first one not followed); with
  /// `expandingFlattened`, a flattened relationship's definition stands in for its name.
  public let rest: ArraySlice<String>
  /// The entity reached: the last step's destination, or the root.
  public let owner: Entity
  /// Why the walk ended where it did.
  public let stop: Stop

  /// Follows the relationships `components` name from `root` as far as they go: to-one ones,
  /// and to-many ones too when `toMany` is true; a flattened many-to-many is walked as its
  /// definition through the link table when `expandingFlattened` is true.
  public init(
    _ components: some Collection<String>, from root: Entity, in model: Model,
    toMany: Bool = false, expandingFlattened: Bool = false
  ) {
    self.init(
      components, from: root, in: model, toMany: toMany, expandingFlattened: expandingFlattened,
      matching: { name, _ in name })
  }

  /// The same walk, with each component the property name `matching` says it means in the
  /// entity reached (a user's typing matched without regard to case, say); `matching` may
  /// throw to say none does.
  public init(
    _ components: some Collection<String>, from root: Entity, in model: Model,
    toMany: Bool = false, expandingFlattened: Bool = false,
    matching: (String, Entity) throws -> String
  ) rethrows {
    var pending = ArraySlice(components)
    var current = root
    var steps: [Step] = []
    var stop = Stop.end
    while let typed = pending.first {
      let name = try matching(typed, current)
      guard let relationship = current.relationship(named: name) else {
        stop = .notARelationship
        break
      }
      if expandingFlattened, relationship.isFlattened {
        pending = ArraySlice(relationship.definition + pending.dropFirst())
        continue
      }
      guard let destination = model.entity(named: relationship.destinationName) else {
        stop = .missingDestination(relationship.destinationName)
        break
      }
      let step = Step(
        name: name, relationship: relationship, source: current, destination: destination)
      if relationship.isToMany, !toMany {
        stop = .toMany(step)
        break
      }
      steps.append(step)
      pending = pending.dropFirst()
      current = destination
    }
    self.steps = steps
    self.rest = pending
    self.owner = current
    self.stop = stop
  }
}
