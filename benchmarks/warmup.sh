#!/usr/bin/env bash
# benchmarks/warmup.sh: what the launcher's warm-up (common/.../Warmup.java) and the JVM options do to YCSB's
# figures of a short run: the first measured second against the median second, and [OVERALL].
#
# usage: benchmarks/warmup.sh ENGINE|nothing ROUNDS RECORDS OPERATIONS CONFIG...
#   CONFIG is LABEL=PROPS[@JAVA_OPTS]: PROPS a comma-separated list of name=value for -p (or "-"), JAVA_OPTS
#   JVM options with "~" for a blank. The configurations are alternated (A B C A B C ...) so
#   that a machine shared with other work spreads over all of them; each row: medians of ROUNDS.
#   `nothing` runs YCSB with this project's do-nothing DB (no engine: the client, the workload, the measurements).
# Example: benchmarks/warmup.sh lmdb 3 200000 1000000 off=warmup.operations=0 on=-
# Needs `mvn -q -DskipTests package` (the lmdb binding's classpath also runs `nothing`). Writes under
# ${WARMUP_DIR:-/tmp/ycsb-warmup}: one database loaded once per engine (workload C only reads it).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
[ $# -ge 5 ] || { sed -n '4,12p' "$0" >&2; exit 2; }
engine=$1 rounds=$2 records=$3 ops=$4
shift 4
dir=${WARMUP_DIR:-/tmp/ycsb-warmup}
mkdir -p "$dir"
common=(-P "$here/workloads/workloadc" -p recordcount="$records" -p operationcount="$ops" -p fieldcount=1
  -p fieldlength=100 -p status.interval=1 -s)

run_one() { # label props opts -> "first median overall"
  local props=$2 opts=$3 extra=() jvm=() out
  # the JVM options, "~"-separated (a configuration is one word on the command line)
  [ -z "$opts" ] || IFS='~' read -r -a jvm <<< "$opts"
  if [ "$props" != - ]; then
    IFS=, read -r -a pairs <<< "$props"
    for p in "${pairs[@]}"; do extra+=(-p "$p"); done
  fi
  if [ "$engine" = nothing ]; then
    out=$(java "${jvm[@]}" -cp "$here/lmdb-binding/target/classes:$here/lmdb-binding/target/lib/*" \
      site.ycsb.embedded.CheckedClient -db site.ycsb.embedded.NothingDB -t "${common[@]}" "${extra[@]}" 2>&1)
  else
    out=$(JAVA_OPTS="${opts//\~/ }" "$here/bin/ycsb" run "$engine" "${common[@]}" -p path="$dir/$engine" \
      "${extra[@]}" 2>&1)
  fi
  # YCSB's status lines, "... N sec: M operations; R current ops/sec; ...": the first one, printed as the client
  # threads start, has no interval ("∞"), so the first second is the next; the last one is a partial second
  awk '/ sec: .* current ops\/sec/ { for (i = 1; i <= NF; i++) if ($i == "current" && $(i - 1) ~ /^[0-9.]+$/) r[++n] = $(i - 1) }
       /^\[OVERALL\], Throughput/ { split($0, f, ", "); overall = f[3] }
       END { m = n - 1; if (m < 1) { print "? ? " overall; exit }
             for (i = 1; i <= m; i++) { v = r[i]; j = i - 1; while (j >= 1 && s[j] > v) { s[j + 1] = s[j]; j-- } s[j + 1] = v }
             med = (m % 2) ? s[(m + 1) / 2] : (s[m / 2] + s[m / 2 + 1]) / 2
             printf "%s %s %s\n", r[1], med, overall }' <<< "$out"
}

if [ "$engine" != nothing ] && [ ! -f "$dir/$engine.loaded-$records" ]; then
  rm -rf "${dir:?}/$engine" "$dir/$engine".loaded-*
  YCSB_QUIET=1 "$here/bin/ycsb" load "$engine" "${common[@]}" -p path="$dir/$engine" -p warmup.operations=0 \
    > "$dir/$engine.load.log" 2>&1
  touch "$dir/$engine.loaded-$records"
fi

declare -A results=()
labels=()
for config in "$@"; do labels+=("${config%%=*}"); done
echo "# $(date -u '+%F %T') UTC, $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $engine, workload C," \
  "$records records x 1 field x 100 B, $ops reads, $rounds rounds alternated"
for ((r = 1; r <= rounds; r++)); do
  for config in "$@"; do
    label=${config%%=*} rest=${config#*=}
    props=${rest%%@*} opts=""
    [[ "$rest" == *@* ]] && opts=${rest#*@}
    line=$(run_one "$label" "$props" "$opts")
    echo "round $r $label: first/median/overall $line" >&2
    results[$label]+="$line"$'\n'
  done
done
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
printf '%-14s %14s %14s %8s %14s\n' config "first s ops/s" "median s" first/med "[OVERALL]"
for label in "${labels[@]}"; do
  rows=${results[$label]}
  first=$(awk 'NF { print $1 }' <<< "$rows" | median)
  med=$(awk 'NF { print $2 }' <<< "$rows" | median)
  ratio=$(awk 'NF { print $1 / $2 }' <<< "$rows" | median)
  overall=$(awk 'NF { print $3 }' <<< "$rows" | median)
  printf '%-14s %14.0f %14.0f %8.2f %14.0f\n' "$label" "$first" "$med" "$ratio" "$overall"
done
