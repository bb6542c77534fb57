#!/usr/bin/env bash
# Korf's 100 15-puzzles as 100 separate `client klotski terminal` processes, one after another
# (the way the course's grader runs its tests: a process per input, none of them at the same
# time), with the tables built beforehand. Not a test: a measurement to report. Builds
# nothing: build the client and the tables first,
#
#   cargo build --release --bin client && target/release/client klotski tables build
#
#   scripts/korf100.sh                      Korf's 100 (../shared/data/klotski/korf)
#   scripts/korf100.sh --random N [--seed S] N random 15-puzzles from `klotski generate`
#                                            (seeds S, S+1, ...; default S = 1)
#   scripts/korf100.sh --cross-check ...    also solves each instance again with the general
#                                            IDA* and the small tables (slow, not timed) and
#                                            compares the lengths: the check of random ones
#
# Every answer is checked: exactly the course's format (`Yes`, the step count, one `x S` line
# a step, nothing else), a solution that replays to the goal (an awk replay that shares no
# code with the solver), and its length equal to OPTIMAL.tsv's (Korf's) or the cross-check's.
# A note on standard error about missing or damaged tables fails the run. Prints each
# instance's wall time and processor time, then the totals, the worst and the machine's load
# (others' work on a shared machine stretches the wall time, not the processor time). Environment: CLIENT (default
# target/release/client), KORF (the folder of k15-NNN.in and OPTIMAL.tsv).
set -euo pipefail
source "$(dirname "$0")/lib/usage.sh"
cd "$(dirname "$0")/.."
client=${CLIENT:-target/release/client}
korf=${KORF:-../shared/data/klotski/korf}
random=0 seed=1 cross=0
while [ $# -gt 0 ]; do
  case $1 in
    --random) random=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --cross-check) cross=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) echo "unknown option $1 (see $0 --help)" >&2; exit 2 ;;
  esac
done
[ -x "$client" ] || { echo "no client at $client (cargo build --release --bin client)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

source scripts/lib/instances.sh
korf_instances 4 k15 "$random" "$seed" "$work"

# Replays the answer ($2) on the board ($1); prints the number of steps if the answer is in
# the course's format and ends at the goal, else what is wrong.
replay() { awk -f scripts/lib/replay.awk "$1" "$2"; }

now() { date +%s%N; }
total=0 worst=0 worst_name= failures=0 cpu_total=0
printf '%-22s %6s %8s %9s %8s\n' instance steps optimal "time ms" "cpu ms"
for instance in "${instances[@]}"; do
  read -r name input optimal <<< "$instance"
  started=$(now)
  status=0
  /usr/bin/time -o "$work/cpu" -f "%U %S" "$client" klotski terminal < "$input" > "$work/out" 2> "$work/err" || status=$?
  took=$((($(now) - started) / 1000000))
  cpu=$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$work/cpu")
  cpu_total=$((cpu_total + cpu))
  total=$((total + took))
  if [ "$took" -gt "$worst" ]; then worst=$took worst_name=$name; fi
  problem=
  if [ "$status" -ne 0 ]; then problem="exit code $status"; fi
  if grep -qi "tables" "$work/err"; then problem="tables: $(head -c 300 "$work/err")"; fi
  if [ -z "$problem" ]; then
    steps=$(replay "$input" "$work/out") || problem="$steps"
  fi
  if [ -z "$problem" ] && [ "$cross" = 1 ]; then
    reference=$("$client" klotski solve --method idastar --heuristic small-databases \
      --budget-ms 600000 < "$input" 2> /dev/null | sed -n 2p)
    if [ "$optimal" = "?" ]; then optimal=$reference; fi
    if [ "$reference" != "$optimal" ]; then problem="the cross-check says $reference"; fi
  fi
  if [ -z "$problem" ] && [ "$optimal" != "?" ] && [ "$steps" != "$optimal" ]; then
    problem="$steps steps, the optimum is $optimal"
  fi
  printf '%-22s %6s %8s %9d %8d %s\n' "$name" "${steps:--}" "$optimal" "$took" "$cpu" "${problem:+FAILED: $problem}"
  if [ -n "$problem" ]; then failures=$((failures + 1)); fi
  steps=
done
echo
seconds() { awk "BEGIN { printf \"%.2f\", $1 / 1000 }"; }
echo "${#instances[@]} processes one after another: total $(seconds "$total") s, worst $worst ms ($worst_name), $failures failed"
echo "their processor time (user + system): $(seconds "$cpu_total") s; load while measured: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$failures" -eq 0 ]
