/// Text in lower case, letter by letter, as databases fold it for `ilike`: each scalar's
/// lowercase mapping, its first scalar where the mapping is longer, and no context. So `İ`
/// (U+0130) folds to `i`, as PostgreSQL's `lower()` folds it (`String.lowercased()` gives `i`
/// and a combining dot, which `istanbul` does not match), and a final `Σ` folds to `σ`.
public enum CaseFold {
  /// `text` folded; ASCII text through the standard library's own fast path.
  public static func lowercased(_ text: String) -> String {
    if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
    var folded = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if scalar.properties.changesWhenLowercased,
        let first = scalar.properties.lowercaseMapping.unicodeScalars.first
      {
        folded.append(first)
      } else {
        folded.append(scalar)
      }
    }
    return String(folded)
  }
}
