#!/usr/bin/env bash
# The JMH experiment of issue 34 (benchmarks/README.md, "How the harness is built"): layer (c) of readrandom
# timed by JMH, beside LayerStep's own figure for the same cell, alternating, in one script.
#   bash benchmarks/jmh/run.sh [--engines lmdb,leveldb:leveldb.library=system] [--records 100000] [--rounds 3]
# Needs jmh-core and jmh-generator-annprocess 1.37 in ~/.m2 (mvn dependency:get -Dartifact=org.openjdk.jmh:...:1.37)
# and the benchmarks module built (mvn -DskipTests package).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
engines=lmdb,leveldb:leveldb.library=system
records=100000
rounds=3
while [ $# -gt 0 ]; do
  case "$1" in
    --engines) engines=$2; shift 2 ;;
    --records) records=$2; shift 2 ;;
    --rounds) rounds=$2; shift 2 ;;
    *) echo "unknown argument $1" >&2; exit 2 ;;
  esac
done
m2=${M2_REPO:-$HOME/.m2/repository}
jmh=$m2/org/openjdk/jmh
jars=$jmh/jmh-core/1.37/jmh-core-1.37.jar:$jmh/jmh-generator-annprocess/1.37/jmh-generator-annprocess-1.37.jar
jars=$jars:$m2/net/sf/jopt-simple/jopt-simple/5.0.4/jopt-simple-5.0.4.jar:$m2/org/apache/commons/commons-math3/3.6.1/commons-math3-3.6.1.jar
for j in ${jars//:/ }; do
  [ -f "$j" ] || { echo "missing $j: fetch JMH 1.37 with mvn dependency:get first" >&2; exit 3; }
done
out=$top/benchmarks/target/jmh
rm -rf "$out" && mkdir -p "$out"
cp="$top/benchmarks/target/classes:$top/benchmarks/target/lib/*:$jars"
javac -nowarn -d "$out" -cp "$cp" "$top/benchmarks/jmh/BindingReadJmh.java"
libpath="$top/kyoto-binding/target/native:$top/leveldb-binding/target/native"
java_args=(--enable-native-access=ALL-UNNAMED -Djava.library.path="$libpath" -cp "$out:$cp")
for round in $(seq 1 "$rounds"); do
  for spec in ${engines//,/ }; do
    d=$(mktemp -d)
    hand=$(java -Xms1g -XX:+AlwaysPreTouch -Xmx1g "${java_args[@]}" site.ycsb.embedded.bench.LayerStep \
      "$spec" readrandom binding "$records" "$d/db" "$top/workloads" | sed -n 's/.*us_per_op=\([0-9.]*\).*/\1/p')
    rm -rf "$d"
    jmhus=$(cd "$top" && java "${java_args[@]}" org.openjdk.jmh.Main BindingReadJmh -jvmArgs "-Xms1g -XX:+AlwaysPreTouch -Xmx1g --enable-native-access=ALL-UNNAMED -Djava.library.path=$libpath" \
      -p engine="$spec" -p records="$records" -p workloads="$top/workloads" -rf csv -rff "$out/r.csv" >/dev/null \
      && tail -1 "$out/r.csv" | cut -d, -f5)
    echo "round $round $spec hand-written=$hand JMH=$jmhus us/op"
  done
done
