#!/usr/bin/env bash
# test-examples.sh: the example plugin packages (Plugins/Examples), built and tested through
# the REPL built for them (DVDStoreREPL); then the web consumer package (Consumer): a plugin's
# components served by D2SWeb, and the documentation's Swift snippets. Both build in the
# scratch folder EXAMPLES_SCRATCH (the main package's .build by default), so D2S and its
# dependencies, already compiled by `make test`'s first build, are reused, not compiled again
# (about 190 s of a fresh clone's run); only the outside packages' own targets and tests are
# compiled. They still depend on D2S as any package does, by path, and see only its public
# API.
#
# Run, it builds and tests both (`make examples`); sourced (scripts/test.sh), it defines
# build_examples, test_examples and run_test_binary. The packages are named with
# --package-path, never entered with `cd`: see scripts/test.sh on SwiftPM's manifest cache.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift=${SWIFT:-swift}
scratch=${EXAMPLES_SCRATCH:-$(pwd)/.build}

# Each package's folder and the name of its test binary (its package's name + PackageTests).
example_packages=(Plugins/Examples/DVDStoreREPL Consumer)
example_test_binaries=(DVDStoreREPLPackageTests WebConsumerPackageTests)

# Builds both packages and their tests; a command given (`nice -n 19`) runs each build.
build_examples() {
  for package in "${example_packages[@]}"; do
    "$@" "$swift" build --build-tests --package-path "$package" --scratch-path "$scratch"
  done
}

# Runs a test binary as `swift test --skip-build` does: its XCTest tests, then its Swift
# Testing tests. Run directly, it takes no SwiftPM lock on the scratch folder.
run_test_binary() {
  "$1" && "$1" --testing-library swift-testing
}

test_examples() {
  local bin
  bin=$("$swift" build --show-bin-path --scratch-path "$scratch")
  for name in "${example_test_binaries[@]}"; do
    run_test_binary "$bin/$name.xctest"
  done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  build_examples
  test_examples
fi
