import Foundation

/// What time it is, as a dependency (`@Dependency(\.clock)`): the system's, or a fixed one
/// in a test.
public struct WallClock: Sendable {
  private let read: @Sendable () -> Date

  /// A clock that tells the time `read` gives.
  public init(_ read: @escaping @Sendable () -> Date) {
    self.read = read
  }

  /// The time now.
  public var now: Date { read() }

  /// The system's clock.
  public static let system = WallClock { Date() }

  /// A clock that always says `date`.
  public static func fixed(_ date: Date) -> WallClock {
    WallClock { date }
  }
}

/// The key of ``DependencyValues/clock``.
public enum WallClockKey: DependencyKey {
  /// The system's clock.
  public static let liveValue = WallClock.system
}

extension DependencyValues {
  /// What time it is: for saves' timestamps, sessions' and forms' expiry.
  public var clock: WallClock {
    get { self[WallClockKey.self] }
    set { self[WallClockKey.self] = newValue }
  }
}
