#!/usr/bin/env bash
# with-postgres.sh [--in-background] COMMAND...: runs COMMAND with a throwaway PostgreSQL
# server.
#
# The server listens on a Unix socket only (no TCP), in a fresh temporary folder, on a
# non-default port; it holds the Sakila sample in database "sakila". Its connection URL is
# exported as D2S_TEST_POSTGRES_URL. The server is stopped and its folder removed when
# COMMAND ends, whatever the outcome; COMMAND's exit status is returned.
#
# With --in-background, COMMAND starts at once while the server is set up beside it (`make
# test` builds meanwhile); D2S_TEST_POSTGRES_READY names a file that appears when the set-up
# ends, holding its exit status (0: the server is ready), with its output in setup.log in the
# same folder. COMMAND waits for it before using the server (scripts/test.sh does).
set -euo pipefail
background=false
if [ "${1:-}" = "--in-background" ]; then
  background=true
  shift
fi

here=$(cd "$(dirname "$0")/.." && pwd)
pgbin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$pgbin/initdb" ] || { echo "with-postgres: no PostgreSQL server binaries found" >&2; exit 1; }

# A folder the postgres user can reach even when the checkout is under /root.
base=$(mktemp -d /tmp/d2s-pg.XXXXXX)
chmod 755 "$base"
port=$(( 50000 + RANDOM % 10000 ))

as_pg() {
  if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}
if [ "$(id -u)" -eq 0 ]; then chown postgres: "$base"; fi

setup_pid=""
stop() {
  # A set-up still under way (COMMAND failed early) is waited for, so that no server it
  # starts outlives this script (killing the subshell would leave its children running).
  if [ -n "$setup_pid" ]; then wait "$setup_pid" 2>/dev/null || true; fi
  as_pg "$pgbin/pg_ctl" -D "$base/data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
  # The folder holds every database the tests made (gigabytes): it is removed in the
  # background, so that COMMAND's caller does not wait for it.
  (rm -rf "$base" >/dev/null 2>&1 &)
}
trap stop EXIT

# Every step exits on failure itself: in the background, `set -e` does not hold.
set_up() {
  as_pg "$pgbin/initdb" -D "$base/data" -U postgres --auth-local=trust -E UTF8 --locale=C.UTF-8 \
    --no-sync >"$base/initdb.log" 2>&1 || { cat "$base/initdb.log" >&2; exit 1; }
  for attempt in 1 2 3 4 5; do
    if as_pg "$pgbin/pg_ctl" -D "$base/data" -l "$base/server.log" -w -t 30 \
        -o "-c listen_addresses='' -p $port -k $base -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" \
        start >/dev/null 2>&1; then
      break
    fi
    [ $attempt -eq 5 ] && { cat "$base/server.log" >&2; exit 1; }
    # In the background, COMMAND already has the URL: the port stays.
    $background || port=$(( 50000 + RANDOM % 10000 ))
  done

  psql_() { psql -X -q -v ON_ERROR_STOP=1 -h "$base" -p "$port" -U postgres "$@"; }
  psql_ -d postgres -c 'CREATE DATABASE sakila' >/dev/null || exit 1
  sed -e 's/ TO postgres;$/ TO CURRENT_USER;/' "$here/data/sakila/postgres-schema.sql" |
    psql_ -1 -d sakila -f - -f "$here/data/sakila/postgres-data.sql" >/dev/null 2>"$base/load.log" ||
    { cat "$base/load.log" >&2; exit 1; }
}

if $background; then
  # The port is fixed before the set-up (COMMAND is told the URL at once); in a folder of
  # its own it only names the socket.
  (
    status=0
    (set_up) >"$base/setup.log" 2>&1 || status=$?
    echo "$status" >"$base/ready.tmp" && mv "$base/ready.tmp" "$base/ready"
  ) &
  setup_pid=$!
  export D2S_TEST_POSTGRES_READY="$base/ready"
else
  set_up
fi

export D2S_TEST_POSTGRES_URL="postgresql://postgres@/sakila?host=$base&port=$port"
set +e
"$@"
status=$?
set -e
# A failed run shows what the server itself said went wrong (a crashed backend, a limit reached);
# the lines are few, as most errors tests provoke on purpose are not FATAL.
if [ $status -ne 0 ]; then
  grep -E 'PANIC|FATAL|terminated by signal|out of memory|No space left|terminating any other active' \
    "$base/server.log" 2>/dev/null | tail -n 30 | sed 's/^/with-postgres: server log: /' >&2 || true
fi
exit $status
