#!/usr/bin/env bash
# Side by side in one run: leveldbjni (LevelDB 1.13) against leveldb.library=system (LevelDB 1.23)
# through bin/ycsb on upstream's workloads C, E and A, plus the sequential pass through YCSB
# against floor.c, our C loop over the same library, database and settings, which also times
# workload C's reads (the same zipfian keys, one get each) for the read latency's floor. Each round runs
# every step for both libraries, alternating; the summary prints every figure of every round
# and the median. Needs a built tree (scripts/setup.sh) and gcc.
#   bash leveldb-binding/bench/compare-libraries.sh            # 1M records, 3 rounds
#   RECORDS=100000 ROUNDS=1 bash leveldb-binding/bench/compare-libraries.sh   # a quick look
set -euo pipefail
cd "$(dirname "$0")/../.."

records=${RECORDS:-1000000}
ops=${OPS:-200000}     # operations of a C or A run
scans=${SCANS:-50000}  # operations of an E run (95% scans)
rounds=${ROUNDS:-3}
passes=${PASSES:-3}    # full passes of a readseq run (the first one in a fresh JVM is mostly JIT warm-up)
out=${OUT:-results/leveldb-libraries}
mkdir -p "$out"
export YCSB_QUIET=1

# The shape C++ YCSB harnesses use for LevelDB: 1 field of 100 bytes, 1 thread, 128 MB cache,
# 64 MB write buffer; the bloom filter (10 bits) only the system library has.
common=(-p fieldcount=1 -p fieldlength=100 -p recordcount="$records" -p leveldb.cachesize=128m
        -p leveldb.writebuffersize=64m)
declare -A lib_opts=([leveldbjni]="-p leveldb.library=leveldbjni"
                     [system]="-p leveldb.library=system -p leveldb.bloombits=10")
libs=(leveldbjni system)

gcc -O2 -o "$out/floor" leveldb-binding/src/test/c/floor.c -lleveldb

ycsb() { # ycsb <load|run> <lib> <name> [options]...
  local cmd=$1 lib=$2 name=$3
  shift 3
  # shellcheck disable=SC2086
  bin/ycsb "$cmd" leveldb "${common[@]}" ${lib_opts[$lib]} -p path="$out/db-$lib" "$@" \
    >"$out/$name-$lib.txt" 2>"$out/$name-$lib.err"
}

for lib in "${libs[@]}"; do
  echo "load $lib" >&2
  ycsb load "$lib" load -P workloads/workloada -p destroy=true
done
# The keys workload C reads, for the C floor's gets (leveldb-binding/src/test/java/.../WorkloadKeys.java).
java -cp "leveldb-binding/target/test-classes:leveldb-binding/target/classes:leveldb-binding/target/lib/*" \
  site.ycsb.embedded.leveldb.WorkloadKeys "$records" "$ops" "$out/c-keys.txt"
for round in $(seq 1 "$rounds"); do
  for lib in "${libs[@]}"; do
    echo "round $round: $lib" >&2
    ycsb run "$lib" "c-$round" -P workloads/workloadc -p operationcount="$ops"
    ycsb run "$lib" "readseq-$round" -P workloads/workloadc -p workload=site.ycsb.embedded.workload.EmbeddedWorkload \
      -p readproportion=0 -p readseqproportion=1 -p operationcount="$passes"
    if [ "$lib" = system ]; then
      "$out/floor" "$out/db-$lib" $((128 << 20)) 10 "$passes" >"$out/creadseq-$round-$lib.txt"
      "$out/floor" "$out/db-$lib" $((128 << 20)) 10 1 "$out/c-keys.txt" >"$out/cgets-$round-$lib.txt"
    fi
    ycsb run "$lib" "e-$round" -P workloads/workloade -p operationcount="$scans"
    ycsb run "$lib" "a-$round" -P workloads/workloada -p operationcount="$ops"
  done
done

median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
figure() { # figure <file pattern> <grep> <awk field>
  local vals
  vals=$(for f in $1; do grep -h "$2" "$f" | awk -F', ' '{print $3}'; done)
  printf '%s  (median %s)\n' "$(tr '\n' ' ' <<<"$vals")" "$(median <<<"$vals")"
}
{
  echo "LevelDB libraries side by side: $records records, $rounds rounds, $passes readseq passes, $(nproc) cores, $(date -u +%FT%TZ)"
  for lib in "${libs[@]}"; do
    echo "== $lib"
    echo "C  throughput ops/sec:       $(figure "$out/c-*-$lib.txt" '^\[OVERALL\], Throughput')"
    echo "C  read latency us (in op):  $(figure "$out/c-*-$lib.txt" '^\[READ\], AverageLatency')"
    echo "A  throughput ops/sec:       $(figure "$out/a-*-$lib.txt" '^\[OVERALL\], Throughput')"
    echo "E  scan average latency us:  $(figure "$out/e-*-$lib.txt" '^\[SCAN\], AverageLatency')"
    echo "readseq through YCSB, entries/sec: $(figure "$out/readseq-*-$lib.txt" '^\[READSEQ\], Entries/sec')"
  done
  vals=$(grep -ho '[0-9]* entries/sec' "$out"/creadseq-*-system.txt | awk '{print $1}')
  echo "== floor.c's pass over the system library, entries/sec: $(tr '\n' ' ' <<<"$vals") (median $(median <<<"$vals"))"
  vals=$(grep -ho '[0-9.]* us/get' "$out"/cgets-*-system.txt | awk '{print $1}')
  echo "== floor.c's gets of workload C's keys over the system library, us/get: $(tr '\n' ' ' <<<"$vals") (median $(median <<<"$vals"))"
} | tee "$out/summary.txt"
