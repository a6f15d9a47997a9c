// swift-tools-version:6.0
// A REPL built for the four example plugins, with tests: a transcript of the rating editor and
// the compact look, and an example of unit-testing custom rules with D2STesting.
import PackageDescription

let package = Package(
  name: "DVDStoreREPL",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "D2S", path: "../../.."),
    .package(path: "../AuditKeys"),
    .package(path: "../RatingComponents"),
    .package(path: "../CompactLook"),
    .package(path: "../TSVPlatform"),
  ],
  targets: [
    .executableTarget(
      name: "dvd-repl",
      dependencies: [
        .product(name: "D2SREPL", package: "D2S"), "AuditKeys", "RatingComponents", "CompactLook",
        "TSVPlatform",
      ]),
    .testTarget(
      name: "DVDStoreREPLTests",
      dependencies: [
        .product(name: "D2S", package: "D2S"), .product(name: "D2SREPL", package: "D2S"),
        .product(name: "D2STesting", package: "D2S"),
        "AuditKeys", "RatingComponents", "CompactLook", "TSVPlatform",
      ]),
  ]
)
