#!/usr/bin/env bash
# Runs a hall of N server nodes on this machine (one fresh PostgreSQL database, the NATS server
# of scripts/cluster_services.sh) and points loadgen at all of them, with whatever loadgen
# arguments follow; `--lone` instead runs one server on the same database without a bus.
#
#   cargo build --release -p parlor-tests --bin loadgen -p parlor-server --bin server
#   scripts/cluster_bench.sh 3 rooms --rooms 200 --spectators 2 --move-rate 1 --duration 30
#   scripts/cluster_bench.sh --lone rooms --rooms 200 --spectators 2 --move-rate 1 --duration 30
#
# The nodes' logs go to $PARLOR_BENCH_LOGS (default /tmp/parlor-cluster-bench).
set -euo pipefail
source "$(dirname "$0")/lib/usage.sh"
case ${1:-} in -h|--help) usage; exit 0 ;; esac  # later arguments are loadgen's
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { usage >&2; exit 2; }
lone=0
nodes=$1; shift
if [ "$nodes" = --lone ]; then lone=1; nodes=1; fi
[[ "$nodes" =~ ^[1-9][0-9]?$ ]] || { echo "the number of nodes must be 1 to 99" >&2; exit 2; }

eval "$(scripts/cluster_services.sh start)"
logs=${PARLOR_BENCH_LOGS:-/tmp/parlor-cluster-bench}
mkdir -p "$logs"
database="parlor_bench_$$"
admin=$PARLOR_TEST_POSTGRES
psql "$admin" -qc "CREATE DATABASE $database"
url="${admin%/*}/$database"
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    psql "$admin" -qc "DROP DATABASE IF EXISTS $database WITH (FORCE)" || true
}
trap cleanup EXIT

quotas=(--rooms-per-address 100000 --ai-rooms-per-address 100000 --followed-per-address 100000
        --room-creations-per-address 100000
        --max-connections 50000 --connections-per-address 50000
        --max-rooms 100000)
urls=()
for i in $(seq 1 "$nodes"); do
    port=$((29600 + i))  # below the ephemeral ports loadgen's clients take
    if [ "$lone" = 1 ]; then
        target/release/server --addr "127.0.0.1:$port" --store "$url" "${quotas[@]}" \
            2>"$logs/lone.log" &
    else
        target/release/server --addr "127.0.0.1:$port" --store "$url" --bus "$PARLOR_TEST_NATS" \
            --node-id "bench$i" "${quotas[@]}" 2>"$logs/node$i.log" &
    fi
    pids+=($!)
    urls+=("ws://127.0.0.1:$port")
    for _ in $(seq 100); do
        (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
        sleep 0.1
    done
done
joined=$(IFS=,; echo "${urls[*]}")
echo "loadgen against $nodes node(s): $joined" >&2
target/release/loadgen --url "$joined" --server-pid "${pids[0]}" "$@"
