"""Only drawing a chart loads matplotlib (about 0.4 s and 30 MB) and only loading a run loads pandas
(about 0.2 s and 60 MB): the parser, the tables, the report module and the command line stay light
until they need them. Each check runs in a fresh interpreter."""

from __future__ import annotations

import subprocess
import sys

import pytest

from .conftest import REPO

LIGHT_MODULES = (
    "analysis",
    "analysis.results.parse",
    "analysis.results.engine_lines",
    "analysis.results.workload_lines",
    "analysis.results.results",
    "analysis.results.tidy",
    "analysis.results.merge",
    "analysis.catalogue.scenarios",
    "analysis.report.report_tables",
    "analysis.report.tables",
    "analysis.report.findings",
    "analysis.report.render",
    "analysis.report.charts",
    "analysis.report.report",
    "analysis.report.report_context",
    "analysis.report.report_verdicts",
    "analysis.report.report_costs",
    "analysis.report.report_summary",
    "analysis.report.report_scale",
    "analysis.report.scale_readings",
    "analysis.report.compare",
    "analysis.running.suite",
    "analysis.running.run_args",
    "analysis.running.runner",
    "analysis.results.rate",
    "analysis.running.rate_run",
    "analysis.running.rate_cell",
)


def loaded_after(code: str, library: str) -> bool:
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys; print({library!r} in sys.modules)"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1] == "True"


@pytest.mark.parametrize("module", LIGHT_MODULES)
def test_importing_does_not_load_matplotlib(module: str) -> None:
    assert not loaded_after(f"import {module}", "matplotlib"), f"importing {module} loads matplotlib"


@pytest.mark.parametrize("module", LIGHT_MODULES)
def test_importing_does_not_load_pandas(module: str) -> None:
    assert not loaded_after(f"import {module}", "pandas"), f"importing {module} loads pandas"


def test_listing_the_catalogue_loads_neither() -> None:
    code = "from analysis.__main__ import main\nmain(['list'])"
    assert not loaded_after(code, "matplotlib") and not loaded_after(code, "pandas")


def test_drawing_a_chart_loads_matplotlib(tmp_path) -> None:
    # The same check sees matplotlib once a chart is drawn, so the ones above can fail.
    chart = tmp_path / "chart.svg"
    code = (
        "from pathlib import Path\n"
        "from analysis.report.charts import Panel, Series, bar_chart\n"
        f"bar_chart('t', 'ops/sec', [Panel('p', ['a', 'b'], [Series('s', [1.0, None])])], Path({str(chart)!r}))"
    )
    assert loaded_after(code, "matplotlib")
    assert chart.stat().st_size > 0


def test_building_a_tidy_frame_loads_pandas() -> None:
    assert loaded_after("from analysis.results.results import figures_frame\nfigures_frame([])", "pandas")
