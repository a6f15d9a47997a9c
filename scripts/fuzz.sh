#!/usr/bin/env bash
# fuzz.sh SECONDS TARGET...: runs each libFuzzer target of Fuzz/ for SECONDS (niced), seeded
# from the tests (scripts/fuzz-seeds.sh), and prints executions, coverage and findings per
# target. Corpora grow in .build-fuzz/corpus/<target>; crashes and hangs (over 5 s) are kept
# as .build-fuzz/findings/<target>-*. Exits 1 when any target found something.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
seconds=$1
shift
binary="$here/.build-fuzz/release/d2s-fuzz"
[ -x "$binary" ] || { echo "fuzz: build $binary first (make fuzz)" >&2; exit 2; }
"$here/scripts/fuzz-seeds.sh" "$here/.build-fuzz/seeds" >/dev/null
mkdir -p "$here/.build-fuzz/findings"
status=0
summary=()
for target in "$@"; do
  corpus="$here/.build-fuzz/corpus/$target"
  log="$here/.build-fuzz/$target.log"
  mkdir -p "$corpus"
  # Swift's own backtracer off, so that libFuzzer saves the input of a trap.
  SWIFT_BACKTRACE=enable=no D2S_FUZZ_TARGET=$target nice -n 10 "$binary" "$corpus" "$here/.build-fuzz/seeds/$target" \
    -max_total_time="$seconds" -timeout=5 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$here/.build-fuzz/findings/$target-" >"$log" 2>&1
  code=$?
  runs=$(grep -aoE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo 0)
  last=$(grep -aE '^#[0-9]+' "$log" | tail -n 1)
  cov=$(grep -oE 'cov: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || echo ?)
  ft=$(grep -oE 'ft: [0-9]+' <<<"$last" | grep -oE '[0-9]+' || echo ?)
  findings=$(ls "$here/.build-fuzz/findings" | grep -c "^$target-" || true)
  if [ "$code" -ne 0 ]; then
    status=1
    [ "$findings" -gt 0 ] || findings="1 (exit $code, see $log)"
    grep -a -m1 -E 'Fatal error|ERROR: libFuzzer|==ERROR' "$log" >&2 || true
  fi
  summary+=("$(printf '%-10s executions %10s  coverage %6s edges %6s features  findings %s' "$target" "$runs" "$cov" "$ft" "$findings")")
done
printf '%s\n' "${summary[@]}"
exit $status
