// swift-tools-version:6.0
// Outside-API tests of the web front end, as a user's package would write them: a plugin's
// components (the RatingComponents example's stars) served in HTML by D2SWeb, with no HTML
// code in the plugin. (The example packages themselves do not link D2SWeb.)
import PackageDescription

let package = Package(
  name: "WebConsumer",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "D2S", path: ".."),
    .package(path: "../Plugins/Examples/RatingComponents"),
  ],
  targets: [
    .testTarget(
      name: "WebConsumerTests",
      dependencies: [
        .product(name: "D2SWeb", package: "D2S"), .product(name: "D2STesting", package: "D2S"),
        "RatingComponents",
      ])
  ]
)
