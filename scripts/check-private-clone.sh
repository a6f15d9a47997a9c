#!/usr/bin/env bash
# check-private-clone.sh: clones this checkout's HEAD into a fresh temporary folder that only
# its owner may enter (mode 0700, as mktemp makes it) and runs `make test` there, as CI runs
# on a clean clone. It finds assumptions the working copy hides: paths another user (the
# postgres server, `nobody`) must reach, files outside git, a build folder taken for granted.
# Not part of `make test`; prints the clone's path and exits with make's status.
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
folder=$(mktemp -d "${TMPDIR:-/tmp}/d2s-private.XXXXXX")
chmod 700 "$folder"
trap 'rm -rf "$folder"' EXIT
git clone --quiet "$here" "$folder/d2s"
echo "check-private-clone: make test in $folder/d2s (mode $(stat -c %a "$folder"))"
cd "$folder/d2s" && make test
status=$?
echo "check-private-clone: make test exited $status"
exit $status
