// swift-tools-version:6.0
// A key package: new typed keys with their defaults and rules written in Swift, usable from
// text rules too.
import PackageDescription

let package = Package(
  name: "AuditKeys",
  platforms: [.macOS(.v15)],
  products: [.library(name: "AuditKeys", targets: ["AuditKeys"])],
  dependencies: [.package(name: "D2S", path: "../../..")],
  targets: [.target(name: "AuditKeys", dependencies: [.product(name: "D2S", package: "D2S")])]
)
