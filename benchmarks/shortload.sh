#!/usr/bin/env bash
# benchmarks/shortload.sh: what the warm-up adds to a short bin/ycsb command: a RECORDS-record load of workloada
# with the default warm-up (bounded by the phase) against the same load with warmup.operations=0, alternated,
# wall-clock seconds of the whole command (JVM start to exit), medians of ROUNDS, per engine.
#
# usage: benchmarks/shortload.sh [ROUNDS] [RECORDS] [ENGINE...]   (defaults: 3, 1000, every engine)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
rounds=${1:-3} records=${2:-1000}
shift $(($# > 2 ? 2 : $#))
engines=("$@")
[ ${#engines[@]} -gt 0 ] || engines=(leveldb rocksdb sqlite kyoto lmdb)
dir=$(mktemp -d "${TMPDIR:-/tmp}/shortload.XXXXXX")
trap 'rm -rf "$dir"' EXIT

wall() { # engine extra-props... -> seconds
  local engine=$1 start end
  shift
  rm -rf "${dir:?}/db"
  start=$(date +%s.%N)
  YCSB_QUIET=1 "$here/bin/ycsb" load "$engine" -P "$here/workloads/workloada" -p recordcount="$records" \
    -p path="$dir/db" "$@" > /dev/null 2>&1
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "# $(date -u '+%F %T') UTC, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); bin/ycsb load, $records" \
  "records of workloada, $rounds rounds alternated; wall seconds of the command"
printf '%-8s %10s %10s %8s\n' engine warm off added
for engine in "${engines[@]}"; do
  on="" off=""
  for ((r = 1; r <= rounds; r++)); do
    on+="$(wall "$engine") "
    off+="$(wall "$engine" -p warmup.operations=0) "
  done
  w=$(tr ' ' '\n' <<< "$on" | grep . | median)
  o=$(tr ' ' '\n' <<< "$off" | grep . | median)
  awk -v e="$engine" -v w="$w" -v o="$o" 'BEGIN { printf "%-8s %10.3f %10.3f %8.3f\n", e, w, o, w - o }'
done
