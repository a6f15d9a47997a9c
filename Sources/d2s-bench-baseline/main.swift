// The cold-start baseline of `d2s-bench list`: a minimal Swift program that opens an SQLite
// file with libsqlite3 and prints its table names, as `d2s-repl FILE -c entities` does; linked
// as the commands are (release builds: Swift's runtime and Foundation in the binary).
import CSQLite
import Foundation

guard CommandLine.arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: d2s-bench-baseline FILE\n".utf8))
  exit(2)
}
var db: OpaquePointer?
guard sqlite3_open_v2(CommandLine.arguments[1], &db, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
  exit(1)
}
var statement: OpaquePointer?
let sql = "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name"
guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK else { exit(1) }
var names: [String] = []
while sqlite3_step(statement) == SQLITE_ROW {
  if let text = sqlite3_column_text(statement, 0) { names.append(String(cString: text)) }
}
sqlite3_finalize(statement)
sqlite3_close(db)
print(names.map { "  " + $0 }.joined(separator: "\n"))
