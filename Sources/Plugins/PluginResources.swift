import Foundation

/// Finds files a plugin ships as SwiftPM resources without `Bundle.module` (which stops the
/// process on Linux when the bundle is missing): beside the executable, then in the build
/// folder, then under `$D2S_RESOURCES`.
public enum PluginResources {
  /// The URL of `file` from the resource bundle of `target` in `package`
  /// (`<package>_<target>.resources`).
  /// - Throws: ``PluginResourceError`` listing the places searched.
  public static func url(of file: String, package: String, target: String) throws -> URL {
    let bundle = "\(package)_\(target).resources"
    let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? ".")
      .resolvingSymlinksInPath().deletingLastPathComponent()
    var places = [executable.appendingPathComponent(bundle)]
    // The build folder: `.build/<configuration>` of the current directory's package.
    let build = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      .appendingPathComponent(".build")
    for configuration in ["debug", "release"] {
      places.append(build.appendingPathComponent(configuration).appendingPathComponent(bundle))
    }
    if let override = ProcessInfo.processInfo.environment["D2S_RESOURCES"] {
      places.append(URL(fileURLWithPath: override).appendingPathComponent(bundle))
      places.append(URL(fileURLWithPath: override))
    }
    for place in places {
      let candidate = place.appendingPathComponent(file)
      if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
    }
    throw PluginResourceError(file: file, places: places.map(\.path))
  }

  /// The text of `file` (see ``url(of:package:target:)``).
  public static func text(of file: String, package: String, target: String) throws -> String {
    try String(contentsOf: try url(of: file, package: package, target: target), encoding: .utf8)
  }
}

/// A resource file of a plugin's package: its name, and the package and target whose bundle
/// (`<package>_<target>.resources`) holds it (``D2SPlugin/ruleResource``).
public struct PluginResource: Sendable, Equatable {
  /// The file's name in the bundle (`rating.d2s`).
  public var file: String
  /// The package's name.
  public var package: String
  /// The target's name.
  public var target: String

  /// The resource `file` of `target` in `package`.
  public init(_ file: String, package: String, target: String) {
    self.file = file
    self.package = package
    self.target = target
  }

  /// Its text (see ``PluginResources/url(of:package:target:)``).
  /// - Throws: ``PluginResourceError`` listing the places searched.
  public func text() throws -> String {
    try PluginResources.text(of: file, package: package, target: target)
  }
}

/// A resource file that is in none of the places searched.
public struct PluginResourceError: Error, Sendable, CustomStringConvertible {
  /// The file asked for.
  public var file: String
  /// The places searched, in order.
  public var places: [String]
  /// What was missing and where it was looked for, naming `D2S_RESOURCES`.
  public var description: String {
    "cannot find the resource \(file) (looked in \(places.joined(separator: ", "))); set D2S_RESOURCES to the folder holding it"
  }
}
