import D2STesting
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `d2s-bench agents`: the 20-row Film list through `d2s-mcp`'s `list` tool (one JSON-RPC
/// line over stdio, as an agent's client sends it) against the same page as JSON from
/// `d2s-serve` over HTTP without its page cache (each made anew, as the tool's is), in one run,
/// alternated. Goal: the tool call at most 1.5 times the HTTP request's time.
enum AgentBenchmark {
  /// Alternated calls of each.
  static let calls = 200

  static func run() throws {
    let serve = try Tools.built("d2s-serve")
    let mcp = try Tools.built("d2s-mcp")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "d2s-bench-agents-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let database = try SakilaSQLite.copy()
    print("agents: d2s-mcp \(mcp) over stdio, d2s-serve \(serve) over HTTP (--page-cache 0)")
    let server = try Served.d2sServe(serve, [database, "--page-cache", "0"], folder: folder)
    defer { server.stop() }
    let agent = try StdioClient(mcp, [database])
    defer { agent.stop() }
    _ = try agent.call(
      #"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"d2s-bench","version":"1"}}}"#
    )
    let url = server.base + "/Film?limit=20"
    func web() throws -> Double {
      let start = ContinuousClock.now
      let answer = try LoopbackHTTP.request(
        "GET", url, headers: [("Accept", "application/json")])
      guard answer.status == 200 else { throw BenchError("GET \(url): \(answer.status)") }
      return (ContinuousClock.now - start).seconds
    }
    var id = 0
    func tool() throws -> Double {
      id += 1
      let start = ContinuousClock.now
      let line = try agent.callBytes(
        #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"list","arguments":{"entity":"Film","limit":20}}}"#
      )
      // The answer ends `…,"isError":false}}`: its tail says whether the call succeeded.
      guard String(decoding: line.suffix(40), as: UTF8.self).contains(#""isError":false"#) else {
        throw BenchError("list: \(String(decoding: line.prefix(200), as: UTF8.self))")
      }
      return (ContinuousClock.now - start).seconds
    }
    for _ in 0..<20 {
      _ = try web()
      _ = try tool()
    }
    var webTimes: [Double] = []
    var toolTimes: [Double] = []
    for _ in 0..<calls {
      webTimes.append(try web())
      toolTimes.append(try tool())
    }
    let ratio = median(toolTimes) / median(webTimes)
    print(
      "  20-row Film list, median of \(calls) alternated: tool call \(format(median(toolTimes) * 1000, decimals: 2)) ms, "
        + "HTTP JSON \(format(median(webTimes) * 1000, decimals: 2)) ms")
    print("")
    print(
      "  list tool call / the same page as HTTP JSON   \(format(ratio, decimals: 2))  goal ≤ 1.5")
  }
}

extension Duration {
  /// The duration in seconds.
  var seconds: Double {
    Double(components.seconds) + Double(components.attoseconds) / 1e18
  }
}

/// An MCP server over stdio: one request line written, one answer line read (its bytes read
/// straight from the pipe into one buffer, each byte looked at once, as a client that only
/// hands the line on would).
final class StdioClient {
  let process = Process()
  let input = Pipe()
  let output = Pipe()
  private var buffer: [UInt8] = []
  /// How many bytes of `buffer` were looked at for a line feed.
  private var scanned = 0

  init(_ binary: String, _ arguments: [String]) throws {
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle(forWritingAtPath: "/dev/null")
    try process.run()
  }

  /// Sends `line`; returns the next line the server writes.
  func call(_ line: String) throws -> String {
    let answer = try callBytes(line)
    return String(decoding: answer, as: UTF8.self)
  }

  /// Sends `line`; the next line the server writes, as bytes.
  func callBytes(_ line: String) throws -> ArraySlice<UInt8> {
    input.fileHandleForWriting.write(Data((line + "\n").utf8))
    let descriptor = output.fileHandleForReading.fileDescriptor
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      if let end = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
        let answer = buffer[..<end]
        buffer.removeSubrange(...end)
        scanned = 0
        return answer
      }
      scanned = buffer.count
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { throw BenchError("d2s-mcp ended") }
      buffer.append(contentsOf: chunk[..<count])
    }
  }

  func stop() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}
