import D2STesting
import Foundation

#if canImport(Glibc)
  @preconcurrency import Glibc
#endif

/// A server the web suite measures, started on a loopback port of its own and stopped at the
/// end: `d2s-serve`, Datasette or nginx.
final class Served {
  let child: ChildProcess
  /// `http://127.0.0.1:PORT`.
  let base: String

  private init(_ child: ChildProcess, base: String) {
    self.child = child
    self.base = base
  }

  func stop() { child.stop() }

  /// Waits (30 s at most) until the process uses less than a tenth of a core.
  func waitUntilIdle() {
    var last = cpuTicks
    for _ in 0..<60 {
      Thread.sleep(forTimeInterval: 0.5)
      let now = cpuTicks
      // Clock ticks are hundredths of a second: under 5 in half a second is under 10%.
      if now - last < 5 { return }
      last = now
    }
  }

  /// The process's user and system time so far, in clock ticks (`/proc/PID/stat`).
  private var cpuTicks: Int {
    let stat =
      (try? String(
        contentsOfFile: "/proc/\(child.process.processIdentifier)/stat", encoding: .utf8)) ?? ""
    // After the command's name, in parentheses: fields 3 on; utime and stime are 14 and 15.
    guard let close = stat.lastIndex(of: ")") else { return 0 }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 13 else { return 0 }
    return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
  }

  /// The process's peak resident memory so far (`VmHWM`), in KB.
  var peakKilobytes: Double {
    let status =
      (try? String(
        contentsOfFile: "/proc/\(child.process.processIdentifier)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Double(line.split(separator: " ").dropFirst().first ?? "") ?? .nan
  }

  /// The release `d2s-serve` on `arguments`, on a port it picks.
  static func d2sServe(_ binary: String, _ arguments: [String], folder: URL) throws -> Served {
    let child = try ChildProcess(binary, arguments + ["--port", "0"], folder: folder)
    guard let line = try child.waitForLine(prefix: "listening on ", seconds: 60) else {
      child.stop()
      throw BenchError("d2s-serve did not start:\n\(child.log)")
    }
    return Served(child, base: String(line.dropFirst("listening on ".count)))
  }

  /// Datasette serving `database`: `D2S_BENCH_DATASETTE` names its binary, else it is
  /// installed with pip into a virtual environment in `folder`.
  static func datasette(_ database: String, folder: URL) throws -> Served {
    var binary = ProcessInfo.processInfo.environment["D2S_BENCH_DATASETTE"] ?? ""
    if binary.isEmpty {
      let environment = folder.appendingPathComponent("datasette-venv").path
      print("  installing Datasette with pip into \(environment)…")
      _ = try Tools.output(["python3", "-m", "venv", environment])
      _ = try Tools.output([environment + "/bin/pip", "install", "-q", "datasette"])
      binary = environment + "/bin/datasette"
    }
    let version = (try? Tools.output([binary, "--version"])) ?? "?"
    let port = try FreePort.pick()
    let child = try ChildProcess(
      binary,
      [
        "serve", database, "--host", "127.0.0.1", "--port", "\(port)", "--setting",
        "num_sql_threads", "3",
      ], folder: folder)
    let served = Served(child, base: "http://127.0.0.1:\(port)")
    try served.waitUntilAnswering("/-/versions.json", what: "Datasette")
    print("  \(version.trimmingCharacters(in: .whitespacesAndNewlines)) on \(served.base)")
    return served
  }

  /// nginx serving `page` as `/film.html`, with a configuration of its own in `folder`.
  static func nginx(serving page: Data, folder: URL) throws -> Served {
    let root = folder.appendingPathComponent("nginx")
    let www = root.appendingPathComponent("www")
    try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
    try page.write(to: www.appendingPathComponent("film.html"))
    let port = try FreePort.pick()
    let configuration = root.appendingPathComponent("nginx.conf")
    // As root, nginx's workers would switch to a user that may not read the folder.
    let user = getuid() == 0 ? "user root;\n" : ""
    try """
    \(user)daemon off;
    worker_processes auto;
    pid \(root.path)/nginx.pid;
    error_log \(root.path)/error.log;
    events { worker_connections 1024; }
    http {
      access_log off;
      client_body_temp_path \(root.path)/body;
      proxy_temp_path \(root.path)/proxy;
      fastcgi_temp_path \(root.path)/fastcgi;
      uwsgi_temp_path \(root.path)/uwsgi;
      scgi_temp_path \(root.path)/scgi;
      server {
        listen 127.0.0.1:\(port);
        root \(www.path);
        default_type "text/html; charset=utf-8";
      }
    }

    """.write(to: configuration, atomically: true, encoding: .utf8)
    let binary = Tools.find("nginx") ?? "nginx"
    let child = try ChildProcess(binary, ["-c", configuration.path, "-p", root.path], folder: root)
    let served = Served(child, base: "http://127.0.0.1:\(port)")
    try served.waitUntilAnswering("/film.html", what: "nginx")
    return served
  }

  /// Polls `path` until it answers 200 (60 s at most).
  private func waitUntilAnswering(_ path: String, what: String) throws {
    for _ in 0..<600 {
      if let answer = try? LoopbackHTTP.request("GET", base + path), answer.status == 200 {
        return
      }
      guard child.process.isRunning else { break }
      Thread.sleep(forTimeInterval: 0.1)
    }
    child.stop()
    throw BenchError("\(what) did not start:\n\(child.log)")
  }
}

/// Programs the web suite runs.
enum Tools {
  /// The path of `name` on PATH or in /usr/sbin (nginx lives there).
  static func find(_ name: String) -> String? {
    let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/sbin:/sbin"
    return path.split(separator: ":").map { "\($0)/\(name)" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }

  /// The path of the program `name` built beside this benchmark; an error that says to build it
  /// when it is missing.
  static func built(_ name: String) throws -> String {
    let path = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
      .deletingLastPathComponent().appendingPathComponent(name).path
    guard FileManager.default.isExecutableFile(atPath: path) else {
      throw BenchError("\(path) is missing: build it first (swift build -c release)")
    }
    return path
  }

  /// What `arguments` prints (standard output and error); throws when it fails.
  static func output(_ arguments: [String]) throws -> String {
    guard let program = arguments.first.flatMap({ $0.contains("/") ? $0 : find($0) }) else {
      throw BenchError("\(arguments.first ?? "") is not installed")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = Array(arguments.dropFirst())
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let text = String(decoding: data, as: UTF8.self)
    guard process.terminationStatus == 0 else {
      throw BenchError("\(arguments.joined(separator: " ")) failed:\n\(text)")
    }
    return text
  }
}
