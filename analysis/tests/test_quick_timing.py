"""The quick run's timed steps: each measured step runs QUICK_STEP_SECONDS, its counts only a ceiling, so that the
steady check has its 100 ms intervals; what stays counted, and how a timed step's figures are read."""

from __future__ import annotations

from pathlib import Path

from analysis.catalogue.keydraws import distinct_keys
from analysis.catalogue.model import Step
from analysis.catalogue.scenarios import (
    QUICK_STEP_SECONDS,
    QUICK_TIMED_OPERATIONS,
    QUICK_TIMED_RECORDS,
    SCENARIOS_BY_ID,
)
from analysis.results.parse import Expectation, parse_ycsb_output, step_problems
from analysis.results.results import figure_of
from analysis.results.tidy import _distinct_loaded
from analysis.running.plan import OurLauncher, RunOptions, plan_steps, quick_timed, ycsb_command
from analysis.running.run_args import quick_seconds

from .conftest import REPO


def _plan(scenario: str, tmp_path: Path, seconds: float = QUICK_STEP_SECONDS, quick: bool = True, cap=None):
    options = RunOptions(
        repo=REPO,
        out=tmp_path,
        workloads=REPO / "workloads",
        data=tmp_path / "data",
        quick=quick,
        cap=cap,
        quick_seconds=seconds,
    )
    return plan_steps(options, SCENARIOS_BY_ID[scenario])


def test_a_quick_fill_runs_for_its_time_with_its_count_a_ceiling(tmp_path):
    (fill,) = _plan("randwrite", tmp_path)
    assert fill.props["maxexecutiontime"] == "2.3"
    assert fill.expectation.timed
    assert fill.recordcount == QUICK_TIMED_RECORDS  # above the full run's 1,000,000: the time decides
    assert fill.nominal == 100_000  # the quick count it would have inserted
    (counted,) = _plan("randwrite", tmp_path, seconds=0)
    assert (counted.recordcount, counted.nominal, counted.expectation.timed) == (100_000, None, False)
    assert "maxexecutiontime" not in counted.props


def test_a_read_after_its_set_up_fill_is_timed_and_the_fill_keeps_its_count(tmp_path):
    fill, read = _plan("randread", tmp_path)
    assert not fill.step.measured and "maxexecutiontime" not in fill.props and fill.recordcount == 100_000
    assert read.props["maxexecutiontime"] == "2.3" and read.operationcount == QUICK_TIMED_OPERATIONS
    assert read.recordcount == 100_000  # it reads what the fill loaded
    assert read.expectation.found_share is not None  # a drawn fill's misses still checked


def test_a_timed_full_pass_expects_every_entry_in_each_pass_it_had_time_for(tmp_path):
    fill, scan = _plan("seqread", tmp_path)
    per_pass = distinct_keys(100_000)
    assert scan.expectation.timed and scan.expectation.readseq_entries == per_pass * QUICK_TIMED_OPERATIONS
    text = (
        "[OVERALL], RunTime(ms), 2300\n[OVERALL], Throughput(ops/sec), 30\n[SCAN], Operations, 69\n"
        "[SCAN], Return=OK, 69\n[READSEQ], Passes, 69\n"
        f"[READSEQ], Entries, {69 * per_pass}\n[READSEQ], Entries/sec, 1000\n"
    )
    assert step_problems(parse_ycsb_output(text), 0, [], scan.expectation) == []
    short = text.replace(f"Entries, {69 * per_pass}", f"Entries, {69 * per_pass - 1}")
    assert step_problems(parse_ycsb_output(short), 0, [], scan.expectation) == [
        f"full scans saw {69 * per_pass - 1} entries, expected {69 * per_pass}"
    ]


def test_a_batch_size_stays_the_variants_count_when_its_step_is_timed(tmp_path):
    steps = _plan("fastdb-insert", tmp_path)
    one_txn_10k = next(s for s in steps if s.step.variant == "one-txn-10k")
    assert one_txn_10k.props["batchsize"] == "10000"  # transactions of 10,000 rows, as many as the time allows
    assert one_txn_10k.nominal == 10_000 and one_txn_10k.recordcount >= QUICK_TIMED_RECORDS
    per_row = next(s for s in steps if s.step.variant == "txn-per-row-10k")
    assert per_row.props["batchsize"] == "1"


def test_what_keeps_its_counts(tmp_path):
    (kv1000,) = _plan("kv1000", tmp_path)
    assert "maxexecutiontime" not in kv1000.props and kv1000.recordcount == 200_000
    delete = _plan("fastdb-delete", tmp_path)[1]
    assert "maxexecutiontime" not in delete.props  # each key deleted once: its work is finite
    load, run = Step("load", ("x",)), Step("run", ("x",))
    assert quick_timed([load, run], 0, 2.3) is None  # a run reads what the load inserted
    assert quick_timed([load, run], 1, 2.3) == 2.3
    assert quick_timed([load, load], 0, 2.3) == 2.3  # each load on a fresh database
    assert quick_timed([Step("run", ("x",), traced=True)], 0, 2.3) is None  # a trace ends with its trace
    assert quick_timed([load], 0, 0) is None
    full = _plan("randwrite", tmp_path, quick=False)[0]
    assert "maxexecutiontime" not in full.props and full.recordcount == 1_000_000


def test_a_smoke_run_under_cap_is_not_timed_unless_asked():
    assert quick_seconds(None, None) == QUICK_STEP_SECONDS
    assert quick_seconds(None, 1000) == 0
    assert quick_seconds(0.5, 1000) == 0.5


def test_a_timed_elapsed_time_is_given_for_the_nominal_count():
    scenario = SCENARIOS_BY_ID["fastdb-insert"]
    rows = [{"operation": "OVERALL", "runtime_ms": 2300.0, "throughput_ops_per_sec": 50_000.0}]
    assert figure_of(scenario, rows) == 2300.0  # a counted step: its own time
    rows[0]["nominal_operations"] = 10_000
    assert figure_of(scenario, rows) == 200.0  # 10,000 inserts at 50,000 a second


def test_a_timed_drawn_fill_left_the_distinct_keys_of_the_inserts_it_made():
    step = {"phase": "load", "recordcount": 4_000_000, "nominal_operations": 100_000}
    assert _distinct_loaded(step, {"INSERT": 50_000}) == distinct_keys(4_000_000, inserts=50_000)
    assert 49_000 < distinct_keys(4_000_000, inserts=50_000) < 50_000  # few repeats in a large key space
    counted = {"phase": "load", "recordcount": 1000, "nominal_operations": None}
    assert _distinct_loaded(counted, {"INSERT": 1000}) == distinct_keys(1000)


def test_youcsbs_client_gets_whole_seconds(tmp_path, monkeypatch):
    (fill,) = _plan("randwrite", tmp_path)
    files = [REPO / "workloads" / "randwrite"]
    launcher = OurLauncher(REPO / "bin" / "ycsb", "leveldb")
    driver = ycsb_command(launcher, "leveldb", files, fill, tmp_path / "data", None)
    assert "maxexecutiontime=2.3" in driver
    monkeypatch.setenv("YCSB_CLIENT", "upstream")
    upstream = ycsb_command(launcher, "leveldb", files, fill, tmp_path / "data", None)
    assert "maxexecutiontime=3" in upstream


def test_timed_expectation_allows_fewer_operations_never_more():
    out = parse_ycsb_output("[OVERALL], RunTime(ms), 2300\n[OVERALL], Throughput(ops/sec), 10\n")
    assert step_problems(out, 0, [], Expectation(QUICK_TIMED_OPERATIONS, timed=True)) == []
