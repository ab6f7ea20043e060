#!/usr/bin/env bash
# Runs every test: the Java modules against the real engines, then the analysis.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
mvn -B -ntp verify
# The layered benchmark at a tiny size: every layer of every engine and shape must run (no timing asserted).
bash benchmarks/run.sh --smoke
.venv/bin/python -m pytest -q analysis/tests distribution/tests
