#!/usr/bin/env bash
# The main job: set up, build, and run a quick reproduction of the 2011 baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
records=${RECORDS:-100000}
out=results/quick-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out"
for engine in leveldb; do
  for step in "load randwrite" "run randread" "load seqwrite" "run seqread"; do
    set -- $step
    echo "== $engine: $1 $2 ($records records)"
    bin/ycsb "$1" "$engine" -P "workloads/$2" -p recordcount=$records -p operationcount=$records \
      -p path="$out/data/$engine" > "$out/$engine-$2.txt" 2> "$out/$engine-$2.log"
    grep -E '^\[(OVERALL|INSERT|READ|SCAN|READSEQ)\], (Throughput|Operations|AverageLatency|Return|Entries)' "$out/$engine-$2.txt"
  done
done
echo "raw outputs: $out"
