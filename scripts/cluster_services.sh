#!/usr/bin/env bash
# Starts a PostgreSQL server and a NATS server on loopback for the cluster tests, each in a
# folder of its own, and prints the two variables the tests read:
#
#   eval "$(scripts/cluster_services.sh start)"    # exports PARLOR_TEST_POSTGRES, PARLOR_TEST_NATS
#   cargo test --workspace
#   scripts/cluster_services.sh stop
#
# Needs Debian's postgresql and nats-server packages (.ci/run installs them). initdb refuses
# to run as root, so as root the database runs as the `postgres` user. The role `parlor` may
# create databases: each test makes its own and drops it.
set -euo pipefail
source "$(dirname "$0")/lib/usage.sh"
root=${PARLOR_SERVICES_DIR:-/tmp/parlor-cluster-services}
pg_port=${PARLOR_PG_PORT:-54329}
nats_port=${PARLOR_NATS_PORT:-42229}

pg_bin() {
    local dir
    dir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    [ -n "$dir" ] || { echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 2; }
    echo "$dir"
}

# Runs a command as the database's owner: `postgres` when we are root, else ourselves.
as_owner() {
    if [ "$(id -u)" = 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

start() {
    local bin; bin=$(pg_bin)
    command -v nats-server >/dev/null || { echo "nats-server is not installed (apt-get install nats-server)" >&2; exit 2; }
    mkdir -p "$root"
    [ "$(id -u)" = 0 ] && chown postgres "$root"
    if [ ! -f "$root/pg/PG_VERSION" ]; then
        as_owner "$bin/initdb" -D "$root/pg" -U postgres -A trust >"$root/initdb.log" 2>&1
    fi
    if ! as_owner "$bin/pg_ctl" -D "$root/pg" status >/dev/null 2>&1; then
        as_owner "$bin/pg_ctl" -D "$root/pg" -l "$root/pg.log" -w \
            -o "-h 127.0.0.1 -p $pg_port -k $root -c fsync=off -c max_connections=300" start >/dev/null
    fi
    as_owner "$bin/psql" -h 127.0.0.1 -p "$pg_port" -U postgres -d postgres -qtA -c \
        "DO \$\$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'parlor') THEN
            CREATE ROLE parlor LOGIN CREATEDB PASSWORD 'parlor'; END IF; END \$\$;" >/dev/null
    if ! [ -f "$root/nats.pid" ] || ! kill -0 "$(cat "$root/nats.pid")" 2>/dev/null; then
        nats-server -a 127.0.0.1 -p "$nats_port" -P "$root/nats.pid" >"$root/nats.log" 2>&1 &
        for _ in $(seq 50); do
            [ -f "$root/nats.pid" ] && break
            sleep 0.1
        done
    fi
    echo "export PARLOR_TEST_POSTGRES=postgres://parlor:parlor@127.0.0.1:$pg_port/postgres"
    echo "export PARLOR_TEST_NATS=nats://127.0.0.1:$nats_port"
}

stop() {
    local bin; bin=$(pg_bin)
    if [ -f "$root/pg/PG_VERSION" ]; then
        as_owner "$bin/pg_ctl" -D "$root/pg" -m fast stop >/dev/null 2>&1 || true
    fi
    if [ -f "$root/nats.pid" ]; then
        kill "$(cat "$root/nats.pid")" 2>/dev/null || true
        rm -f "$root/nats.pid"
    fi
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    -h|--help) usage ;;
    *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
