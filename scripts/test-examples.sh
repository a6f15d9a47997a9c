#!/usr/bin/env bash
# test-examples.sh: the example plugin packages (Plugins/Examples), built and tested through
# the REPL built for them (DVDStoreREPL); then the web consumer package (Consumer): a plugin's
# components served by D2SWeb, and the documentation's Swift snippets. Both build in the
# scratch folder EXAMPLES_SCRATCH (the main package's .build by default), so D2S and its
# dependencies, already compiled by `make test`'s first build, are reused, not compiled again
# (about 190 s of a fresh clone's run); only the outside packages' own targets and tests are
# compiled. They still depend on D2S as any package does, by path, and see only its public
# API. The packages are named with --package-path, not entered with `cd`, and scripts/test.sh
# sources this file: see there on SwiftPM's manifest cache.
set -euo pipefail
cd "$(dirname "$0")/.."
swift=${SWIFT:-swift}
scratch=${EXAMPLES_SCRATCH:-$(pwd)/.build}
for package in Plugins/Examples/DVDStoreREPL Consumer; do
  "$swift" build --build-tests --package-path "$package" --scratch-path "$scratch"
  "$swift" test --skip-build --package-path "$package" --scratch-path "$scratch"
done
