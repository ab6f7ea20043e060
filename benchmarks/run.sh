#!/usr/bin/env bash
# The benchmarks' one driver, Bench (benchmarks/README.md): the layered benchmark (the default) and
# the side-by-side binding overhead; engine lists default to every engine (Engines.ALL).
#   bash benchmarks/run.sh [--engines leveldb,rocksdb,sqlite,kyoto,lmdb] [--shapes fillseq,...]
#                          [--records 200000] [--rounds 3] [--smoke] [--dir D]
#   bash benchmarks/run.sh side-by-side [--engines ...] [--ops 200000] [--rounds 3] [--dir D]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$top/benchmarks/target/lib" ] || [ ! -x "$top/benchmarks/target/native/floor" ] \
   || [ ! -x "$top/benchmarks/target/native/floor-rocksdbjni" ]; then
  (cd "$top" && mvn -q -B -DskipTests install)
fi
case "${1:-}" in
  side-by-side|layers) ;;
  *) set -- layers "$@" ;;
esac
# Every binding's own JNI library (Kyoto's; LevelDB's system variant).
libpath="$top/kyoto-binding/target/native:$top/leveldb-binding/target/native"
exec java --enable-native-access=ALL-UNNAMED -Djava.library.path="$libpath" -Dlayers.top="$top" \
  -cp "$top/benchmarks/target/classes:$top/benchmarks/target/lib/*" site.ycsb.embedded.bench.Bench "$@"
