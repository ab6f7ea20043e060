#!/usr/bin/env bash
# Assembles a YCSB-style tarball of ycsb-embedded (after the Maven build):
#   bin/ycsb, bin/bindings.properties, bin/jvm.options, lib/ (YCSB core and its dependencies),
#   <engine>-binding/lib/ (binding, shared module, engine library; Kyoto's JNI library),
#   workloads/, README.md, docs/
# Usage: bash distribution/build.sh [output-dir]     (default: distribution/target)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/distribution/target}
version=$(sed -n 's:.*<version>\(.*\)</version>.*:\1:p' "$top/pom.xml" | head -1)
name=ycsb-embedded-$version
stage="$out/$name"
rm -rf "$stage" && mkdir -p "$stage/bin" "$stage/lib"
cp "$top/bin/ycsb" "$top/bin/bindings.properties" "$top/bin/jvm.options" "$stage/bin/"
cp -r "$top/workloads" "$top/README.md" "$top/docs" "$stage/"  # docs/: the README links there

# YCSB core and its own dependencies go to lib/, as in an upstream distribution.
core_jars=(core-*.jar HdrHistogram-*.jar htrace-core4-*.jar jackson-core-asl-*.jar jackson-mapper-asl-*.jar)
while IFS=: read -r engine _; do
  case "$engine" in ''|\#*|*.*) continue ;; esac # *.*: a fact line (name.fact=value), not name:class
  engine=${engine%%-*} # NAME-VARIANT: a second client of NAME-binding, staged once
  [ -d "$stage/$engine-binding" ] && continue
  module="$top/$engine-binding"
  if [ ! -d "$module/target/lib" ]; then
    echo "distribution: $engine-binding is not built (run: mvn -q -B -DskipTests package)" >&2
    exit 1
  fi
  mkdir -p "$stage/$engine-binding/lib"
  for jar in "$module/target/lib"/*.jar; do
    base=$(basename "$jar")
    in_core=false
    for pattern in "${core_jars[@]}"; do
      # shellcheck disable=SC2053
      [[ $base == $pattern ]] && in_core=true
    done
    if $in_core; then cp "$jar" "$stage/lib/"; else cp "$jar" "$stage/$engine-binding/lib/"; fi
  done
  cp "$module"/target/"$engine"-binding-*.jar "$stage/$engine-binding/lib/"
  [ -d "$module/target/native" ] && cp "$module"/target/native/*.so "$stage/$engine-binding/lib/"
  [ -f "$module/README.md" ] && cp "$module/README.md" "$stage/$engine-binding/"
done < "$top/bin/bindings.properties"

tar -C "$out" -czf "$out/$name.tar.gz" "$name"
echo "$out/$name.tar.gz"
