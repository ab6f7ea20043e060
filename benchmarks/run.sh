#!/usr/bin/env bash
# The layered benchmark (default): per engine and 2011 shape, us/op from a C loop over the system
# library (a), the Java library (b), the binding (c), the binding through YCSB (d), YCSB with a
# do-nothing DB (e); a table per engine with what each layer adds. See benchmarks/README.md.
#   bash benchmarks/run.sh [--engines leveldb,rocksdb,sqlite,kyoto,lmdb] [--shapes fillseq,...]
#                          [--records 200000] [--rounds 3] [--smoke] [--dir D]
# Every verb is a question of one driver, Bench (the layered benchmark: layers, the default); engine lists
# default to every engine (Engines.ALL).
# The side-by-side binding overhead (one JVM, direct and binding rounds alternating):
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
