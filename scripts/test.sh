#!/usr/bin/env bash
# Runs every test: the Java modules against the real engines, then the analysis.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
shellcheck bin/ycsb scripts/*.sh distribution/*.sh benchmarks/*.sh
mvn -B -ntp verify
.venv/bin/python -m pytest -q analysis/tests distribution/tests
