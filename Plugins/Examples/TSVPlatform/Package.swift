// swift-tools-version:6.0
// A platform: `--format tsv` (or `platform = 'tsv'` in rules) renders pages as TSV.
import PackageDescription

let package = Package(
  name: "TSVPlatform",
  platforms: [.macOS(.v15)],
  products: [.library(name: "TSVPlatform", targets: ["TSVPlatform"])],
  dependencies: [.package(name: "D2S", path: "../../..")],
  targets: [.target(name: "TSVPlatform", dependencies: [.product(name: "Plugins", package: "D2S")])]
)
