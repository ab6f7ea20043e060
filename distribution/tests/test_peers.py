"""Upstream YCSB bindings as rows of the suite's report (`--ycsb-home DIR --peer NAME[:props]`).

The tree is YCSB 0.17's shape (conftest.py): core and its dependencies from Maven Central, upstream's
`basic` binding (site.ycsb.BasicDB, in core), and our RocksDB binding installed by
distribution/install-into-ycsb.sh under another name (`erocksdb`, beside upstream's `rocksdb` line).
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

from conftest import TOP, install_into, ycsb_017_tree

CAP = 200


def test_peer_rows_sit_beside_ours_with_their_counts(distribution: Path, tmp_path: Path) -> None:
    home = ycsb_017_tree(distribution, tmp_path / "ycsb-0.17.0")
    assert install_into(home, distribution).returncode == 0
    out = tmp_path / "results"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "analysis",
            "run",
            "--engines",
            "sqlite",
            "--scenarios",
            "seqwrite",
            "workloada",
            "--cap",
            str(CAP),
            "--ycsb-home",
            str(home),
            "--peer",
            "basic:basicdb.verbose=false",
            "--peer",
            "erocksdb",
            "--peer",  # a store that refuses to open: its cells fail with its message, the rest goes on
            "erocksdb:path=/proc/no-such-dir/db",
            "--out",
            str(out),
            "--keep-data",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=TOP,
    )
    assert run.returncode == 1, run.stderr[-3000:]  # the refusing peer's cells failed
    cells = {(c["engine"], c["scenario"]): c for c in json.loads((out / "suite.json").read_text())["cells"]}
    basic, ours, refusing = "basic@ycsb-0.17.0", "erocksdb@ycsb-0.17.0", "erocksdb-2@ycsb-0.17.0"
    for engine in ("sqlite", basic, ours):
        for scenario in ("seqwrite", "workloada"):
            assert cells[(engine, scenario)]["status"] == "ok", cells[(engine, scenario)]
    for scenario in ("seqwrite", "workloada"):
        error = cells[(refusing, scenario)]["error"]
        assert "cannot create data directory /proc/no-such-dir/db" in error, error

    # Every step did what it was asked: the OVERALL row of each measured step counts CAP operations.
    with (out / "tidy.csv").open() as f:
        rows = [r for r in csv.DictReader(f) if r["operation"] == "OVERALL" and r["measured"] == "True"]
    counts = {(r["engine"], r["scenario"]): (r["count"], r["ok"]) for r in rows}
    for engine in ("sqlite", basic, ours):
        assert counts[(engine, "seqwrite")] == (str(CAP), str(CAP)), counts
        assert counts[(engine, "workloada")] == (str(CAP), str(CAP)), counts

    # Each peer cell had a fresh directory: our binding under another name wrote its files there.
    assert (out / "data" / ours / "seqwrite" / "r1" / "CURRENT").is_file()
    assert (out / "data" / ours / "workloada" / "r1" / "CURRENT").is_file()
    # Our workload class ran on the peer's classpath: seqwrite's decimal keys reached BasicDB.
    cell = json.loads((out / basic / "seqwrite" / "cell.json").read_text())
    assert cell["workload_class_properties"]["keyformat"] == "decimal"
    assert "cachesize" in cell["ignored_properties"]
    step = cell["repeats"][0][0]
    assert f"{home}/lib/*" in step["command"][step["command"].index("-cp") + 1]
    assert "basicdb.verbose=false" in step["command"]

    report = (out / "report.md").read_text()
    baseline = report[report.index("### Baseline: Writes") : report.index("### Throughput of the standard mixes")]
    for label in ("| SQLite3 |", "| basic (YCSB 0.17.0) |", "| erocksdb (YCSB 0.17.0) |"):
        row = next(line for line in baseline.splitlines() if line.startswith(label))
        # On both clocks: the in-operation figure (our timing layer wraps the peer's DB too) and YCSB's own.
        assert "ops/sec" in row.split("|")[2] and "ops/sec" in row.split("|")[3], row
    assert "| erocksdb-2 (YCSB 0.17.0) | failed |" in baseline
    mixes = report[report.index("### Throughput of the standard mixes") :]
    assert any(line.startswith("| basic (YCSB 0.17.0) | ") and "ops/sec" in line for line in mixes.splitlines())
    peers = report[report.index("## Upstream YCSB bindings beside ours") : report.index("## 1. Baseline")]
    assert "properties as given: `basicdb.verbose=false`" in peers
    assert "`keyformat=decimal`" in peers
    assert (out / "charts" / "1-writes.svg").is_file()


def test_a_peer_the_tree_does_not_have_is_refused_naming_the_tree(distribution: Path, tmp_path: Path) -> None:
    home = ycsb_017_tree(distribution, tmp_path / "ycsb-0.17.0")
    run = subprocess.run(
        [sys.executable, "-m", "analysis", "run", "--ycsb-home", str(home), "--peer", "redis", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
        cwd=TOP,
    )
    assert run.returncode == 2
    assert "--peer redis: not in" in run.stderr and "basic, rocksdb" in run.stderr, run.stderr
