#!/usr/bin/env bash
# SQLite's random fill with 4 MB and with 128 MB of page cache (issue 23, item 4; the suite's
# randwrite and bigwrite-randwrite), per page size and table shape, through two programs:
#   floor  the layered benchmark's C loop (benchmarks/src/main/c/floor.c) over Debian's libsqlite3;
#   ycsb   the binding through bin/ycsb (sqlite-jdbc's own SQLite), workloads/randwrite
#          [+ workloads/bigwrite-memory];
#   py     with PYTHON_APSW=<a python that imports apsw>: one Python loop over the stdlib's sqlite3
#          (the system library) and over apsw's bundled SQLite, to compare two versions in one program.
# Every program uses the same settings (EXCLUSIVE, WAL, synchronous OFF, one transaction per insert,
# keys drawn with replacement from [0, records)); cells alternate within each round. Figures are
# inserts/s over the insert loop (floor, py) or YCSB's [OVERALL] throughput (ycsb: open and close in).
#   bash benchmarks/sqlite-cache.sh [--records 100000] [--rounds 3] [--pages 1024,4096]
#                                   [--tables without-rowid,rowid] [--programs floor,ycsb,py] [--dir D]
# Prints each run, then per cell the median of the rounds and the 128 MB / 4 MB ratio.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
records=100000 rounds=3 pages=1024,4096 tables=without-rowid,rowid programs=floor,ycsb,py
dir=$(mktemp -d "${TMPDIR:-/tmp}/sqlite-cache.XXXXXX")
while [ $# -gt 0 ]; do
  case "$1" in
    --records) records=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    --pages) pages=$2; shift 2 ;;
    --tables) tables=$2; shift 2 ;;
    --programs) programs=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
done
floor=$top/benchmarks/target/native/floor
[[ ,$programs, != *,floor,* ]] || [ -x "$floor" ] || { echo "build the floor first: mvn -q -B -DskipTests -pl benchmarks -am install" >&2; exit 2; }
if [[ ,$programs, == *,py,* ]] && [ -z "${PYTHON_APSW:-}" ]; then
  echo "(py skipped: set PYTHON_APSW to a python that imports apsw)" >&2
  programs=${programs//py/}
fi
mkdir -p "$dir"
runs=$dir/runs.txt
: >"$runs"

# The Python loop: the floor's keys (SplitMix64 draws of the load seed), 100-byte values, one
# transaction per insert. argv: library (sqlite3|apsw) table page_size cache_kib records file.
pyloop=$(cat <<'PY'
import sys, time
lib, table, page, cache, n, path = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
M = (1 << 64) - 1
def draw(i):
    z = (20110727 + (i + 1) * 0x9E3779B97F4A7C15) & M
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M
    return (z ^ (z >> 31)) % n
keys = [b"%016d" % draw(i) for i in range(n)]
value = bytes(range(32, 132))
if lib == "apsw":
    import apsw
    db = apsw.Connection(path)
    run = db.execute
    version = apsw.sqlite_lib_version()
else:
    import sqlite3
    db = sqlite3.connect(path, isolation_level=None)
    run = db.execute
    version = sqlite3.sqlite_version
for pragma in (f"page_size={page}", f"cache_size=-{cache}", "locking_mode=EXCLUSIVE", "journal_mode=WAL",
               "synchronous=OFF"):
    list(run("PRAGMA " + pragma))
rowid = "" if table == "rowid" else " WITHOUT ROWID"
run(f"CREATE TABLE usertable (key BLOB PRIMARY KEY NOT NULL, value BLOB NOT NULL){rowid}")
sql = "INSERT OR REPLACE INTO usertable (key, value) VALUES (?, ?)"
t0 = time.perf_counter()
for k in keys:
    run(sql, (k, value))
t1 = time.perf_counter()
db.close()
print(f"{n / (t1 - t0):.0f} SQLite-{version}")
PY
)

one() { # program table page cache(4m|128m) round -> appends "program/lib table page cache round ops/s"
  local program=$1 table=$2 page=$3 cache=$4 round=$5 d out
  d=$dir/db && rm -rf "$d" && mkdir -p "$d"
  case "$program" in
    floor)
      local shape=fillrandom
      [ "$cache" = 128m ] && shape=fillrandom128m
      out=$(FLOOR_SQLITE_TABLE=$table FLOOR_SQLITE_PAGE_SIZE=$page "$floor" sqlite "$shape" "$records" "$d")
      echo "floor $table $page $cache $round $(awk '{for (i = 1; i <= NF; i++) if ($i ~ /^us_per_op=/) { split($i, a, "="); printf "%.0f", 1e6 / a[2] }}' <<<"$out")" >>"$runs"
      ;;
    ycsb)
      local more=() rowid=true
      [ "$cache" = 128m ] && more=(-P "$top/workloads/bigwrite-memory")
      [ "$table" = rowid ] && rowid=false
      out=$(YCSB_QUIET=1 "$top/bin/ycsb" load sqlite -P "$top/workloads/randwrite" "${more[@]}" -p recordcount="$records" \
        -p path="$d" -p sqlite.pagesize="$page" -p sqlite.withoutrowid="$rowid" 2>"$dir/ycsb.err")
      echo "ycsb $table $page $cache $round $(awk -F', ' '/^\[OVERALL\], Throughput/ {printf "%.0f", $3}' <<<"$out")" >>"$runs"
      ;;
    py)
      local lib kib=4096
      [ "$cache" = 128m ] && kib=131072
      for lib in sqlite3 apsw; do
        rm -rf "$d" && mkdir -p "$d"
        out=$("$PYTHON_APSW" -c "$pyloop" "$lib" "$table" "$page" "$kib" "$records" "$d/ycsb.db")
        echo "py-$lib-${out#* } $table $page $cache $round ${out%% *}" >>"$runs"
      done
      ;;
  esac
  tail -n 1 "$runs"
}

for round in $(seq 1 "$rounds"); do
  for page in ${pages//,/ }; do
    for table in ${tables//,/ }; do
      for program in ${programs//,/ }; do
        for cache in 4m 128m; do
          one "$program" "$table" "$page" "$cache" "$round"
        done
      done
    done
  done
done

echo
echo "inserts/s, median of $rounds round(s), $records inserts (keys drawn with replacement); $(nproc) cores"
printf "%-26s %-14s %6s %10s %10s %8s\n" "program" "table" "page" "4 MB" "128 MB" "128/4"
awk '
  { key = $1 " " $2 " " $3; v[key, $4, ++n[key, $4]] = $6; keys[key] = 1 }
  function median(key, c,   m, i, j, t, a) {
    m = n[key, c]
    for (i = 1; i <= m; i++) a[i] = v[key, c, i]
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
    return m % 2 ? a[(m + 1) / 2] : (a[m / 2] + a[m / 2 + 1]) / 2
  }
  END {
    for (key in keys) {
      split(key, f, " ")
      small = median(key, "4m"); big = median(key, "128m")
      printf "%-26s %-14s %6s %10.0f %10.0f %8.2f\n", f[1], f[2], f[3], small, big, small ? big / small : 0
    }
  }' "$runs" | sort -k1,1 -k2,2 -k3,3n
rm -rf "$dir/db"
