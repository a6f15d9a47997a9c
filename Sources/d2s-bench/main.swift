// d2s-bench: benchmarks that print figures and ratios against baselines measured in the same
// run. Figures only; nothing here asserts timings.
//
//   swift run -c release d2s-bench rules
//   swift run -c release d2s-bench list    (runs the built d2s-repl as a user would)
//   swift run -c release d2s-bench paging  (big generated tables: first page, next, memory)
//   swift run -c release d2s-bench web     (d2s-serve under wrk, against Datasette and nginx)
//   swift run -c release d2s-bench finding (1,000,000 rows: a CSV download, a list with facets)
//   swift run -c release d2s-bench pages   (pages no cache answers; part of web)
//   swift run -c release d2s-bench agents  (a tool call of d2s-mcp against the same page as HTTP JSON)

#if canImport(Glibc)
  import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let suites: [String: () throws -> Void] = [
  "rules": RulesBenchmark.run, "fetch": FetchBenchmark.run, "list": ListBenchmark.run,
  "paging": PagingBenchmark.run, "web": WebBenchmark.run, "finding": FindingBenchmark.run,
  "agents": AgentBenchmark.run, "pages": RenderedPages.run,
]

guard let name = arguments.first, let suite = suites[name] else {
  print("usage: d2s-bench SUITE   (suites: \(suites.keys.sorted().joined(separator: ", ")))")
  exit(2)
}
do {
  try suite()
} catch {
  print("error: \(error)")
  exit(1)
}
