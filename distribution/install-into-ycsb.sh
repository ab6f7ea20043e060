#!/usr/bin/env bash
# Drops the ycsb-embedded bindings into an existing YCSB 0.17 distribution:
# copies each <engine>-binding/ directory and adds its line to the distribution's
# bin/bindings.properties, which upstream's bin/ycsb.sh reads. Where upstream already ships a binding
# of the same name (its RocksDB one), ours goes in beside it as e<name> (directory e<name>-binding).
# Usage: bash distribution/install-into-ycsb.sh /path/to/ycsb-0.17.0 [ycsb-embedded dir]
set -euo pipefail
ycsb=${1:?usage: install-into-ycsb.sh YCSB_HOME [ycsb-embedded distribution dir]}
from=${2:-$(cd "$(dirname "$0")/.." && pwd)}
[ -f "$ycsb/bin/bindings.properties" ] || { echo "no bin/bindings.properties in $ycsb: not a YCSB distribution" >&2; exit 1; }
ls "$ycsb"/lib/core-0.17*.jar >/dev/null 2>&1 || echo "warning: $ycsb/lib has no core-0.17 jar; these bindings are built for YCSB 0.17" >&2
installed=() mapped=() # the names installed, and those of the engines the registry marks launch.mmapspace
declare -A installed_as=()
while IFS=: read -r engine class; do
  case "$engine" in
    *.launch.mmapspace=true) owner=${installed_as[${engine%%.*}]:-}; [ -z "$owner" ] || mapped+=("$owner") ;;
  esac
  case "$engine" in ''|\#*|*.*) continue ;; esac # *.*: a fact line (name.fact=value), not name:class
  src="$from/${engine%%-*}-binding/lib"
  [ -d "$src" ] || { echo "skipping $engine: $src missing (use an assembled distribution)" >&2; continue; }
  name=$engine
  if grep -q "^$engine:" "$ycsb/bin/bindings.properties" && ! grep -q "^$engine:$class\$" "$ycsb/bin/bindings.properties"; then
    name=e$engine
  fi
  dir=$name-binding
  case "$name" in
    *-*) dir=${name%%-*}-binding ;; # another client of that binding: upstream's bin/ycsb.sh looks for it there
    *) mkdir -p "$ycsb/$dir/lib" && cp "$src"/* "$ycsb/$dir/lib/" ;;
  esac
  grep -q "^$name:" "$ycsb/bin/bindings.properties" || echo "$name:$class" >> "$ycsb/bin/bindings.properties"
  echo "installed $engine as '$name' ($ycsb/$dir)"
  installed_as[$engine]=$name installed+=("$name")
done < "$from/bin/bindings.properties"
# Upstream's bin/ycsb is Python 2 with a hard-coded list of binding names: python3 cannot start it and
# python2 rejects these names. Its bin/ycsb.sh reads bin/bindings.properties, so that is the launcher.
echo "run them with upstream's bin/ycsb.sh (its bin/ycsb is Python 2 and knows only its own names), e.g.:"
echo "  $ycsb/bin/ycsb.sh load <engine> -P $ycsb/workloads/workloada -p path=/tmp/ycsb-<engine>"
echo "  (<engine>: ${installed[*]})"
echo "JDK 22+: export JAVA_OPTS=--enable-native-access=ALL-UNNAMED before bin/ycsb.sh"
if [ ${#mapped[@]} -gt 0 ]; then
  echo "${mapped[*]} write through memory maps: with LD_PRELOAD=$ycsb/<engine>-binding/lib/libycsb_mmap_space.so"
  echo "  a disk another process fills is an ERROR, without it a SIGBUS that kills the JVM (our bin/ycsb sets it)"
fi
echo "exit status of bin/ycsb.sh with these bindings: 0 done, 3 the binding refused to open (bad property, locked,"
echo "  foreign or unwritable directory, full disk), 4 an operation returned ERROR; YCSB 0.17 alone exits 0 for both"
