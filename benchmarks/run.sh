#!/usr/bin/env bash
# Binding overhead, side by side in one JVM: each engine driven directly and through its YCSB
# binding, alternating rounds, printed as ops/sec and binding/direct ratios.
#   bash benchmarks/run.sh [--engines leveldb,rocksdb,sqlite,kyoto] [--ops 200000] [--rounds 3]
#   bash benchmarks/run.sh disk-guard [same options]: the free-space check on and off instead
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ -d "$top/benchmarks/target/lib" ] || (cd "$top" && mvn -q -B -DskipTests package)
main=site.ycsb.embedded.bench.BindingOverhead
if [ "${1:-}" = disk-guard ]; then
  main=site.ycsb.embedded.bench.DiskGuardCost
  shift
fi
exec java --enable-native-access=ALL-UNNAMED -Djava.library.path="$top/kyoto-binding/target/native" \
  -cp "$top/benchmarks/target/classes:$top/benchmarks/target/lib/*" "$main" "$@"
