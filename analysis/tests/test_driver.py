"""The project's own YCSB driver (harness/) against YCSB 0.17's own Client, through bin/ycsb on every engine:
the same output lines, the same operation counts and the same exit statuses, for a load and workloads A-F; the
driver's cell mode runs all seven steps in one JVM, each with its own measurements and output files; and its
100 ms interval records."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from analysis.results.parse import parse_measurement_lines, parse_ycsb_output
from analysis.running.plan import engine_is_built

from .conftest import REPO

ENGINES = ["leveldb", "rocksdb", "sqlite", "sqlite-columns", "kyoto", "lmdb"]
RECORDS = 500
OPERATIONS = 1000
QUIET = {**os.environ, "YCSB_QUIET": "1"}


def _steps(path: Path) -> list[list[str]]:
    common = ["-p", f"recordcount={RECORDS}", "-p", f"path={path}", "-p", "warmup.operations=0"]
    load = ["-load", "-P", str(REPO / "workloads" / "workloada"), *common]
    runs = [
        ["-t", "-P", str(REPO / "workloads" / f"workload{w}"), *common, "-p", f"operationcount={OPERATIONS}"]
        for w in "abcdef"
    ]
    return [load, *runs]


def _table(stdout: str) -> dict[tuple[str, str], float]:
    return {(m.metric, m.measurement): m.value for m in parse_measurement_lines(stdout)}


def _transactions(table: dict[tuple[str, str], float]) -> int:
    ops = sum(table.get((op, "Operations"), 0) for op in ("READ", "UPDATE", "INSERT", "SCAN", "DELETE"))
    return int(ops - table.get(("READ-MODIFY-WRITE", "Operations"), 0))


def _ycsb(*args: str, client: str = "driver", timeout: int = 120) -> subprocess.CompletedProcess[str]:
    """bin/ycsb with these arguments, on the given client, its status line off."""
    return subprocess.run(
        [str(REPO / "bin" / "ycsb"), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**QUIET, "YCSB_CLIENT": client},
    )


def _upstream(engine: str, step: list[str]) -> subprocess.CompletedProcess[str]:
    return _ycsb("load" if step[0] == "-load" else "run", engine, *step[1:], client="upstream", timeout=180)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_driver_prints_upstream_clients_lines_and_counts_in_one_jvm(tmp_path: Path, engine: str) -> None:
    assert engine_is_built(REPO, engine.split("-")[0]), f"the {engine} binding is not built: run scripts/setup.sh"
    upstream = [_upstream(engine, step) for step in _steps(tmp_path / "upstream")]
    cell = tmp_path / "cell.txt"
    steps = _steps(tmp_path / "driver")
    lines = []
    for i, step in enumerate(steps):
        lines.append("\t".join([str(tmp_path / f"step{i}.out"), str(tmp_path / f"step{i}.err"), *step]))
    cell.write_text("\n".join(lines) + "\n")
    ran = subprocess.run(
        [str(REPO / "bin" / "ycsb"), "cell", engine, str(cell)], capture_output=True, text=True, timeout=300, env=QUIET
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    assert ran.stderr.count("exit status 0") == len(steps), ran.stderr
    for i, (theirs, step) in enumerate(zip(upstream, steps, strict=True)):
        assert theirs.returncode == 0, theirs.stderr[-2000:]
        assert (tmp_path / f"step{i}.out.status").read_text() == "0\n"
        ours = _table((tmp_path / f"step{i}.out").read_text())
        upstream_table = _table(theirs.stdout)
        # the same sections and metrics (an operation mix draws its counts at random: the names, not the values)
        assert sorted(ours) == sorted(upstream_table), f"step {i} ({step[2]})"
        if step[0] == "-load":
            assert ours[("INSERT", "Operations")] == upstream_table[("INSERT", "Operations")] == RECORDS
            assert ours[("INSERT", "Return=OK")] == RECORDS
        else:
            assert _transactions(ours) == _transactions(upstream_table) == OPERATIONS, f"step {i}"
        # every operation's returns add up to its count, on both sides
        for table in (ours, upstream_table):
            for (section, metric), value in table.items():
                if metric == "Operations" and section not in ("CLEANUP", "READ-MODIFY-WRITE"):
                    returns = sum(v for (s, m), v in table.items() if s == section and m.startswith("Return="))
                    assert returns == value, (i, section)


@pytest.mark.parametrize("client", ["driver", "upstream"])
def test_both_clients_refuse_a_run_on_a_missing_database_with_exit_3(tmp_path: Path, client: str) -> None:
    missing = tmp_path / "nothing-here"
    run = _ycsb("run", "lmdb", "-P", str(REPO / "workloads" / "workloadc"), "-p", f"path={missing}", client=client)
    assert run.returncode == 3, run.stderr[-2000:]
    assert "[ycsb-embedded] exit status 3: the binding refused to open: " in run.stderr
    assert "holds no lmdb database" in run.stderr
    assert not missing.exists()
    if client == "driver":  # the refusal comes before the warm-up, which never starts
        assert "warm-up" not in run.stderr, run.stderr[-2000:]


def test_the_driver_records_the_rate_every_100_ms(tmp_path: Path) -> None:
    # a do-nothing DB held at 10,000 operations a second: about one second in records of about 1,000 operations
    intervals = tmp_path / "intervals.csv"
    run = _ycsb(
        *["load", "lmdb", "-P", str(REPO / "workloads" / "workloada"), "-db", "site.ycsb.embedded.NothingDB"],
        *["-p", "recordcount=10000", "-p", "warmup.operations=0", "-p", f"intervals.file={intervals}"],
        *["-target", "10000"],
    )
    assert run.returncode == 0, run.stderr[-2000:]
    rows = [line.split(",") for line in intervals.read_text().splitlines() if not line.startswith("#")]
    elapsed = [int(r[0]) for r in rows]
    ops = [int(r[1]) for r in rows]
    assert ops[-1] == 10000 and ops == sorted(ops) and elapsed == sorted(elapsed)
    assert 900 <= elapsed[-1] <= 3000, elapsed
    # one record per 100 ms of the step, on a grid: a late wake-up is followed by the next grid point, never a gap
    assert abs(len(rows) - elapsed[-1] / 100) <= 2, elapsed
    assert all(e // 100 != f // 100 for e, f in zip(elapsed, elapsed[1:-1], strict=False)), elapsed
    assert 500 <= 10000 / len(rows) <= 1500


def test_a_short_loads_warm_up_is_bounded_by_the_phase(tmp_path: Path) -> None:
    run = _ycsb(
        "load",
        "lmdb",
        "-P",
        str(REPO / "workloads" / "workloada"),
        "-p",
        f"path={tmp_path / 'db'}",
        "-p",
        "recordcount=1000",
    )
    assert run.returncode == 0, run.stderr[-2000:]
    line = next(x for x in run.stderr.splitlines() if x.startswith("[ycsb-embedded] warm-up: "))
    assert line.startswith("[ycsb-embedded] warm-up: 1000 inserts with 1 thread"), line
    assert "warmup.operations=1000 (the default 200000 bounded by the phase's 1000 operations)" in line, line


def test_the_driver_reports_what_the_client_threads_allocated_per_operation_when_asked(tmp_path: Path) -> None:
    def load(*extra: str) -> subprocess.CompletedProcess[str]:
        return _ycsb(
            *["load", "lmdb", "-P", str(REPO / "workloads" / "workloada"), "-db", "site.ycsb.embedded.NothingDB"],
            *["-p", "recordcount=10000", "-p", "warmup.operations=0", *extra],
        )

    asked = load("-p", "allocation.report=true")
    assert asked.returncode == 0, asked.stderr[-2000:]
    line = next(x for x in asked.stderr.splitlines() if x.startswith("[ycsb-embedded] allocated: "))
    match = re.fullmatch(
        r"\[ycsb-embedded\] allocated: ([0-9.]+) bytes per operation in the client threads' operations"
        r" \((\d+) bytes over 10000 operations\)",
        line,
    )
    assert match, line
    # YCSB's key, field map and value for each insert the do-nothing DB drops: some hundreds of bytes
    assert 100 < float(match.group(1)) < 5000, line
    assert abs(int(match.group(2)) / 10000 - float(match.group(1))) < 0.1, line
    plain = load()
    assert plain.returncode == 0, plain.stderr[-2000:]
    assert "allocated:" not in plain.stderr


def test_the_driver_stops_at_a_fraction_of_a_second_and_youcsbs_client_refuses_one(tmp_path: Path) -> None:
    # a do-nothing DB held at 10,000 operations a second, asked for 100,000: only the time can end it early
    args = [
        *["run", "lmdb", "-P", str(REPO / "workloads" / "workloadc"), "-db", "site.ycsb.embedded.NothingDB"],
        *["-p", "operationcount=100000", "-p", "warmup.operations=0", "-p", "maxexecutiontime=0.5"],
        *["-target", "10000"],
    ]
    run = _ycsb(*args)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Maximum time elapsed. Requesting stop for the workload." in run.stderr
    done = parse_ycsb_output(run.stdout).operations_done
    assert done is not None and 0 < done < 100000, run.stdout  # stopped by the time, well before the count
    refused = _ycsb(*args, client="upstream")
    assert refused.returncode == 3, refused.stderr[-2000:]
    assert "maxexecutiontime = '0.5'" in refused.stderr, refused.stderr[-2000:]


def test_the_driver_takes_a_rate_with_a_fraction_and_youcsbs_client_refuses_one() -> None:
    args = [
        *["run", "lmdb", "-P", str(REPO / "workloads" / "workloadc"), "-db", "site.ycsb.embedded.NothingDB"],
        *["-p", "operationcount=300", "-p", "warmup.operations=0", "-p", "measurement.interval=both"],
    ]
    for rate in (["-target", "2000.5"], ["-p", "target=2000.5"]):
        run = _ycsb(*args, *rate)
        assert run.returncode == 0, run.stderr[-2000:]
        table = _table(run.stdout)
        assert table[("READ", "Operations")] == 300 and table[("Intended-READ", "Operations")] == 300, run.stdout
    refused = _ycsb(*args, "-p", "target=2000.5", client="upstream")
    assert refused.returncode == 3, refused.stderr[-2000:]
    assert "property target = '2000.5' is not allowed: expected a whole number" in refused.stderr, refused.stderr


def test_a_runs_warm_up_on_sqlite_with_four_threads_loads_its_records_from_one(tmp_path: Path) -> None:
    # four connections inserting at once waited on SQLite's lock, then failed: the warm-up ran cold after 10 s
    common = ["-P", str(REPO / "workloads" / "pk-query-threads"), "-p", f"path={tmp_path / 'db'}"]
    sized = ["-p", "recordcount=2000", "-p", "operationcount=4000"]
    assert _ycsb("load", "sqlite-columns", *common, *sized, "-p", "warmup.operations=0").returncode == 0
    run = _ycsb("run", "sqlite-columns", *common, *sized, "-threads", "4", "-p", "warmup.operations=20000")
    assert run.returncode == 0, run.stderr[-2000:]
    line = next(x for x in run.stderr.splitlines() if x.startswith("[ycsb-embedded] warm-up: "))
    assert "ERROR" not in line and "with 4 threads" in line, line
