"""Latency at a rate through bin/ycsb's driver: a DB that stalls on a schedule, held at a rate, shows its stalls in
the latency from each request's intended start and not in its service time; a do-nothing DB achieves the rate it
is asked for; throttling parks its thread rather than spinning; and `python -m analysis rate` runs a sweep end to
end, refusing a rate above the harness's own ceiling, with the report's section drawn from its record."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from pathlib import Path

from analysis.results.parse import parse_measurement_lines
from analysis.results.rate import DRIVER_RATE_DIGITS, RateStep, achieved_rate, asked_rate, rate_text, step_latencies
from analysis.running.plan import engine_is_built

from .conftest import REPO

QUIET = {**os.environ, "YCSB_QUIET": "1", "YCSB_CLIENT": "driver"}
NOTHING = "site.ycsb.embedded.NothingDB"
STALLING = "site.ycsb.embedded.StallingDB"


def _ycsb(*args: str, timeout: int = 60) -> subprocess.CompletedProcess[str]:
    """bin/ycsb run lmdb (its launcher; the DB is given with -db) on workload C, no warm-up."""
    assert engine_is_built(REPO, "lmdb"), "the lmdb binding is not built: run mvn package"
    command = [str(REPO / "bin" / "ycsb"), "run", "lmdb", "-P", str(REPO / "workloads" / "workloadc")]
    command += ["-p", "recordcount=1000", "-p", "warmup.operations=0", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, env=QUIET)


def _step(stdout: str) -> RateStep:
    measurements = parse_measurement_lines(stdout)
    intended, service = step_latencies(measurements)
    return RateStep("sweep", None, achieved_rate(measurements), intended, service)


def _at(step: RateStep, key: str, intended: bool = True) -> float:
    value = step.latency(key, intended)
    assert value is not None, (key, intended, step)
    return value


def test_a_scheduled_stall_shows_in_intended_time_p99_and_not_in_service_time_p99() -> None:
    # every 200th read sleeps 20 ms at 2,000 reads a second: the 40 reads scheduled during each stall start late
    run = _ycsb(
        *["-db", STALLING, "-p", "stallingdb.every=200", "-p", "stallingdb.millis=20"],
        *["-p", "operationcount=4000", "-target", "2000"],
        *["-p", "measurement.interval=both", "-p", "hdrhistogram.percentiles=50,99,99.9"],
    )
    assert run.returncode == 0, run.stderr[-2000:]
    step = _step(run.stdout)
    assert set(step.intended) == set(step.service) == {"READ"}
    assert _at(step, "max", intended=False) >= 20_000  # the stalled reads themselves
    assert _at(step, "p99", intended=False) < 5_000  # 0.5 % of the reads: under the service time's p99
    assert _at(step, "p99") >= 10_000  # the reads that waited behind a stall: 20 % of them
    assert _at(step, "p50") < 5_000


def test_without_a_rate_the_stall_shows_in_neither_p99() -> None:
    # flat out, no read is scheduled during a stall: what the intended time adds is the schedule's wait alone
    run = _ycsb(
        *["-db", STALLING, "-p", "stallingdb.every=200", "-p", "stallingdb.millis=20"],
        *["-p", "operationcount=2000", "-p", "measurement.interval=both"],
    )
    assert run.returncode == 0, run.stderr[-2000:]
    step = _step(run.stdout)
    assert _at(step, "p99") < 5_000 and _at(step, "p99", intended=False) < 5_000


def test_a_stalling_db_refuses_a_bad_schedule() -> None:
    run = _ycsb("-db", STALLING, "-p", "stallingdb.every=-1", "-p", "operationcount=10")
    assert run.returncode == 3, run.stderr[-2000:]
    assert "property stallingdb.every = '-1' is not allowed: expected a whole number from 0" in run.stderr


def test_a_do_nothing_db_asked_for_a_rate_achieves_it_within_1_percent() -> None:
    for threads in ("1", "2"):
        run = _ycsb("-db", NOTHING, "-p", "operationcount=40000", "-target", "20000", "-threads", threads)
        assert run.returncode == 0, run.stderr[-2000:]
        achieved = _step(run.stdout).achieved
        assert achieved is not None and abs(achieved - 20_000) <= 200, (threads, achieved)


def _child_cpu_seconds(*args: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    run = _ycsb("-db", NOTHING, *args)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert run.returncode == 0, run.stderr[-2000:]
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def test_a_throttled_thread_parks_until_its_tick_rather_than_spinning() -> None:
    # 3 s at 1,000 reads a second against 0.2 s: a loop that spun between ticks would burn 2.8 s more of a core
    short = _child_cpu_seconds("-p", "operationcount=200", "-target", "1000")
    long = _child_cpu_seconds("-p", "operationcount=3000", "-target", "1000")
    assert long - short < 1.0, (short, long)


def rate_command(out: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    """`python -m analysis rate ARGS` without warm-up or report into `out`: its run and its rate.json."""
    done = subprocess.run(
        [sys.executable, "-m", "analysis", "rate", *args, "--warmup-seconds", "0", "--no-report", "--out", str(out)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
        env=QUIET,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done, json.loads((out / "rate" / "rate.json").read_text())


def test_the_rate_command_sweeps_an_engine_and_refuses_a_rate_above_the_harness_ceiling(tmp_path: Path) -> None:
    out = tmp_path / "out"
    # 2 % of flat out (its 1,000 reads last a fraction of a second: at 50 %, 20 ms, whose start-up jitter alone
    # missed the asked rate by 4 % on a busy machine), and 1000x flat out: far above what the driver does with a
    # do-nothing DB
    done, record = rate_command(
        out,
        *["--engines", "lmdb", "--workloads", "workloadc", "--step-seconds", "1", "--fractions", "2,100000"],
        *["--sla", "p99=0.001us", "--resolution", "99", "--cap", "1000"],
    )
    ceiling = record["ceilings"]["workloadc"]
    assert ceiling > 0
    (sweep,) = record["sweeps"]
    assert sweep["engine"] == "lmdb" and sweep["error"] is None and sweep["ceiling"] == ceiling
    flat, half, above = sweep["steps"][:3]
    assert flat["kind"] == "flat" and flat["asked"] is None and flat["achieved"] > 0
    assert half["asked"] == asked_rate(flat["achieved"] * 0.02, DRIVER_RATE_DIGITS)  # the driver takes a tenth
    assert abs(half["achieved"] - half["asked"]) <= 0.02 * half["asked"]
    assert half["intended"]["READ"]["p99"] >= half["service"]["READ"]["p99"] > 0
    # all operations together, from the step's HdrHistogram logs: workload C's are its reads
    assert set(half["overall_intended"]) == set(half["overall_service"]) == {"p50", "p99", "p99.9", "max"}
    assert half["overall_intended"]["max"] == half["intended"]["READ"]["max"]
    assert half["overall_intended"]["p99"] >= half["overall_service"]["p99"] > 0
    assert above["asked"] > ceiling and above["achieved"] is None
    assert "above the harness's ceiling" in above["problem"]
    (found,) = sweep["capacities"]
    # a bound no step meets, and a bracket (0, 2 %) narrower than the resolution: no probe, no capacity
    assert found["sla"]["bound_us"] == 0.001 and found["rate"] is None and found["failed"] == half["asked"]
    assert len(sweep["steps"]) == 3
    assert "rate: harness ceiling on workloadc" in done.stderr
    cell = json.loads((out / "rate" / "lmdb" / "rate-workloadc" / "cell.json").read_text())
    assert [s["name"] for s in cell["repeats"][0]][:3] == ["load-workloadc", "run-workloadc-flat", half_name(half)]


def half_name(step: dict) -> str:
    return f"run-workloadc-sweep-{rate_text(step['asked'])}"


def test_a_step_that_measures_its_read_modify_writes_into_ycsbs_figures_gets_a_jvm_of_its_own() -> None:
    from analysis.running.rate_cell import measures_its_own

    workloadf = {"readproportion": "0.5", "readmodifywriteproportion": "0.5"}
    assert measures_its_own(workloadf)  # a second such step in one JVM: the driver's exit status 4
    assert not measures_its_own({**workloadf, "dotransactions": "false"})  # its load
    assert not measures_its_own({"readproportion": "0.5", "updateproportion": "0.5"})  # workload A
    assert not measures_its_own({**workloadf, "readmodifywriteproportion": "0"})
    assert not measures_its_own({**workloadf, "workload": "site.ycsb.embedded.workload.EmbeddedWorkload"})


def test_workload_f_sweeps_with_each_read_modify_write_step_in_a_jvm_of_its_own(tmp_path: Path) -> None:
    # every paced step of F measures READ-MODIFY-WRITE into YCSB's figures: in the cell's one JVM the second such
    # step was refused (exit status 4) and the next one's missing output ended the command in a traceback
    _, record = rate_command(
        tmp_path / "out",
        *["--engines", "lmdb", "--workloads", "workloadf", "--step-seconds", "1", "--fractions", "2"],
        *["--sla", "p99=1s", "--cap", "1000"],
    )
    (sweep,) = record["sweeps"]
    assert sweep["error"] is None, sweep["error"]
    flat, paced = sweep["steps"][:2]
    assert flat["achieved"] > 0 and paced["problem"] is None and paced["achieved"] > 0
    assert {"READ", "UPDATE", "READ-MODIFY-WRITE"} <= set(paced["intended"])
