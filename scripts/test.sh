#!/usr/bin/env bash
# Runs every test: the analysis' lint and type checks (quick, so first), the Java modules against the
# real engines, then the analysis' tests and the crash check (kill -9 on every engine). Any finding fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
shellcheck bin/ycsb scripts/*.sh distribution/*.sh benchmarks/*.sh ./*-binding/bench/*.sh
# ruff and mypy read their configuration from pyproject.toml.
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
mvn -B -ntp verify
# The layered benchmark at a tiny size: every layer of every engine and shape must run (no timing asserted).
bash benchmarks/run.sh --smoke
.venv/bin/python -m pytest -q analysis/tests distribution/tests
# The crash check on every engine: 3 rounds of kill -9 per sync mode; a synced write lost fails CI.
.venv/bin/python -m analysis crash --rounds 3 --out results/test-crash
