"""The scale group for real at tiny counts (--cap): one engine through bin/ycsb, inside a memory budget
where the machine has a usable controller, then the report's At-scale section."""

from __future__ import annotations

import json
import os

import pytest

from analysis.running.membudget import BudgetRefused, find_controller
from analysis.running.plan import engine_is_built

from .conftest import REPO, run_analysis

ENGINE = "rocksdb"


def test_scale_group_runs_at_tiny_counts_and_reports(tmp_path):
    assert engine_is_built(REPO, ENGINE), f"the {ENGINE} binding is not built (scripts/setup.sh builds it)"
    memory: list[str] = ["--memory", "256m"]
    try:
        find_controller()
    except BudgetRefused as e:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true and no usable memory cgroup controller: {e}")
        print(f"running without --memory: {e}")
        memory = []
    out = tmp_path / "results"
    done = run_analysis(
        *["run", "--scenarios", "scale", "--engines", ENGINE, *memory, "--cap", "400"],
        *["--records-series", "200,400", "--threads-series", "1,2", "--step-seconds", "2", "--duration", "3"],
        *["--out", str(out)],
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    suite = json.loads((out / "suite.json").read_text())
    assert suite["scenarios"] == ["scale-200", "scale-400"]
    large = json.loads((out / ENGINE / "scale-400" / "cell.json").read_text())
    steps = large["repeats"][0]
    assert [s["variant"] for s in steps][-1] == "sustained"
    assert all(not s["problems"] for s in steps)
    assert all("-Xmx256m" in " ".join(s["command"]) for s in steps)
    assert all("maxexecutiontime=" in " ".join(s["command"]) for s in steps)
    resources = steps[1]["resources"]
    assert resources["io_read_bytes"] is not None and resources["other_cpu_cores"] is not None
    if memory:
        assert resources["budget_bytes"] == 256 << 20
        assert 0 < resources["cgroup_peak_bytes"] <= 256 << 20
        assert resources["cgroup_cache_bytes"] is not None
    # YCSB's interval logs, one per operation, read back into the report.
    assert list((out / ENGINE / "scale-400" / "r1").glob("*sustained.READ.hdr"))
    report = (out / "report.md").read_text()
    section = report.split("## At scale", 1)[1].split("\n## ", 1)[0]
    for heading in (
        "### Cost against data size",
        "### Amplification against data size",
        "### Throughput against client threads (",
        "### Sustained mix, second by second",
        "### Who leads in memory and beyond",
    ):
        assert heading in section, heading
    assert "N = 200, 400 records of 1,040 bytes" in section
    for chart in ("scale-cost", "scale-amplification", "scale-threads", "scale-sustained"):
        assert (out / "charts" / f"{chart}.svg").stat().st_size > 1000
    page = (out / "report.html").read_text()
    assert "<img" not in page and page.count('<svg class="chart"') == 4  # the page holds its charts
    figures = (out / "figures.csv").read_text().splitlines()
    assert len(figures) > 10 and all(",scale-" in line for line in figures[1:])
    assert "| RocksDB |" in section  # the sustained run's table has the engine's row
