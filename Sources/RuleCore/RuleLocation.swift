import Synchronization

#if canImport(Runtime)
  import Runtime
#endif

/// Where a rule was written: for a rule in Swift, the `FILE:LINE` of the `=>` (or `<=`) that
/// made it.
///
/// Swift operators cannot take `#filePath` and `#line`, so the DSL captures the return
/// address of its operator call (a few machine words) and turns it into a source line from the
/// program's debug information only when asked (an error message, or a tool such as `explain`). Without debug
/// information the place is unknown; ``DSLRule/priority(_:file:line:)`` always records it.
public final class RuleLocation: Sendable, CustomStringConvertible {
  private enum Place {
    case known(file: String, line: Int)
    #if canImport(Runtime)
      case captured(Backtrace)
    #endif
    case unknown
  }
  private let place: Mutex<Place>

  /// A known place.
  public init(file: String, line: Int) {
    place = Mutex(.known(file: file, line: line))
  }

  private init(place: Place) { self.place = Mutex(place) }

  /// The place of the code that called the DSL operator calling this.
  @inline(never)
  static func captureCaller() -> RuleLocation {
    #if canImport(Runtime)
      if let backtrace = try? Backtrace.capture(limit: 8, top: 0) {
        return RuleLocation(place: .captured(backtrace))
      }
    #endif
    return RuleLocation(place: .unknown)
  }

  /// The source file, or nil when unknown.
  public var file: String? { resolved?.file }
  /// The source line, or nil when unknown.
  public var line: Int? { resolved?.line }

  /// `File.swift:12`, or `an unknown line` without debug information.
  public var description: String {
    guard let (file, line) = resolved else {
      return "an unknown line (build with debug information to see it)"
    }
    return "\(file):\(line)"
  }

  private var resolved: (file: String, line: Int)? {
    place.withLock { place in
      switch place {
      case .known(let file, let line): return (file, line)
      case .unknown: return nil
      #if canImport(Runtime)
        case .captured(let backtrace):
          guard let found = RuleLocation.firstCallerOutsideTheDSL(backtrace) else {
            place = .unknown
            return nil
          }
          place = .known(file: found.file, line: found.line)
          return found
      #endif
      }
    }
  }

  #if canImport(Runtime)
    /// The source line of the first frame (inlined ones included) outside RuleCore: the code
    /// that wrote the rule. Nil when that frame has no debug information.
    private static func firstCallerOutsideTheDSL(_ backtrace: Backtrace) -> (
      file: String, line: Int
    )? {
      guard
        let symbolicated = backtrace.symbolicated(options: [
          .showInlineFrames, .showSourceLocations,
        ])
      else { return nil }
      let ownFolder = String(#filePath.dropLast("RuleLocation.swift".count))
      for frame in symbolicated.frames {
        let location = frame.symbol?.sourceLocation
        if let location, location.path.hasPrefix(ownFolder) { continue }
        if location == nil, frame.symbol?.rawName.hasPrefix("$s8RuleCore") ?? true { continue }
        guard let location, location.line > 0 else { return nil }
        return (location.path, location.line)
      }
      return nil
    }
  #endif
}
