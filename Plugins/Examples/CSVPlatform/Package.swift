// swift-tools-version:6.0
// A platform: `--format csv` (or `platform = 'csv'` in rules) renders list pages as CSV.
import PackageDescription

let package = Package(
  name: "CSVPlatform",
  platforms: [.macOS(.v15)],
  products: [.library(name: "CSVPlatform", targets: ["CSVPlatform"])],
  dependencies: [.package(name: "D2S", path: "../../..")],
  targets: [.target(name: "CSVPlatform", dependencies: [.product(name: "Plugins", package: "D2S")])]
)
