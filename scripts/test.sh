#!/usr/bin/env bash
# test.sh: the steps of `make test`, run by the Makefile inside `scripts/with-postgres.sh
# --in-background` (the throwaway server is set up while the package builds):
#   1. `swift format lint --strict`, beside the build's first minute (SwiftPM resolving and
#      planning, one core busy);
#   2. the package and its tests built (`swift build --build-tests`), then the fuzz targets
#      type-checked;
#   3. every test run, once the server is ready; meanwhile the example plugin packages and
#      the web consumer package build (scripts/test-examples.sh) at the lowest priority
#      (`nice -n 19`), on the cores the tests leave idle (the browser tests' last minute runs
#      one test at a time); their tests run after the main ones.
# The test binaries run directly, as `swift test --skip-build` runs them, so that SwiftPM's
# lock on the scratch folder stays free for the outside packages' builds.
# Every SwiftPM command runs in the same folder with the same environment: SwiftPM keys its
# cache of compiled Package.swift manifests by the environment, and a changed one (`cd`, a
# new variable) compiles all 25 manifests again, about 10 s a command on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
here=$(pwd)
swift=${SWIFT:-swift}

"$swift" format lint --strict --recursive Package.swift Sources Tests Consumer/Package.swift \
  Consumer/Tests &
lint=$!
"$swift" build --build-tests
if ! wait $lint; then
  echo "test.sh: swift format lint --strict found the problems above" >&2
  exit 1
fi
SWIFT=$swift scripts/typecheck-fuzz.sh

if [ -n "${D2S_TEST_POSTGRES_READY:-}" ]; then
  # The set-up takes seconds; it is given 5 minutes at most on a machine busy building.
  for _ in $(seq 1 1500); do
    [ -f "$D2S_TEST_POSTGRES_READY" ] && break
    sleep 0.2
  done
  if [ "$(cat "$D2S_TEST_POSTGRES_READY" 2>/dev/null)" != 0 ]; then
    echo "test.sh: the PostgreSQL server could not be set up:" >&2
    cat "$(dirname "$D2S_TEST_POSTGRES_READY")/setup.log" >&2 || true
    exit 1
  fi
fi

# Sourced, not run: a child shell's environment differs (SHLVL), and SwiftPM would compile
# the manifests again.
EXAMPLES_SCRATCH="$here/.build"
. scripts/test-examples.sh

# Asked before the outside packages' builds take SwiftPM's lock.
bin=$("$swift" build --show-bin-path)
examples_log=$(mktemp "${TMPDIR:-/tmp}/d2s-examples.XXXXXX")
trap 'rm -f "$examples_log"' EXIT
build_examples nice -n 19 >"$examples_log" 2>&1 &
examples=$!
main_status=0
run_test_binary "$bin/D2SPackageTests.xctest" || main_status=$?
examples_status=0
wait $examples || examples_status=$?
echo "test.sh: the outside packages' builds, beside the tests:"
cat "$examples_log"
[ $main_status -eq 0 ] || exit $main_status
[ $examples_status -eq 0 ] || exit $examples_status
test_examples
