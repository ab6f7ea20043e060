#!/usr/bin/env bash
# The main job: set up, build, and run the quick reproduction of every published scenario on
# every engine (python -m analysis run); the last line printed is the path of the report.
# Options pass through: bash scripts/quick.sh --engines ENGINE --scenarios baseline --repeat 3
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# Quick (scaled-down counts) is the suite's default; --full passes through for the published counts.
# One round of the crash check per engine and sync mode gives the report its Durability section
# (about half a minute; --crash-rounds 0 after it turns it off).
exec .venv/bin/python -m analysis run --crash-rounds 1 "$@"
