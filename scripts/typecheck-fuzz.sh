#!/usr/bin/env bash
# typecheck-fuzz.sh: type-checks the fuzz targets' sources (Fuzz/Sources) against the modules
# of the main package's debug build, without building the fuzz package (which would build the
# whole graph again, with -sanitize=fuzzer): `make test` fails when a fuzz target stops
# compiling. Run after `swift build --build-tests`.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
swift=${SWIFT:-swift}
bin=$("$swift" build --show-bin-path)
maps=()
# The C modules: the package's own module maps, and those SwiftPM made for targets with an
# include/ folder and for the dependencies.
while IFS= read -r map; do
  maps+=(-Xcc "-fmodule-map-file=$map")
done < <(find Sources -name module.modulemap; find "$bin" -maxdepth 2 -name module.modulemap
  find .build/checkouts -path "*/Sources/*" -name module.modulemap -not -path "*Benchmarks*" )
swiftc=$(dirname "$(command -v "$swift")")/swiftc
"$swiftc" -typecheck -parse-as-library -swift-version 6 -I "$bin/Modules" "${maps[@]}" \
  Fuzz/Sources/d2s-fuzz/*.swift
echo "fuzz targets type-check"
