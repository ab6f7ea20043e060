#!/usr/bin/env bash
# The layered benchmark (default): per engine and 2011 shape, us/op from a C loop over the system
# library (a), the Java library (b), the binding (c), the binding through YCSB (d), YCSB with a
# do-nothing DB (e); a table per engine with what each layer adds. See benchmarks/README.md.
#   bash benchmarks/run.sh [--engines leveldb,rocksdb,sqlite,kyoto,lmdb] [--shapes fillseq,...]
#                          [--records 200000] [--rounds 3] [--smoke] [--own] [--dir D]
# Every verb is a question of one driver, Bench (the layered benchmark: layers, the default); engine lists
# default to every engine (Engines.ALL).
# The side-by-side binding overhead (one JVM, direct and binding rounds alternating):
#   bash benchmarks/run.sh side-by-side [--engines ...] [--ops 200000] [--rounds 3] [--dir D]
# The free-space check's cost, on and off side by side:
#   bash benchmarks/run.sh disk-guard [--engines ...] [--ops 200000] [--rounds 3]
# The binding's own code per call over an engine that does nothing:
#   bash benchmarks/run.sh binding-cost [--ops 1000000] [--rounds 5]
# The binding's own time per point read (whole minus engine call) at the scale group's smallest and largest data sizes:
#   bash benchmarks/run.sh flat-cost [--engines rocksdb,lmdb] [--records 262144,4194304] [--rounds 3]
#                                    [--ops 600000] [--operations read,update] [--dir D]
# The binding's own time per read over a stand-in engine that does nothing, touches memory, or makes a pread:
#   bash benchmarks/run.sh engine-work [--ops 300000] [--rounds 5]
# YCSB's client per operation around a do-nothing DB, CoreWorkload against EmbeddedWorkload in one JVM:
#   bash benchmarks/run.sh client-cost [--ops 1000000] [--rounds 3]
# LMDB's warm point read, path by path in one JVM (snapshot per read or kept, proxies):
#   bash benchmarks/run.sh lmdb-read [--records 200000] [--reads 2000000] [--rounds 3] [--dir D]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$top/benchmarks/target/lib" ] || [ ! -x "$top/benchmarks/target/native/floor" ] \
   || [ ! -x "$top/benchmarks/target/native/floor-rocksdbjni" ]; then
  (cd "$top" && mvn -q -B -DskipTests install)
fi
opens=()
case "${1:-}" in
  # lmdbjava's ByteBuffer proxy reads and sets a direct buffer's address through JDK internals: JDK 17 lets it
  # with these two flags only (upstream's bin/ycsb passes neither, so the binding does not use that proxy)
  lmdb-read) opens=(--add-opens java.base/java.nio=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED) ;;
  side-by-side|disk-guard|binding-cost|flat-cost|client-cost|engine-work|layers) ;;
  *) set -- layers "$@" ;;
esac
# Every binding's own JNI library (Kyoto's; LevelDB's system variant).
libpath="$top/kyoto-binding/target/native:$top/leveldb-binding/target/native"
exec java --enable-native-access=ALL-UNNAMED "${opens[@]}" -Djava.library.path="$libpath" -Dlayers.top="$top" \
  -cp "$top/benchmarks/target/classes:$top/benchmarks/target/lib/*" site.ycsb.embedded.bench.Bench "$@"
