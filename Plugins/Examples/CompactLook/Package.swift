// swift-tools-version:6.0
// A look: one line per object on inspect and list pages; BasicLook for everything else.
import PackageDescription

let package = Package(
  name: "CompactLook",
  platforms: [.macOS(.v15)],
  products: [.library(name: "CompactLook", targets: ["CompactLook"])],
  dependencies: [.package(name: "D2S", path: "../../..")],
  targets: [.target(name: "CompactLook", dependencies: [.product(name: "Plugins", package: "D2S")])]
)
