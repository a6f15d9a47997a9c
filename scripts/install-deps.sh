#!/usr/bin/env bash
# Installs the Debian packages the build and tests need, when missing. Idempotent; quiet
# when everything is already there.
set -euo pipefail

# time: d2s-bench's peak memory; chromium and chromium-driver: the browser test of d2s-serve;
# wrk and nginx-light: d2s-bench web; python3 and python3-venv: clients from PyPI (axe-core) in the tests.
packages=(pkg-config libedit-dev libsqlite3-dev libpq-dev sqlite3 postgresql tmux time chromium chromium-driver wrk nginx-light python3 python3-venv)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } >"$log" 2>&1; then
  cat "$log" >&2
  echo "install-deps: could not install ${missing[*]}" >&2
  exit 1
fi
