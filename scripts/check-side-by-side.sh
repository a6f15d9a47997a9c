#!/usr/bin/env bash
# check-side-by-side.sh [ROUNDS]: builds the tests once, then runs two `swift test
# --skip-build` at the same time, each with a PostgreSQL server of its own, ROUNDS times
# (default 3). Two suites side by side find shared temporary paths, fixed ports and
# timing thresholds that one suite alone never meets. Not part of `make test`; exits 1 when
# any run failed, naming its log.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-3}
cd "$here"
swift build --build-tests >/dev/null || exit 1
logs=$(mktemp -d "${TMPDIR:-/tmp}/d2s-side-by-side.XXXXXX")
failed=0
for round in $(seq 1 "$rounds"); do
  scripts/with-postgres.sh swift test --skip-build >"$logs/a-$round.log" 2>&1 &
  a=$!
  scripts/with-postgres.sh swift test --skip-build >"$logs/b-$round.log" 2>&1 &
  b=$!
  wait $a; sa=$?
  wait $b; sb=$?
  echo "round $round: exit $sa and $sb"
  [ $sa -eq 0 ] || { failed=1; echo "  see $logs/a-$round.log"; }
  [ $sb -eq 0 ] || { failed=1; echo "  see $logs/b-$round.log"; }
done
[ $failed -eq 0 ] && rm -rf "$logs"
exit $failed
