// swift-tools-version:6.0
// Coverage-guided fuzzing of D2S's parsers with libFuzzer: `make fuzz` (see Fuzz/README.md).
// A package of its own, so that `-sanitize=fuzzer` and `-parse-as-library` never reach the
// executables of the main package; build it with `--scratch-path .build-fuzz`.
import PackageDescription

let package = Package(
  name: "D2SFuzz",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "D2S", path: "..")],
  targets: [
    .executableTarget(
      name: "d2s-fuzz",
      dependencies: [
        .product(name: "D2SREPL", package: "D2S"),
        .product(name: "Components", package: "D2S"),
        .product(name: "D2SModel", package: "D2S"),
        .product(name: "Qualifiers", package: "D2S"),
        .product(name: "RuleCore", package: "D2S"),
        .product(name: "EnvKeys", package: "D2S"),
        .product(name: "D2SWeb", package: "D2S"),
        .product(name: "D2STesting", package: "D2S"),
      ],
      // libFuzzer provides `main`; the whole graph gets `-sanitize=fuzzer` from the command
      // line (`-Xswiftc`), so that the code under test is instrumented too.
      swiftSettings: [.unsafeFlags(["-parse-as-library"])],
      linkerSettings: [.unsafeFlags(["-sanitize=fuzzer"])])
  ]
)
