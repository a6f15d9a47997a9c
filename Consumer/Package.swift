// swift-tools-version:6.0
// Outside-API tests, as a user's package would write them: a plugin's components (the
// RatingComponents example's stars) served in HTML by D2SWeb, with no HTML code in the plugin
// (the example packages themselves do not link D2SWeb); a new plugin's formatters, lint and
// resources as a newcomer meets them; and every Swift snippet of the README and the guides,
// compiled and run.
import PackageDescription

let package = Package(
  name: "WebConsumer",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "D2S", path: ".."),
    .package(path: "../Plugins/Examples/RatingComponents"),
    .package(path: "../Plugins/Examples/AuditKeys"),
    .package(path: "../Plugins/Examples/TSVPlatform"),
  ],
  targets: [
    .testTarget(
      name: "WebConsumerTests",
      dependencies: [
        .product(name: "D2SWeb", package: "D2S"), .product(name: "D2STesting", package: "D2S"),
        .product(name: "D2SModel", package: "D2S"), .product(name: "SQLiteAdaptor", package: "D2S"),
        .product(name: "D2SREPL", package: "D2S"), .product(name: "D2S", package: "D2S"),
        "RatingComponents",
      ]),
    // The Swift snippets of README.md and Documentation/*.md, compiled (and run when they are
    // statements) from a file Tests/D2STestingTests/DocumentationSnippetTests.swift generates.
    .testTarget(
      name: "SnippetTests",
      dependencies: [
        .product(name: "D2S", package: "D2S"), .product(name: "D2SWeb", package: "D2S"),
        .product(name: "D2STesting", package: "D2S"), .product(name: "D2SREPL", package: "D2S"),
        .product(name: "SQLiteAdaptor", package: "D2S"), "RatingComponents", "AuditKeys",
        "TSVPlatform",
      ]),
  ]
)
