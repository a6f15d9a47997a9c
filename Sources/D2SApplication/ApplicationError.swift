/// A request the application cannot carry out, in words a person can act on (`no entity
/// named Flim (did you mean Film?)`). Every front end shows its message as it is.
public struct ApplicationError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What went wrong.
  public var message: String
  /// An error saying `message`.
  public init(_ message: String) { self.message = message }
  /// The message.
  public var description: String { message }
}
