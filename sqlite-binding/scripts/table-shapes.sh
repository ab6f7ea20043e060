#!/usr/bin/env bash
# SQLite's two kv table shapes side by side: a rowid table plus a key index
# (sqlite.withoutrowid=false) as A, WITHOUT ROWID (true, db_bench_sqlite3's table) as B.
#   bash sqlite-binding/scripts/table-shapes.sh [--out DIR] [--repeat N] [--cap N] [--full] [SCENARIO|GROUP ...]
# Default: the suite's 2011 group and upstream's A-F (ycsb), quick counts, --repeat 3. Each scenario
# runs on both shapes back to back (A, then B, each --repeat N), so the two see the same machine;
# then `python -m analysis compare` writes DIR/compare.md (B / A per figure). The suite passes no
# -p, so each shape gets a copy of workloads/ whose top-level files end with its sqlite.withoutrowid;
# the binding's "[sqlite] table:" line of every step is checked against it.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
python=${PYTHON:-$top/.venv/bin/python}
out=results/$(date -u +%Y%m%d-%H%M%S)-sqlite-table-shapes
repeat=3
pass=()
names=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --cap) pass+=(--cap "$2"); shift 2 ;;
    --full) pass+=(--full); shift ;;
    -*) echo "unknown option $1" >&2; exit 2 ;;
    *) names+=("$1"); shift ;;
  esac
done
[ ${#names[@]} -gt 0 ] || names=(2011 ycsb)
mkdir -p "$out"
mapfile -t scenarios < <("$python" -c 'import sys
from analysis.catalogue.scenarios import select_scenarios
print("\n".join(s.id for s in select_scenarios(sys.argv[1:]) if "sqlite" in s.engines))' "${names[@]}")
[ ${#scenarios[@]} -gt 0 ] || { echo "no SQLite scenario in: ${names[*]}" >&2; exit 2; }

for shape in rowid withoutrowid; do
  value=$([ "$shape" = withoutrowid ] && echo true || echo false)
  rm -rf "$out/workloads-$shape"
  cp -r workloads "$out/workloads-$shape"
  for file in "$out/workloads-$shape"/*; do
    if [ -f "$file" ]; then
      printf '\n# sqlite-binding/scripts/table-shapes.sh\nsqlite.withoutrowid=%s\n' "$value" >>"$file"
    fi
  done
done

a=()
b=()
for scenario in "${scenarios[@]}"; do
  for shape in rowid withoutrowid; do
    dir=$out/$shape/$scenario
    echo "== $scenario, $shape table" >&2
    "$python" -m analysis run --engines sqlite --scenarios "$scenario" --repeat "$repeat" --no-report \
      --workloads "$out/workloads-$shape" --out "$dir" "${pass[@]}" >"$out/$shape-$scenario.log" 2>&1 \
      || { echo "FAILED: $scenario on the $shape table (log: $out/$shape-$scenario.log)" >&2; exit 1; }
    tables=$(grep -rh '^\[sqlite\] table:' "$dir" | sort -u)
    if [ "$shape" = withoutrowid ]; then
      bad=$(grep -v 'WITHOUT ROWID$' <<<"$tables" || true)
    else
      bad=$(grep 'WITHOUT ROWID$' <<<"$tables" || true)
    fi
    if [ -z "$tables" ] || [ -n "$bad" ]; then
      echo "FAILED: $scenario ran tables other than $shape: $tables" >&2
      exit 1
    fi
    if [ "$shape" = rowid ]; then a+=("$dir"); else b+=("$dir"); fi
  done
done
joined() { local IFS=,; echo "$*"; }
"$python" -m analysis compare "$(joined "${a[@]}")" "$(joined "${b[@]}")" --out "$out/compare.md"
