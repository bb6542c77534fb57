#!/usr/bin/env bash
# Korf and Felner's 50 24-puzzles, each by one `client klotski solve` process on every core at a
# budget (10 minutes by default): which are proved optimal, with the positions expanded, the
# time and the length, and for the others the lower bound proved and the best solution found.
# Not a test: a measurement to report. It takes up to 50 budgets (8 hours at 10 minutes), so it
# keeps each instance's line in a results file as soon as it is done and, started again with
# the same file, goes on where it stopped. Builds nothing: build the client and the tables
# first,
#
#   cargo build --release --bin client && target/release/client klotski tables build --size 5x5
#
#   scripts/korf24.sh [--budget-ms MS] [--results FILE]     the 50 (../shared/data/klotski/korf)
#   scripts/korf24.sh --random N [--seed S] ...             N random 24-puzzles (`klotski
#                                                           generate`, seeds S, S+1, ...)
#
# Every answer is checked: the course's format and a replay to the goal
# (scripts/lib/replay.awk, which shares no code with the solver); a proved length must equal
# OPTIMAL.tsv's, and a proved lower bound must not exceed it. A note on standard error about
# missing tables fails the instance. Environment: CLIENT (default target/release/client), KORF.
set -euo pipefail
source "$(dirname "$0")/lib/usage.sh"
cd "$(dirname "$0")/.."
client=${CLIENT:-target/release/client}
korf=${KORF:-../shared/data/klotski/korf}
budget=600000 results=target/korf24.tsv random=0 seed=1
while [ $# -gt 0 ]; do
  case $1 in
    --budget-ms) budget=$2; shift 2 ;;
    --results) results=$2; shift 2 ;;
    --random) random=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option $1 (see $0 --help)" >&2; exit 2 ;;
  esac
done
[ -x "$client" ] || { echo "no client at $client (cargo build --release --bin client)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$(dirname "$results")"
[ -s "$results" ] || printf 'instance\toptimal\tproved\tsteps\tlower_bound\texpanded\tseconds\tbudget_ms\tproblem\n' > "$results"

source scripts/lib/instances.sh
korf_instances 5 k24 "$random" "$seed" "$work"

for instance in "${instances[@]}"; do
  read -r name input optimal <<< "$instance"
  if cut -f1 "$results" | grep -qx -- "$name"; then continue; fi
  started=$(date +%s%N)
  status=0
  "$client" klotski solve --budget-ms "$budget" < "$input" > "$work/out" 2> "$work/err" || status=$?
  seconds=$(awk "BEGIN { printf \"%.1f\", ($(date +%s%N) - $started) / 1e9 }")
  # "auto with pattern databases (5x5 6-6-6-6): 182425560 positions expanded, ..., lower bound 93, 30.074 s"
  stats=$(grep -m1 "positions expanded" "$work/err" || true)
  expanded=$(sed -n 's/.*: \([0-9]*\) positions expanded.*/\1/p' <<< "$stats")
  bound=$(sed -n 's/.*lower bound \([0-9]*\).*/\1/p' <<< "$stats")
  proved=no steps=- problem=
  if [ "$status" -ne 0 ] && [ "$status" -ne 2 ]; then problem="exit code $status"; fi
  if grep -q "6-6-6-6 pattern tables are" "$work/err"; then problem="the 6-6-6-6 tables are missing"; fi
  if [ -z "$problem" ] && [ "$status" -eq 0 ]; then
    steps=$(awk -f scripts/lib/replay.awk "$input" "$work/out") || { problem=$steps; steps=-; }
    if ! grep -q "not proved shortest" "$work/err"; then proved=yes bound=$steps; fi
  fi
  if [ -z "$problem" ] && [ "$optimal" != "?" ]; then
    if [ "$proved" = yes ] && [ "$steps" != "$optimal" ]; then problem="proved $steps, the optimum is $optimal"; fi
    if [ -n "$bound" ] && [ "$bound" -gt "$optimal" ]; then problem="lower bound $bound over the optimum $optimal"; fi
  fi
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$optimal" "$proved" "$steps" "${bound:--}" \
    "${expanded:--}" "$seconds" "$budget" "$problem" | tee -a "$results"
done
echo
awk -F'\t' 'NR > 1 { n++; if ($3 == "yes") { p++; nodes += $6; secs += $7 } if ($9 != "") bad++ }
  END { printf "%d instances: %d proved optimal (%.0f positions, %.0f s in all for those), %d with a problem\n", n, p, nodes, secs, bad }' "$results"
echo "results: $results; load now: $(cut -d' ' -f1-3 /proc/loadavg)"
