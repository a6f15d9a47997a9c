// swift-tools-version:6.0
// A look: list and inspect pages as Markdown tables; BasicLook for everything else.
import PackageDescription

let package = Package(
  name: "MarkdownLook",
  platforms: [.macOS(.v15)],
  products: [.library(name: "MarkdownLook", targets: ["MarkdownLook"])],
  dependencies: [.package(name: "D2S", path: "../../..")],
  targets: [.target(name: "MarkdownLook", dependencies: [.product(name: "Plugins", package: "D2S")])]
)
