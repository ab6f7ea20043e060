#!/usr/bin/env bash
# Runs every test: the Java modules against the real engines, the analysis, then the crash check.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mvn -B -ntp verify
.venv/bin/python -m pytest -q analysis/tests distribution/tests
# The crash check on every engine: 3 rounds of kill -9 per sync mode; a synced write lost fails CI.
.venv/bin/python -m analysis crash --rounds 3 --out results/test-crash
