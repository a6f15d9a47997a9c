import Foundation
import Plugins
import Testing

@Suite struct PluginResourcesTests {
  @Test func missingResourcesAreClearErrors() {
    let error = #expect(throws: PluginResourceError.self) {
      try PluginResources.url(of: "nothing.d2s", package: "Nope", target: "Nope")
    }
    #expect(
      error?.description.hasPrefix("cannot find the resource nothing.d2s (looked in ") == true)
    #expect(error?.description.contains("Nope_Nope.resources") == true)
  }
}
