#!/usr/bin/env bash
# Runs a command with the services the tests need, and stops them afterwards:
#   - a private PostgreSQL cluster on a free port (STRATA_TEST_PG_URL), when Debian's server is installed;
#   - a D-Bus session with an unlocked gnome-keyring (the real Secret Service), when both are installed.
# Usage: scripts/with-services.sh <command> [args…]
set -euo pipefail

work=$(mktemp -d /tmp/strata-services.XXXXXX)
chmod 755 "$work"
pg_bin=""
for dir in /usr/lib/postgresql/*/bin; do [ -x "$dir/initdb" ] && pg_bin=$dir; done

cleanup() {
  if [ -n "$pg_bin" ] && [ -f "$work/pg/postmaster.pid" ]; then
    as_pg "$pg_bin/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# initdb refuses to run as root: run the cluster as the postgres user then.
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

if [ -n "$pg_bin" ] && [ -z "${STRATA_TEST_PG_URL:-}" ]; then
  mkdir -p "$work/pg"
  [ "$(id -u)" = 0 ] && chown postgres "$work/pg"
  port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
  as_pg "$pg_bin/initdb" -D "$work/pg" -U strata --auth=trust -E UTF8 >"$work/initdb.log" 2>&1
  as_pg "$pg_bin/pg_ctl" -D "$work/pg" -l "$work/pg/server.log" -w \
    -o "-k $work/pg -p $port -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
  export STRATA_TEST_PG_URL="postgres://strata@127.0.0.1:$port/postgres"
  echo "with-services: PostgreSQL at 127.0.0.1:$port" >&2
elif [ -z "$pg_bin" ]; then
  echo "with-services: no PostgreSQL server installed; PostgreSQL tests will say they are skipped" >&2
fi

if command -v dbus-run-session >/dev/null && command -v gnome-keyring-daemon >/dev/null && [ -z "${STRATA_IN_KEYRING:-}" ]; then
  mkdir -p "$work/xdg-data" "$work/xdg-runtime"
  chmod 700 "$work/xdg-data" "$work/xdg-runtime"
  export XDG_DATA_HOME="$work/xdg-data" XDG_RUNTIME_DIR="$work/xdg-runtime" STRATA_IN_KEYRING=1
  dbus-run-session -- sh -c 'printf %s pass | gnome-keyring-daemon --unlock --components=secrets >/dev/null && exec "$@"' sh "$@"
else
  echo "with-services: no D-Bus/gnome-keyring; keychain tests will say they are skipped" >&2
  "$@"
fi
