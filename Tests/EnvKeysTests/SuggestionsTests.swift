import EnvKeys
import Testing

/// The one "did you mean": closest first, a prefix of what was typed is not close.
@Suite struct SuggestionsTests {
  let components = [
    "Edit", "EditLargeString", "EditString", "EditNumber", "EditDate", "DisplayString",
  ]

  @Test func aTypoFindsTheNameNotItsPrefix() {
    #expect(Suggestions.closest(to: "EditLargeStrng", among: components) == ["EditLargeString"])
    #expect(Suggestions.closest(to: "EditStirng", among: components) == ["EditString"])
  }

  @Test func whatWasTypedMayBeginANameAndCaseIsIgnored() {
    #expect(Suggestions.closest(to: "editd", among: components) == ["EditDate"])
    #expect(
      Suggestions.closest(to: "Edit", among: components) == [
        "Edit", "EditDate", "EditLargeString",
      ],
      "names it begins, sorted, three at most")
    #expect(Suggestions.closest(to: "titel", among: ["title", "tile", "total"]) == ["title"])
  }

  @Test func farNamesAreNotOffered() {
    #expect(Suggestions.closest(to: "payment", among: ["actor", "film"]).isEmpty)
    #expect(Suggestions.closest(to: "", among: components).isEmpty)
  }
}
