import Foundation

/// A failure of the browser test's own steps (WebDriver, chromedriver).
struct BrowserError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
