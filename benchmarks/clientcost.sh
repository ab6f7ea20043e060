#!/usr/bin/env bash
# benchmarks/clientcost.sh: what the client costs per operation with a do-nothing DB (common/.../NothingDB.java),
# the project's driver (harness/) beside YCSB 0.17's own Client (bin/ycsb with YCSB_CLIENT=upstream), on load and
# on workloads C, A and E: one thread, the two clients alternated round by round, each row the median of ROUNDS.
#
# usage: benchmarks/clientcost.sh [ROUNDS] [OPERATIONS]       (defaults: 3 rounds of 3,000,000 operations)
# The clock: YCSB's [OVERALL] RunTime, from the client threads' start to their end (no engine to open or close),
# after the launcher's warm-up (warmup.operations=1000000): a warm client's cost. Needs the build (setup.sh).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=${1:-3} ops=${2:-3000000}
steps=("load:workloada" "run:workloadc" "run:workloada" "run:workloade")

one() { # client phase workload -> microseconds per operation
  local out
  out=$(YCSB_QUIET=1 YCSB_CLIENT=$1 "$here/bin/ycsb" "$2" lmdb -db site.ycsb.embedded.NothingDB \
    -P "$here/workloads/$3" -p recordcount="$ops" -p operationcount="$ops" -p warmup.operations=1000000 \
    -p warmup.seconds=10 2>/dev/null)
  awk -v n="$ops" '/^\[OVERALL\], RunTime/ { split($0, f, ", "); printf "%.4f\n", f[3] * 1000 / n }' <<< "$out"
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "# $(date -u '+%F %T') UTC, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); NothingDB, 1 thread," \
  "$ops operations, $rounds rounds alternated; us per operation (YCSB's RunTime / operations)"
declare -A got=()
for ((r = 1; r <= rounds; r++)); do
  for step in "${steps[@]}"; do
    for client in driver upstream; do
      got[$step/$client]+="$(one "$client" "${step%%:*}" "${step#*:}") "
    done
  done
done
printf '%-16s %10s %10s %8s  %s\n' step driver upstream ratio "rounds (driver / upstream)"
for step in "${steps[@]}"; do
  d=$(tr ' ' '\n' <<< "${got[$step/driver]}" | grep . | median)
  u=$(tr ' ' '\n' <<< "${got[$step/upstream]}" | grep . | median)
  label="${step%%:*} ${step#*:}"
  [ "${step%%:*}" = load ] && label=load
  awk -v l="$label" -v d="$d" -v u="$u" -v r="${got[$step/driver]}/ ${got[$step/upstream]}" \
    'BEGIN { printf "%-16s %10.3f %10.3f %8.2f  %s\n", l, d, u, d / u, r }'
done
