"""Shared test helpers: where the captured outputs are, which engines have them, and `python -m analysis` run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from analysis.catalogue.scenarios import forget_own

FIXTURES = Path(__file__).resolve().parent / "fixtures"
REPO = Path(__file__).resolve().parents[2]


def run_analysis(*args: str, timeout: float, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m analysis ARGS` in a child process from the top folder, its stdout and stderr kept as text."""
    return subprocess.run(
        [sys.executable, "-m", "analysis", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout
    )


def captured_engines() -> list[str]:
    """Engines with outputs captured by fixtures/capture.sh (one directory each)."""
    return sorted(p.name for p in FIXTURES.iterdir() if p.is_dir() and (p / "load.txt").is_file())


class Captured:
    """One engine's captured outputs: stdout (.txt), stderr (.err), JSON exporter file (.json)."""

    def __init__(self, engine: str):
        self.engine = engine
        self.directory = FIXTURES / engine

    def stdout(self, case: str) -> str:
        return (self.directory / f"{case}.txt").read_text()

    def stderr(self, case: str) -> str:
        return (self.directory / f"{case}.err").read_text()

    def json(self, case: str) -> str:
        return (self.directory / f"{case}.json").read_text()


@pytest.fixture(params=captured_engines())
def captured(request) -> Captured:
    return Captured(request.param)


@pytest.fixture(autouse=True)
def _catalogue_alone_after_each_test():
    """A test that runs or reads a user's workload file registers its scenario for the process: gone after it."""
    yield
    forget_own()
