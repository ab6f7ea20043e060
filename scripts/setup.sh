#!/usr/bin/env bash
# Installs everything ycsb-embedded needs on a Debian machine (as root), then builds it.
# Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# One line on stderr per stage, with the time since the start: a first run takes minutes (the build most of them).
stage() { printf 'setup [%d:%02d] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*" >&2; }
SECONDS=0
stage "1/4 system packages: checking what is missing"
apt_packages=()
need_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed' || apt_packages+=("$1"); }
command -v javac >/dev/null || apt_packages+=(openjdk-17-jdk-headless)
command -v mvn >/dev/null || apt_packages+=(maven)
command -v python3 >/dev/null || apt_packages+=(python3)
command -v gcc >/dev/null || apt_packages+=(gcc)
command -v make >/dev/null || apt_packages+=(make)
command -v shellcheck >/dev/null || apt_packages+=(shellcheck)   # scripts/test.sh checks the shell scripts
need_pkg libsnappy-dev
# Each engine's packages (its C library, its file checker): the registry's <name>.debian.packages, whose comments
# say what each is for.
while IFS= read -r line; do
  case "$line" in ''|\#*|\!*) continue ;; esac
  case "${line%%[:=]*}" in
    *.debian.packages)
      read -r -a packages <<< "${line#*=}"
      for package in "${packages[@]}"; do need_pkg "$package"; done
      ;;
  esac
done < bin/bindings.properties
need_pkg chromium            # headless browser: the test that the HTML report fits a 1280-pixel window
if command -v python3 >/dev/null && ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  apt_packages+=(python3-venv python3-pip)
fi
if [ ${#apt_packages[@]} -gt 0 ]; then
  stage "1/4 system packages: installing ${apt_packages[*]} (apt-get, quiet: minutes on a fresh machine)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${apt_packages[@]}" >/dev/null
else
  stage "1/4 system packages: all there"
fi

# The analysis (Python) lives in its own virtual environment; pyproject.toml pins its dependencies
# (runtime and the test extra: pytest, ruff, mypy). Editable, because the package runs from this tree.
stage "2/4 the analysis' Python environment: .venv, pip install -e '.[test]' (quiet)"
if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[test]'

# The Java modules; tests run from scripts/test.sh.
stage "3/4 the Java modules: mvn -q -DskipTests install (quiet: several minutes on a first run, which downloads the dependencies)"
mvn -q -B -DskipTests install

# Each binding's class-data-sharing archive, which bin/ycsb maps at each start (0.07-0.23 s less per JVM):
# trained again only when the build changed its jars. A failed training leaves that binding without one.
stage "4/4 each binding's class-data-sharing archive (bin/ycsb cds-archive)"
for module in *-binding; do
  bin/ycsb cds-archive "${module%-binding}" >/dev/null || echo "setup: ${module%-binding} starts without an archive" >&2
done
stage "done: bin/ycsb --help lists the commands and engines; .venv/bin/python -m analysis run --quick runs the suite"
