#!/usr/bin/env bash
# benchmarks/jvmstart.sh: what the class-data-sharing archive (bin/ycsb cds-archive) saves at each start of
# bin/ycsb: the wall time of one short step (a load of 2,000 records, warm-up off: the JVM's start, the open, the
# close, the exit) without the archive (YCSB_CDS=0) and with it, the two alternated per engine, ROUNDS rounds.
# Each row: medians of the rounds, in ms, the median of the paired differences, and with / without.
#
# usage: benchmarks/jvmstart.sh ROUNDS [ROW...]   (ROW: an engine of bin/ycsb or leveldb-system; default: all)
# Needs scripts/setup.sh (the build and its archives). Writes under ${JVMSTART_DIR:-/tmp/ycsb-jvmstart}.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -ge 1 ] || { sed -n '7,8p' "$0" >&2; exit 2; }
rounds=$1
shift
rows=("$@")
[ ${#rows[@]} -gt 0 ] || rows=(leveldb leveldb-system rocksdb sqlite kyoto lmdb)
dir=${JVMSTART_DIR:-/tmp/ycsb-jvmstart}
mkdir -p "$dir"

one() { # row cds -> wall ms of one short load
  local row=$1 cds=$2 engine=$1 extra=() start end
  [ "$row" = leveldb-system ] && engine=leveldb extra=(-p leveldb.library=system)
  rm -rf "${dir:?}/$row"
  start=$(date +%s%N)
  if ! YCSB_QUIET=1 YCSB_CDS=$cds "$here/bin/ycsb" load "$engine" -P "$here/workloads/randwrite" \
    -p recordcount=2000 -p warmup.operations=0 -p path="$dir/$row" "${extra[@]}" > "$dir/out.txt" 2>&1; then
    echo "jvmstart: $row failed:" >&2
    tail -n 5 "$dir/out.txt" >&2
    exit 1
  fi
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}

echo "# $(date -u '+%F %T') UTC, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $rounds rounds alternated"
printf '%-15s %9s %9s %9s %10s\n' row "off ms" "on ms" "saved ms" "on / off"
for row in "${rows[@]}"; do
  pairs=""
  for ((r = 1; r <= rounds; r++)); do
    pairs+="$(one "$row" 0) $(one "$row" 1)"$'\n'
  done
  awk -v row="$row" 'function median(a, n,   i, j, v, s) {
         for (i = 1; i <= n; i++) { v = a[i]; j = i - 1; while (j >= 1 && s[j] > v) { s[j + 1] = s[j]; j-- } s[j + 1] = v }
         return (n % 2) ? s[(n + 1) / 2] : (s[n / 2] + s[n / 2 + 1]) / 2 }
       NF { n++; off[n] = $1; on[n] = $2; d[n] = $1 - $2 }
       END { printf "%-15s %9d %9d %9d %10.2f\n", row, median(off, n), median(on, n), median(d, n),
             median(on, n) / median(off, n) }' <<< "$pairs"
done
