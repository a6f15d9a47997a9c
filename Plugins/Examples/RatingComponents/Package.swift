// swift-tools-version:6.0
// A component package: an editor for Sakila's film rating, a star display, a formatter.
import PackageDescription

let package = Package(
  name: "RatingComponents",
  platforms: [.macOS(.v15)],
  products: [.library(name: "RatingComponents", targets: ["RatingComponents"])],
  dependencies: [.package(name: "D2S", path: "../../..")],
  targets: [
    .target(
      name: "RatingComponents", dependencies: [.product(name: "Plugins", package: "D2S")],
      resources: [.copy("rating.d2s")])
  ]
)
