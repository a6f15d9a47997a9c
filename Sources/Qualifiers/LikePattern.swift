import EnvKeys

/// A `like` pattern: `*` matches any run of characters, `?` exactly one, anywhere in the
/// pattern; `\*`, `\?` and `\\` match the characters themselves (another backslash is
/// itself). Text is compared code point by code point, as SQLite's GLOB and PostgreSQL's
/// `LIKE` compare it: `?` is one code point, and a precomposed `é` is not an `e` and a
/// combining accent.
public struct LikePattern: Sendable, Hashable {
  enum Element: Hashable, Sendable {
    case scalar(Unicode.Scalar)
    case anyOne
    case anyRun
  }
  let elements: [Element]
  let caseInsensitive: Bool

  /// Compiles `pattern`; with `caseInsensitive` (for `ilike`) letters match in any case.
  public init(_ pattern: String, caseInsensitive: Bool = false) {
    self.caseInsensitive = caseInsensitive
    let source = Array((caseInsensitive ? CaseFold.lowercased(pattern) : pattern).unicodeScalars)
    var elements: [Element] = []
    var i = 0
    while i < source.count {
      let c = source[i]
      if c == "\\", i + 1 < source.count,
        source[i + 1] == "*" || source[i + 1] == "?" || source[i + 1] == "\\"
      {
        elements.append(.scalar(source[i + 1]))
        i += 2
        continue
      }
      switch c {
      case "*": if elements.last != .anyRun { elements.append(.anyRun) }
      case "?": elements.append(.anyOne)
      default: elements.append(.scalar(c))
      }
      i += 1
    }
    self.elements = elements
  }

  /// Whether `text` matches the whole pattern.
  public func matches(_ text: String) -> Bool {
    let chars = Array((caseInsensitive ? CaseFold.lowercased(text) : text).unicodeScalars)
    // Greedy matching with backtracking to the last `*` (linear in practice).
    var t = 0
    var p = 0
    var starP = -1
    var starT = 0
    while t < chars.count {
      if p < elements.count {
        switch elements[p] {
        case .anyRun:
          starP = p
          starT = t
          p += 1
          continue
        case .anyOne:
          t += 1
          p += 1
          continue
        case .scalar(let c) where c == chars[t]:
          t += 1
          p += 1
          continue
        default: break
        }
      }
      guard starP >= 0 else { return false }
      p = starP + 1
      starT += 1
      t = starT
    }
    while p < elements.count, elements[p] == .anyRun { p += 1 }
    return p == elements.count
  }
}
