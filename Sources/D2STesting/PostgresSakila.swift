import D2SModel
import Foundation
import PostgreSQLAdaptor
import Synchronization

/// Copies of the Sakila database on the test server: `CREATE DATABASE … TEMPLATE sakila`.
public enum PostgresSakila {
  private static let counter = Mutex(0)

  /// conninfo for database `name` on the test server.
  public static func conninfo(_ name: String) throws -> String {
    guard let url = ProcessInfo.processInfo.environment["D2S_TEST_POSTGRES_URL"],
      let components = URLComponents(string: url)
    else {
      throw DatabaseError(.connection, "D2S_TEST_POSTGRES_URL is not set")
    }
    var parts = ["dbname=\(name)", "user=\(components.user ?? "postgres")"]
    for item in components.queryItems ?? [] {
      if let value = item.value { parts.append("\(item.name)=\(value)") }
    }
    if let host = components.host, !host.isEmpty { parts.append("host=\(host)") }
    if let port = components.port { parts.append("port=\(port)") }
    return parts.joined(separator: " ")
  }

  /// A new database copied from `sakila`; returns its conninfo.
  public static func copy() throws -> String {
    let name = uniqueName("sakila")
    let admin = try PostgreSQLAdaptor(url: try conninfo("postgres"))
    try admin.executeScript("CREATE DATABASE \(name) TEMPLATE sakila")
    return try conninfo(name)
  }

  /// A new, empty database on the test server holding what `sql` creates; returns its
  /// conninfo. Its name starts with `prefix` (letters, digits and `_`).
  public static func database(from sql: String, prefix: String = "fixture") throws -> String {
    let name = uniqueName(prefix.filter { $0.isLetter || $0.isNumber || $0 == "_" }.lowercased())
    let admin = try PostgreSQLAdaptor(url: try conninfo("postgres"))
    try admin.executeScript("CREATE DATABASE \(name)")
    let url = try conninfo(name)
    try PostgreSQLAdaptor(url: url).executeScript(sql)
    return url
  }

  /// `<prefix>_<process>_<n>`, new in this process.
  private static func uniqueName(_ prefix: String) -> String {
    let n = counter.withLock { value -> Int in
      value += 1
      return value
    }
    return "\(prefix)_\(ProcessInfo.processInfo.processIdentifier)_\(n)"
  }
}
