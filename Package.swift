// swift-tools-version:6.2
import PackageDescription

// Release builds of the commands link Swift's runtime and Foundation into the binary, with
// `-static-stdlib`: no shared libraries to load nor symbols to bind at each start (d2s-repl's
// `-c entities` in 8 ms instead of 16), and direct calls into the runtime (d2s-serve's list
// page takes 12% less CPU). Foundation's own dependencies are named, since they are not
// linked on their own in this mode; the benchmark's baseline program is linked alike. Debug
// builds (the tests) use the shared libraries, which link faster.
let staticRuntime: [LinkerSetting] = [
  .unsafeFlags(
    [
      "-static-stdlib", "-lCoreFoundation", "-l_FoundationICU", "-l_FoundationCollections",
      "-l_FoundationCShims", "-lswiftSynchronization",
    ], .when(platforms: [.linux], configuration: .release))
]

let package = Package(
  name: "D2S",
  platforms: [.macOS(.v15)],
  products: [
    // The umbrella: rules, the Swift rule DSL, the model, components and plugins in one import.
    .library(name: "D2S", targets: ["D2S"]),
    .library(name: "EnvKeys", targets: ["EnvKeys"]),
    .library(name: "Qualifiers", targets: ["Qualifiers"]),
    .library(name: "RuleCore", targets: ["RuleCore"]),
    .library(name: "D2SModel", targets: ["D2SModel"]),
    .library(name: "SQLiteAdaptor", targets: ["SQLiteAdaptor"]),
    .library(name: "PostgreSQLAdaptor", targets: ["PostgreSQLAdaptor"]),
    .library(name: "Components", targets: ["Components"]),
    .library(name: "D2SHTML", targets: ["D2SHTML"]),
    .library(name: "Plugins", targets: ["Plugins"]),
    .library(name: "D2STesting", targets: ["D2STesting"]),
    .library(name: "D2SApplication", targets: ["D2SApplication"]),
    .library(name: "D2SREPL", targets: ["D2SREPL"]),
    .executable(name: "d2s-repl", targets: ["d2s-repl"]),
    .executable(name: "d2s-bench", targets: ["d2s-bench"]),
    .library(name: "D2SWeb", targets: ["D2SWeb"]),
    .executable(name: "d2s-serve", targets: ["d2s-serve"]),
    .library(name: "D2SMCP", targets: ["D2SMCP"]),
    .executable(name: "d2s-mcp", targets: ["d2s-mcp"]),
  ],
  dependencies: [
    // Logging for rule warnings now and SQL statements later (swift-log is the ecosystem's API).
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    // The d2s-repl command line.
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // d2s-serve's HTTP server (D2SWeb only: d2s-repl does not link it), and its in-process
    // route tests (HummingbirdTesting).
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    // Already in Hummingbird's graph: NIOCore for the bound port (`--port 0`).
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    // Already in Hummingbird's graph: NIO's HTTP/1 head before its conversion to HTTPTypes,
    // for the absolute-form target's authority and answers to heads the parser refuses.
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.34.1"),
    // Already in Hummingbird's graph: the service group the server, the pool and the rule
    // watcher run in (graceful shutdown on SIGTERM).
    .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
  ],
  targets: [
    // MARK: - C libraries (module maps only)
    .systemLibrary(
      name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
    // libpq's header only; CLibPQLoader defines its functions as trampolines that load libpq
    // on first use, so that starting d2s-repl on an SQLite file loads no PostgreSQL libraries.
    .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),
    .target(name: "CLibPQLoader", linkerSettings: [.linkedLibrary("dl")]),
    .systemLibrary(name: "CLibEdit", pkgConfig: "libedit", providers: [.apt(["libedit-dev"])]),
    // libedit's functions as trampolines that load it when the interactive REPL starts, so
    // that scripts never load it (nor libtinfo, libbsd and libmd).
    .target(name: "CLibEditLoader", linkerSettings: [.linkedLibrary("dl")]),

    // MARK: - Rules
    .target(name: "EnvKeys"),
    .target(name: "Qualifiers", dependencies: ["EnvKeys"]),
    .target(
      name: "RuleCore",
      dependencies: ["Qualifiers", .product(name: "Logging", package: "swift-log")]),

    // MARK: - Databases
    .target(
      name: "D2SModel",
      dependencies: ["Qualifiers", .product(name: "Logging", package: "swift-log")]),
    .target(
      name: "SQLiteAdaptor",
      dependencies: ["D2SModel", "CSQLite", .product(name: "Logging", package: "swift-log")]),
    .target(name: "PostgreSQLAdaptor", dependencies: ["D2SModel", "CLibPQ", "CLibPQLoader"]),

    // MARK: - Views
    .target(
      name: "Components", dependencies: ["RuleCore", "D2SModel"]),

    // HTML: the renderer of `platform = 'html'` and the one link builder of its pages, for
    // every front end (d2s-repl --format html prints what d2s-serve serves).
    .target(name: "D2SHTML", dependencies: ["Components"]),

    .target(name: "Plugins", dependencies: ["Components", "D2SHTML"]),

    // MARK: - Umbrella (`import D2S`)
    .target(
      name: "D2S",
      dependencies: ["EnvKeys", "Qualifiers", "RuleCore", "D2SModel", "Components", "Plugins"]),

    // MARK: - Testing support
    .target(
      name: "D2STesting",
      dependencies: [
        "D2SModel", "SQLiteAdaptor", "PostgreSQLAdaptor", "Plugins",
        .product(name: "Logging", package: "swift-log"),
      ]),

    // MARK: - The application every front end is made from
    .target(
      name: "D2SApplication",
      dependencies: ["Components", "Plugins", "SQLiteAdaptor", "PostgreSQLAdaptor"]),

    // MARK: - REPL
    .target(
      name: "D2SREPL",
      dependencies: [
        "D2SApplication", "Components", "Plugins", "SQLiteAdaptor", "PostgreSQLAdaptor",
        "CLibEditLoader",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),

    // MARK: - Web (d2s-serve)
    .target(
      name: "D2SWeb",
      dependencies: [
        "D2SApplication", "D2SHTML", "D2SMCP",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]),

    // MARK: - Agents (d2s-mcp; d2s-serve's /-/mcp later)
    .target(
      name: "D2SMCP",
      dependencies: [
        "D2SApplication", .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]),

    // MARK: - Executables
    .executableTarget(name: "d2s-repl", dependencies: ["D2SREPL"], linkerSettings: staticRuntime),
    .executableTarget(name: "d2s-mcp", dependencies: ["D2SMCP"], linkerSettings: staticRuntime),
    .executableTarget(name: "d2s-serve", dependencies: ["D2SWeb"], linkerSettings: staticRuntime),
    // d2s-bench's list suite runs the d2s-repl binary, a minimal baseline program and a REPL
    // with a third-party look, built beside it (they are dependencies only so that `swift run d2s-bench` builds them).
    .executableTarget(
      name: "d2s-bench",
      dependencies: [
        "RuleCore", "SQLiteAdaptor", "PostgreSQLAdaptor", "D2STesting", "d2s-repl",
        "d2s-bench-baseline", "d2s-bench-look", "d2s-serve", "d2s-mcp",
      ]),
    .executableTarget(
      name: "d2s-bench-baseline", dependencies: ["CSQLite"], linkerSettings: staticRuntime),
    // d2s-repl with a third-party look (a plugin's value component), for the list suite.
    .executableTarget(
      name: "d2s-bench-look", dependencies: ["D2SREPL", "Plugins"], linkerSettings: staticRuntime),

    // MARK: - Tests
    .testTarget(name: "EnvKeysTests", dependencies: ["EnvKeys"]),
    .testTarget(name: "QualifiersTests", dependencies: ["Qualifiers", "D2STesting"]),
    .testTarget(name: "RuleCoreTests", dependencies: ["RuleCore", "D2STesting"]),
    .testTarget(
      name: "D2SModelTests",
      dependencies: ["D2SModel", "SQLiteAdaptor", "PostgreSQLAdaptor", "D2STesting"]),
    .testTarget(
      name: "ComponentsTests",
      dependencies: [
        "Components", "SQLiteAdaptor", "PostgreSQLAdaptor", "D2STesting",
      ],
      exclude: ["Snapshots"]),
    .testTarget(
      name: "D2SREPLTests", dependencies: ["D2SREPL", "D2STesting", "CSQLite"],
      exclude: ["Snapshots", "Fixtures"]),
    .testTarget(
      name: "D2SWebTests",
      dependencies: [
        // D2SREPL only as the other front end the web's pages are compared with.
        "D2SWeb", "D2SREPL", "D2STesting",
      ]),
    .testTarget(name: "PluginsTests", dependencies: ["Plugins", "D2STesting"]),
    .testTarget(
      name: "D2SMCPTests", dependencies: ["D2SMCP", "D2STesting", "SQLiteAdaptor"],
      exclude: ["Clients"]),
    .testTarget(name: "D2STestingTests", dependencies: ["D2STesting"]),
    .testTarget(
      name: "CLibrariesTests",
      dependencies: ["CSQLite", "CLibPQ", "CLibPQLoader", "CLibEdit", "CLibEditLoader"]),
  ]
)

// Release builds of D2S's own modules call each concrete type's metadata accessor instead of
// resolving the type from its mangled name at first use: the runtime demangled several
// hundred names at each start (13% of `d2s-repl DB -c entities`; 11% less wall time with
// it, measured in Performance.md part 11). A package that depends on D2S by version may
// carry such a flag since tools version 6.2 (swift-log, a dependency of ours, does too). The
// benchmark's baseline is left as a plain program is built.
let directMetadataAccess: [SwiftSetting] = [
  .unsafeFlags(
    ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"],
    .when(configuration: .release))
]
for target in package.targets
where [.regular, .executable].contains(target.type) && target.name != "d2s-bench-baseline" {
  target.swiftSettings = (target.swiftSettings ?? []) + directMetadataAccess
}
