"""Stalls at a fixed rate through bin/ycsb's driver: a DB that stalls for 1.5 s on a schedule, held at a rate, gives
an intended-time timeline (YCSB's HdrHistogram interval logs, a second each) whose stalled seconds are counted, one
stall per sleep; a do-nothing DB at the same rate has none; and `python -m analysis rate --stalls` holds a write
file at a share of its flat-out rate and records that timeline."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from analysis.results.rate import DRIVER_RATE_DIGITS, asked_rate, rate_text, stall_run_of, stall_spans, stalled_seconds
from analysis.running.plan import engine_is_built
from analysis.running.rate_cell import intended_timeline

from .conftest import REPO
from .test_rate import NOTHING, QUIET, STALLING, rate_command


def _timeline_at_1000(tmp_path: Path, *args: str) -> list:
    """bin/ycsb run lmdb (its launcher, warmed up for 1 s) on workload C at 1,000 reads a
    second, its intended-time logs per second."""
    assert engine_is_built(REPO, "lmdb"), "the lmdb binding is not built: run mvn package"
    command = [str(REPO / "bin" / "ycsb"), "run", "lmdb", "-P", str(REPO / "workloads" / "workloadc")]
    command += [
        "-p",
        "recordcount=1000",
        "-p",
        "warmup.seconds=1",
        "-target",
        "1000",
        "-p",
        "operationcount=9000",
        *args,
    ]
    command += ["-p", "measurement.interval=both", "-p", "hdrhistogram.fileoutput=true"]
    command += ["-p", f"hdrhistogram.output.path={tmp_path}/step.", "-p", "status.interval=1", "-s"]
    run = subprocess.run(command, capture_output=True, text=True, timeout=60, env=QUIET)
    assert run.returncode == 0, run.stderr[-2000:]
    assert (tmp_path / "step.Intended-READ.hdr").is_file() and (tmp_path / "step.READ.hdr").is_file()
    return intended_timeline(tmp_path, "step")


def test_a_db_stalling_1500_ms_every_3500_reads_at_1000_a_second_shows_two_stalls(tmp_path: Path) -> None:
    seconds = _timeline_at_1000(
        tmp_path, "-db", STALLING, "-p", "stallingdb.every=3500", "-p", "stallingdb.millis=1500"
    )
    assert 8 <= len(seconds) <= 12, seconds
    assert sum(s.operations for s in seconds) == 9000  # the intended logs only: not the service time's too
    median, stalled = stalled_seconds(seconds)
    assert median is not None and median < 100_000  # a busy machine wakes a thread late by some ms, not 1.5 s
    spans = stall_spans(stalled)
    # the sleeps at 3.5 s and 7 s of the schedule: each holds the reads due in the next 1.5 s, then they run late
    assert len(spans) == 2, (spans, seconds)
    assert all(1 <= length <= 3 for _, length in spans), spans
    assert 2 <= len(stalled) <= 5
    assert max(s.p99_us for s in stalled) >= 1_000_000  # the reads that waited behind a 1.5 s sleep
    assert 3.0 <= spans[1][0] - spans[0][0] <= 4.0


def test_a_do_nothing_db_at_the_same_rate_has_no_stalled_second(tmp_path: Path) -> None:
    seconds = _timeline_at_1000(tmp_path, "-db", NOTHING, "-p", "operationcount=4000")
    assert 4 <= len(seconds) <= 6 and sum(s.operations for s in seconds) == 4000
    median, stalled = stalled_seconds(seconds)
    assert median is not None and stalled == [] and stall_spans(stalled) == []


def test_the_rate_command_holds_a_write_file_at_a_share_of_its_flat_out_rate(tmp_path: Path) -> None:
    assert engine_is_built(REPO, "leveldb"), "the leveldb binding is not built: run mvn package"
    out = tmp_path / "out"
    # 20,000 tiny writes flat out, then again at 4 % of that rate: 3 s of timeline where LevelDB takes 160,000
    # a second flat out, more on a slower machine (at 10 % a fast machine gave 1.2 s: one second, nothing to judge)
    done, record = rate_command(
        out, "--engines", "leveldb", "--stalls", "tinykeys", "--stall-rate", "4", "--cap", "20000"
    )
    assert record["sweeps"] == [] and record["ceilings"] == {}  # --stalls alone: no sweep of workloads A and C
    (run,) = [stall_run_of(r) for r in record["stalls"]]
    assert run.engine == "leveldb" and run.workload == "tinykeys" and run.error is None, run
    assert run.flat_out and run.asked == asked_rate(run.flat_out * 0.04, DRIVER_RATE_DIGITS) and run.fraction == 0.04
    assert run.achieved and abs(run.achieved - run.asked) <= 0.05 * run.asked
    assert len(run.timeline) >= 2 and sum(s.operations for s in run.timeline) == 20_000
    assert run.median_p99 is not None and run.median_p99 > 0
    steps = json.loads((out / "rate" / "leveldb" / "stalls-tinykeys" / "cell.json").read_text())["repeats"][0]
    assert [s["name"] for s in steps] == ["load-tinykeys-flat", f"load-tinykeys-stalls-{rate_text(run.asked)}"]
    assert f"rate: leveldb tinykeys at {rate_text(run.asked, grouped=True)}/s (4% of" in done.stderr
