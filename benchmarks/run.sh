#!/usr/bin/env bash
# The benchmarks' one driver, Bench (benchmarks/README.md): the layered benchmark (the default) and
# the side-by-side binding overhead; engine lists default to every engine's row (Engines.ALL): the
# harness finds each row on the class path, which holds every <engine>-binding/bench module built.
#   bash benchmarks/run.sh [--engines ENGINE,...] [--shapes fillseq,...]
#                          [--records 200000] [--rounds 3] [--smoke] [--dir D]
#   bash benchmarks/run.sh side-by-side [--engines ...] [--ops 200000] [--rounds 3] [--dir D]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# Each engine's row of the benchmarks: a Maven module in its binding's folder.
rows=()
for pom in "$top"/*-binding/bench/pom.xml; do
  [ -f "$pom" ] && rows+=("$(dirname "$pom")")
done
built=true
[ -d "$top/benchmarks/target/lib" ] || built=false
for row in "${rows[@]}"; do
  if [ ! -d "$row/target/lib" ] || [ ! -x "$row/target/native/floor" ]; then
    built=false
  fi
done
if ! $built; then
  (cd "$top" && mvn -q -B -DskipTests install)
fi
case "${1:-}" in
  side-by-side|layers) ;;
  *) set -- layers "$@" ;;
esac
# The harness, then each engine's row and its run-time class path (its binding and Java library).
cp="$top/benchmarks/target/classes:$top/benchmarks/target/lib/*"
for row in "${rows[@]}"; do
  cp="$cp:$row/target/classes:$row/target/lib/*"
done
# Every binding's own JNI library: the bindings with a C layer of their own (src/main/c).
libpath=""
for binding in "$top"/*-binding; do
  if [ -d "$binding/src/main/c" ]; then
    libpath="${libpath:+$libpath:}$binding/target/native"
  fi
done
exec java --enable-native-access=ALL-UNNAMED -Djava.library.path="$libpath" -Dlayers.top="$top" \
  -cp "$cp" site.ycsb.embedded.bench.Bench "$@"
