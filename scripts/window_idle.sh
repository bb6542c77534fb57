#!/usr/bin/env bash
# How much CPU the window takes while nothing happens, under Xvfb (software OpenGL), and how
# long its first frame takes. Not a test: a measurement to report.
#
#   scripts/window_idle.sh [client binary]     (default: target/release/client)
#
# Prints, for the lobby and for a room (HER waiting for the person's first move), the
# client's CPU (and the Xvfb server's, which shows its frames) over $SECONDS_MEASURED
# seconds (default 10) after $SETTLE seconds (default 4), as a share of one core. A quiet
# window draws once a second, woken sooner by input and the network (gui/pacing.rs, wake.rs).
# The client runs its embedded server (as `cargo run --bin client` does), with a fresh
# PARLOR_HOME and data folder.
set -euo pipefail
source "$(dirname "$0")/lib/usage.sh"
case ${1:-} in -h|--help) usage; exit 0 ;; esac
client=${1:-target/release/client}
seconds=${SECONDS_MEASURED:-10}
settle=${SETTLE:-4}
command -v xvfb-run >/dev/null || { echo "needs xvfb-run (apt install xvfb)" >&2; exit 2; }
[ -x "$client" ] || { echo "no client at $client (cargo build --release --bin client)" >&2; exit 2; }
ticks=$(getconf CLK_TCK)
exe=$(realpath "$client")

# The client process (not xvfb-run, whose command line names it too) started with folder $1.
client_pid() {
    for pid in $(pgrep -f -- "$1" || true); do
        if [ "$(readlink "/proc/$pid/exe" 2>/dev/null)" = "$exe" ]; then echo "$pid"; fi
    done
    return 0
}

# CPU ticks (user + system) of process $1 and its threads.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }

# Runs the client with the given arguments under Xvfb; prints its idle CPU share.
measure() {
    local name=$1; shift
    local home; home=$(mktemp -d)
    local display=$((100 + RANDOM % 400))
    PARLOR_HOME=$home xvfb-run -n "$display" -s "-screen 0 1366x768x24" \
        "$client" --data "$home/data" "$@" >"$home/out" 2>&1 &
    local runner=$!
    local pid=""
    for _ in $(seq 100); do
        pid=$(client_pid "$home/data")
        [ -n "$pid" ] && break
        sleep 0.1
    done
    [ -n "$pid" ] || { echo "$name: the client did not start"; cat "$home/out"; return 1; }
    local xvfb; xvfb=$(pgrep -f "Xvfb :$display " | head -1)
    sleep "$settle"
    local before; before=$(cpu_ticks "$pid")
    local x_before; x_before=$(cpu_ticks "$xvfb")
    sleep "$seconds"
    local after; after=$(cpu_ticks "$pid")
    local x_after; x_after=$(cpu_ticks "$xvfb")
    kill "$pid" 2>/dev/null || true
    wait "$runner" 2>/dev/null || true
    awk -v name="$name" -v t=$((after - before)) -v x=$((x_after - x_before)) -v hz="$ticks" \
        -v s="$seconds" 'BEGIN { printf "%-6s idle CPU: client %5.1f %%, Xvfb %5.1f %% of one core over %d s\n",
                                 name, 100 * t / hz / s, 100 * x / hz / s, s }'
    rm -rf "$home"
}

# The first frame: from start to the screenshot the scripted room takes once it shows.
first_frame() {
    local home; home=$(mktemp -d)
    local start; start=$(date +%s.%N)
    PARLOR_HOME=$home xvfb-run -a -s "-screen 0 1366x768x24" "$client" --data "$home/data" \
        --open-room "klotski levels/klotski/lunaqu4kez_test_1.in" --screenshot "$home/shot.png" >"$home/out" 2>&1 \
        || { echo "first frame: the client failed"; cat "$home/out"; return 1; }
    local end; end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" \
        'BEGIN { printf "a room on screen (start, connect, create, first frame, exit): %.2f s\n", b - a }'
    rm -rf "$home"
}

measure lobby
measure room --open-room "hexapawn slow"
first_frame
