/// Random strings for tests that check a fast path against the rule it stands for.
enum RandomText {
  /// Up to `maximumLength` pieces of `alphabet` (characters or longer), joined.
  static func string(from alphabet: [String], maximumLength: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    let length = Int.random(in: 0...maximumLength, using: &generator)
    return (0..<length).map { _ in
      alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
    }.joined()
  }

  /// `string(from:maximumLength:)` over the characters of `characters`.
  static func string(of characters: String, maximumLength: Int) -> String {
    string(from: characters.map(String.init), maximumLength: maximumLength)
  }
}
