import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// `GET /Event?format=csv` of a 1,000,000-row table from a fresh `d2s-serve`, downloaded with
/// curl: its time, the server's peak memory (goal: under 64 MB, the whole list streamed), and
/// whether `sqlite3 -csv` of the same query gives the same rows and values.
enum CSVDownload {
  /// The list's columns as the default rules show them, in primary key order: a to-one as
  /// stored, its foreign key (the page shows the kind's name; `csv=shown` writes that).
  static let query =
    "select kind_id, label, amount, happened_at, note from event order by event_id"

  /// Measures the download from `serve` over the database at `path`; returns the server's
  /// peak resident memory in MB.
  static func run(serve: String, path: String, folder: URL) throws -> Double {
    let server = try Served.d2sServe(serve, [path, "--page-cache", "0"], folder: folder)
    defer { server.stop() }
    let before = server.peakKilobytes
    let download = folder.appendingPathComponent("events.csv").path
    let fetched = try ProcessRun.run([
      "sh", "-c", "exec curl -sf -o \"$0\" \"$1\"", download, server.base + "/Event?format=csv",
    ])
    let peak = server.peakKilobytes
    server.stop()
    let shell = folder.appendingPathComponent("events-sqlite3.csv").path
    let baseline = try ProcessRun.run([
      "sh", "-c", "exec sqlite3 -csv \"$0\" \"$1\" > \"$2\"", path, query, shell,
    ])
    let same = try compare(download, shell)
    let size = (try? FileManager.default.attributesOfItem(atPath: download)[.size] as? Int) ?? 0
    print(
      "  GET /Event?format=csv, 1,000,000 rows: \(format(fetched.milliseconds / 1000)) s, "
        + "\(format(Double(size) / 1_048_576)) MB, status \(fetched.status); d2s-serve peak "
        + "\(format(peak / 1024)) MB (\(format(before / 1024)) MB before); sqlite3 -csv "
        + "\(format(baseline.milliseconds / 1000)) s; \(same)")
    try? FileManager.default.removeItem(atPath: download)
    try? FileManager.default.removeItem(atPath: shell)
    return peak / 1024
  }

  /// Whether the records of the two files agree, the first file's header line left out:
  /// `same rows and values`, or where they first differ.
  static func compare(_ download: String, _ shell: String) throws -> String {
    let ours = records(try Data(contentsOf: URL(fileURLWithPath: download))).dropFirst()
    let theirs = records(try Data(contentsOf: URL(fileURLWithPath: shell)))
    guard ours.count == theirs.count else {
      return "DIFFERENT: \(ours.count) rows, sqlite3 -csv \(theirs.count)"
    }
    for (index, (left, right)) in zip(ours, theirs).enumerated() where left != right {
      return "DIFFERENT at row \(index + 1): \(left) against \(right)"
    }
    return "same rows and values as sqlite3 -csv"
  }

  /// The records of RFC 4180 text (CR LF or LF), each field nil when empty and unquoted.
  static func records(_ data: Data) -> [[String?]] {
    var records: [[String?]] = []
    var record: [String?] = []
    var field: [UInt8] = []
    var quoted = false
    var inQuotes = false
    var index = data.startIndex
    func endField() {
      record.append(field.isEmpty && !quoted ? nil : String(decoding: field, as: UTF8.self))
      field.removeAll(keepingCapacity: true)
      quoted = false
    }
    while index < data.endIndex {
      let byte = data[index]
      index += 1
      if inQuotes {
        if byte == UInt8(ascii: "\"") {
          if index < data.endIndex, data[index] == UInt8(ascii: "\"") {
            field.append(byte)
            index += 1
          } else {
            inQuotes = false
          }
        } else {
          field.append(byte)
        }
      } else if byte == UInt8(ascii: "\"") {
        inQuotes = true
        quoted = true
      } else if byte == UInt8(ascii: ",") {
        endField()
      } else if byte == UInt8(ascii: "\n") {
        endField()
        records.append(record)
        record = []
      } else if byte != UInt8(ascii: "\r") {
        field.append(byte)
      }
    }
    if !record.isEmpty || !field.isEmpty {
      endField()
      records.append(record)
    }
    return records
  }
}
