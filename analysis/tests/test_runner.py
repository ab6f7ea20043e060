"""The runner without Java: a stand-in launcher prints YCSB-shaped output for the counts it is given."""

from __future__ import annotations

import io
import json
import shutil
import stat
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from analysis.catalogue.keydraws import distinct_keys
from analysis.catalogue.model import Scenario, Step
from analysis.catalogue.scenarios import SCENARIOS_BY_ID
from analysis.catalogue.workloadfile import read_properties, stacked_properties
from analysis.running.peers import Peer
from analysis.running.plan import (
    OurLauncher,
    PeerLauncher,
    RunOptions,
    engine_is_built,
    plan_steps,
    resolve_step,
    whole_target,
    ycsb_command,
)
from analysis.running.runner import run_cell
from analysis.running.suite import run_matrix

from .conftest import REPO

FAKE_YCSB = r'''#!{python}
"""bin/ycsb stand-in: YCSB-shaped output; FAKE_YCSB_FAIL=<workload> makes steps of that file fail like a bad
property."""
import json, os, sys
args = sys.argv[1:]
phase, engine = args[0], args[1].split("-")[0]  # sqlite-columns prints [sqlite], as the binding does
props = dict(a.split("=", 1) for a in args if "=" in a and not a.startswith("-"))
files = [args[i + 1] for i, a in enumerate(args) if a == "-P"]
records, operations = int(props["recordcount"]), int(props["operationcount"])
done = records if phase == "load" else operations
op = "INSERT" if phase == "load" else "READ"
print(f"[{{engine}}] FakeEngine 1.0 for tests", file=sys.stderr)
print(f"[{{engine}}] opened {{props['path']}} in 1.0 ms; effective configuration:", file=sys.stderr)
print(f"  {{engine}}.path = {{props['path']}} (from path)", file=sys.stderr)
if any(os.path.basename(f) == os.environ.get("FAKE_YCSB_FAIL") for f in files):
    print("site.ycsb.DBException: [fake] property cachesize = 'banana' is not allowed")
    done = 0
found = done
if op == "READ" and any("loadorder=replacement" in open(f).read() for f in files):
    from analysis.catalogue.keydraws import distinct_keys  # reads miss the keys a drawn fill left out
    found = round(done * distinct_keys(records) / records)
measurements = [("OVERALL", "RunTime(ms)", 100), ("OVERALL", "Throughput(ops/sec)", done * 10.0)]
if done:
    measurements += [(op, "Operations", done), (op, "AverageLatency(us)", 5.0),
                     (op, "95thPercentileLatency(us)", 9), (op, "99thPercentileLatency(us)", 20),
                     (op, "Return=OK", found)] + ([(op, "Return=NOT_FOUND", done - found)] if found < done else [])
with open(props["exportfile"], "w") as f:
    json.dump([{{"metric": m, "measurement": n, "value": v}} for m, n, v in measurements], f)
if done and "nanotimed.file" in props:  # the timing layer: 4 us inside each operation, a 2 ms open, 30 ms close
    with open(props["nanotimed.file"], "w") as f:
        json.dump({{"instances": 1, "open_ns": 2000000, "close_ns": 30000000, "window_ns": done * 6000,
                   "operations": {{op: {{"count": done, "ns": done * 4000}}}}}}, f)
print(f"[{{engine}}] closed {{props['path']}} in 0.5 ms", file=sys.stderr)
'''


@pytest.fixture
def fake_repo(tmp_path: Path) -> Path:
    """A checkout with leveldb built, the baseline workload files, and the stand-in launcher."""
    repo = tmp_path / "repo"
    (repo / "leveldb-binding" / "target" / "lib").mkdir(parents=True)
    (repo / "workloads").mkdir()
    for name in ("seqwrite", "randwrite", "randread", "seqread"):
        shutil.copy(REPO / "workloads" / name, repo / "workloads" / name)
    launcher = repo / "bin" / "ycsb"
    launcher.parent.mkdir()
    launcher.write_text(FAKE_YCSB.format(python=sys.executable))
    launcher.chmod(launcher.stat().st_mode | stat.S_IEXEC)
    return repo


def options_for(repo: Path, tmp_path: Path, **kw) -> RunOptions:
    out = tmp_path / "results"
    kw.setdefault("one_jvm", False)  # the stand-in launchers run one step per call; the cell JVM is tested for real
    return RunOptions(repo=repo, out=out, workloads=repo / "workloads", data=out / "data", **kw)


def test_read_properties_skips_comments_and_keeps_last_value():
    text = "# comment\n! other\n\nrecordcount=10\nname : value with spaces\nrecordcount = 20\n"
    assert read_properties(text) == {"recordcount": "20", "name": "value with spaces"}


def test_stacked_files_override_in_order(tmp_path):
    (tmp_path / "a").write_text("compression=snappy\nrecordcount=5\n")
    (tmp_path / "b").write_text("compression=none\n")
    assert stacked_properties([tmp_path / "a", tmp_path / "b"]) == {"compression": "none", "recordcount": "5"}


def test_resolve_counts_in_quick_and_full_mode():
    scenario = SCENARIOS_BY_ID["randread"]
    file_props = {"recordcount": "1000000", "operationcount": "1000000"}
    load, run = scenario.steps
    quick = resolve_step(run, 2, scenario, file_props, quick=True, cap=None)
    assert (quick.recordcount, quick.operationcount) == (scenario.quick_records, scenario.quick_operations)
    full = resolve_step(run, 2, scenario, file_props, quick=False, cap=None)
    assert (full.recordcount, full.operationcount) == (1000000, 1000000)
    capped = resolve_step(load, 1, scenario, file_props, quick=False, cap=500)
    assert (capped.recordcount, capped.expectation.operations) == (500, 500)


def test_resolve_readseq_expects_every_entry_the_fill_left_in_every_pass():
    scenario = SCENARIOS_BY_ID["seqread"]
    file_props = {"recordcount": "1000000", "operationcount": "1", "readseqproportion": "1"}
    step = resolve_step(scenario.steps[1], 2, scenario, file_props, quick=True, cap=None)
    assert step.operationcount == step.step.quick_operations
    # randwrite draws its keys with replacement: 63,212 of the quick run's 100,000 are distinct.
    assert scenario.quick_records == 100_000 and scenario.keys_drawn
    assert step.expectation.readseq_entries == distinct_keys(100_000) * step.operationcount
    assert step.expectation.readseq_entries != scenario.quick_records * step.operationcount


def test_resolve_random_reads_after_a_drawn_fill_expect_its_share_found():
    scenario = SCENARIOS_BY_ID["randread"]
    file_props = {"recordcount": "1000000", "operationcount": "1000000", "loadseed": "5"}
    step = resolve_step(scenario.steps[1], 2, scenario, file_props, quick=True, cap=None)
    assert "NOT_FOUND" in step.expectation.allowed_returns
    assert step.expectation.found_share == distinct_keys(100_000, 5) / 100_000
    load = resolve_step(scenario.steps[0], 1, scenario, file_props, quick=True, cap=None)
    assert load.expectation.found_share is None and "NOT_FOUND" not in load.expectation.allowed_returns


def test_resolve_variant_props_and_per_thread_operations():
    scenario = Scenario(
        "t",
        "x",
        "t",
        "one op",
        ("leveldb",),
        (
            Step("load", ("w",), props=(("batchsize", "{recordcount}"),)),
            Step("run", ("w",), operation_scale=4, props=(("threadcount", "4"),)),
        ),
        quick_records=300,
        quick_operations=50,
    )
    load = resolve_step(scenario.steps[0], 1, scenario, {"operationcount": "9"}, quick=True, cap=None)
    assert load.props == {"batchsize": "300"}
    run = resolve_step(scenario.steps[1], 2, scenario, {}, quick=True, cap=None)
    assert run.operationcount == 200 and run.expectation.operations == 200


def test_resolve_names_the_missing_count():
    scenario = Scenario("t", "x", "t", "one op", ("leveldb",), (Step("load", ("w",)),))
    with pytest.raises(ValueError, match="set no recordcount"):
        resolve_step(scenario.steps[0], 1, scenario, {}, quick=False, cap=None)


def test_engine_is_built_looks_for_the_binding_libraries(fake_repo):
    assert engine_is_built(fake_repo, "leveldb")
    assert not engine_is_built(fake_repo, "kyoto")


def test_a_cell_runs_every_step_and_keeps_every_output(fake_repo, tmp_path):
    options = options_for(fake_repo, tmp_path, cap=1000)
    cell = run_cell(options, "leveldb", SCENARIOS_BY_ID["randread"])
    assert cell.status == "ok", cell.error
    assert cell.engine_version == "FakeEngine 1.0 for tests"
    steps = cell.repeats[0]
    assert [s.name for s in steps] == ["load-randwrite", "run-randread"]
    for step in steps:
        for kind in ("stdout", "stderr", "json"):
            assert (options.out / getattr(step, kind)).is_file()
        assert step.exit_code == 0 and step.problems == []
        assert "path=" + str(options.data / "leveldb" / "randread" / "r1") in step.command
    saved = json.loads((options.out / "leveldb" / "randread" / "cell.json").read_text())
    assert saved["status"] == "ok" and len(saved["repeats"][0]) == 2
    assert not (options.data / "leveldb" / "randread" / "r1").exists()  # data removed after the cell


def test_a_scenario_runs_sqlite_through_the_client_it_names(fake_repo, tmp_path):
    (fake_repo / "sqlite-binding" / "target" / "lib").mkdir(parents=True)
    shutil.copy(REPO / "workloads" / "bulk-import", fake_repo / "workloads" / "bulk-import")
    options = options_for(fake_repo, tmp_path, cap=100)
    cell = run_cell(options, "sqlite", SCENARIOS_BY_ID["bulk-import"])
    assert cell.status == "ok", cell.error
    assert {tuple(s.command[1:3]) for s in cell.repeats[0]} == {("load", "sqlite-columns")}
    cell = run_cell(options, "sqlite", SCENARIOS_BY_ID["seqwrite"])
    assert {tuple(s.command[1:3]) for s in cell.repeats[0]} == {("load", "sqlite")}


def test_repeats_run_in_fresh_directories(fake_repo, tmp_path):
    options = options_for(fake_repo, tmp_path, cap=100, repeat=3, keep_data=True)
    cell = run_cell(options, "leveldb", SCENARIOS_BY_ID["seqwrite"])
    assert cell.status == "ok" and len(cell.repeats) == 3
    assert all((options.data / "leveldb" / "seqwrite" / f"r{k}").is_dir() for k in (1, 2, 3))


def test_missing_workload_file_is_a_failed_cell_not_a_crash(fake_repo, tmp_path):
    cell = run_cell(options_for(fake_repo, tmp_path), "leveldb", SCENARIOS_BY_ID["sync-seqwrite"])
    assert cell.status == "failed"
    assert cell.error == "workload file(s) missing: workloads/sync-seqwrite"
    assert cell.repeats == []


def test_unbuilt_engine_is_a_failed_cell(fake_repo, tmp_path):
    cell = run_cell(options_for(fake_repo, tmp_path), "kyoto", SCENARIOS_BY_ID["seqwrite"])
    assert cell.status == "failed" and "kyoto binding is not built" in cell.error


def test_a_failing_step_fails_its_cell_and_the_matrix_goes_on(fake_repo, tmp_path, monkeypatch):
    monkeypatch.setenv("FAKE_YCSB_FAIL", "randwrite")
    options = options_for(fake_repo, tmp_path, cap=100)
    scenarios = [SCENARIOS_BY_ID[s] for s in ("randwrite", "sync-seqwrite", "seqwrite")]
    progress = io.StringIO()
    summary = run_matrix(options, ["leveldb", "kyoto"], scenarios, progress_stream=progress)
    status = {(c["engine"], c["scenario"]): c["status"] for c in summary}
    assert status == {
        ("leveldb", "randwrite"): "failed",
        ("kyoto", "randwrite"): "failed",
        ("leveldb", "sync-seqwrite"): "failed",
        ("kyoto", "sync-seqwrite"): "failed",
        ("leveldb", "seqwrite"): "ok",
        ("kyoto", "seqwrite"): "failed",
    }
    error = next(c["error"] for c in summary if (c["engine"], c["scenario"]) == ("leveldb", "randwrite"))
    assert "banana" in error and "0 of 100 operations done" in error
    text = progress.getvalue()
    assert "FAILED leveldb/randwrite" in text and "6/6 cells" in text and "ETA" in text


def test_quick_mode_leaves_out_full_only_variants(fake_repo, tmp_path):
    for name in ("fastdb-insert-one-txn", "fastdb-insert-txn-per-row"):
        (fake_repo / "workloads" / name).write_text("recordcount=10000\noperationcount=10000\n")
    scenario = SCENARIOS_BY_ID["fastdb-insert"]
    quick = [s.step.variant for s in plan_steps(options_for(fake_repo, tmp_path), scenario)]
    full = [s.step.variant for s in plan_steps(options_for(fake_repo, tmp_path, quick=False), scenario)]
    assert "one-txn-1m" in full and "one-txn-1m" not in quick


def test_a_hung_step_is_killed_at_the_timeout(fake_repo, tmp_path):
    launcher = fake_repo / "bin" / "ycsb"
    launcher.write_text("#!/bin/sh\nsleep 30\n")
    options = options_for(fake_repo, tmp_path, cap=10, step_timeout=0.5)
    cell = run_cell(options, "leveldb", SCENARIOS_BY_ID["seqwrite"])
    assert cell.status == "failed" and cell.error.startswith("load-seqwrite: timed out after 0.5 s")
    assert cell.repeats[0][0].seconds < 10


def test_a_launcher_that_cannot_start_fails_the_cell(fake_repo, tmp_path):
    (fake_repo / "bin" / "ycsb").unlink()
    cell = run_cell(options_for(fake_repo, tmp_path, cap=10), "leveldb", SCENARIOS_BY_ID["seqwrite"])
    assert cell.status == "failed" and "cannot start" in cell.error


def test_leveldb_runs_on_both_libraries_through_one_binding(fake_repo, tmp_path):
    from analysis.catalogue.model import ENGINES
    from analysis.catalogue.scenarios import LEVELDB_2011, SCENARIOS, YCSB_CORE

    # The 2011 sections (the baseline among them) and YCSB's A-F: one row per library.
    for scenario in LEVELDB_2011 + YCSB_CORE:
        assert {"leveldb", "leveldb-system"} <= set(scenario.engines), scenario.id
    for scenario in SCENARIOS:
        if scenario not in LEVELDB_2011 + YCSB_CORE:
            assert "leveldb-system" not in scenario.engines, scenario.id
    assert ENGINES.index("leveldb-system") == ENGINES.index("leveldb") + 1
    assert engine_is_built(fake_repo, "leveldb-system")  # the leveldb binding's module
    options = options_for(fake_repo, tmp_path, cap=1000)
    cells = {engine: run_cell(options, engine, SCENARIOS_BY_ID["randread"]) for engine in ("leveldb", "leveldb-system")}
    for engine, library in (("leveldb", "leveldbjni"), ("leveldb-system", "system")):
        cell = cells[engine]
        assert cell.status == "ok", cell.error
        assert cell.engine_version == "FakeEngine 1.0 for tests"  # read from the binding's "[leveldb]" lines
        for step in cell.repeats[0]:
            assert step.command[1:3] == [step.phase, "leveldb"]
            assert f"leveldb.library={library}" in step.command
        assert (options.out / engine / "randread" / "cell.json").is_file()


def test_the_suites_warm_up_goes_to_measured_steps_and_none_to_the_rest(tmp_path):
    # The quick run asks the launcher for a shorter warm-up per measured step; an unmeasured step (pk-update's
    # load) gets none; without --warmup-seconds the launcher's default stands.
    scenario = SCENARIOS_BY_ID["pk-update"]

    def warmups(seconds: float | None) -> dict[str, list[str]]:
        found = {}
        for i, step in enumerate(scenario.steps):
            files = [REPO / "workloads" / f for f in step.workloads]
            resolved = resolve_step(step, i, scenario, stacked_properties(files), quick=True, cap=None)
            command = ycsb_command(Path("bin/ycsb"), "sqlite", files, resolved, tmp_path, None, warmup_seconds=seconds)
            found[step.name] = [a for a in command if a.startswith("warmup.seconds=")]
        return found

    quick = warmups(0.5)
    assert quick.pop("load-pk-update") == ["warmup.seconds=0"], quick
    assert len(quick) == 3 and all(w == ["warmup.seconds=0.5"] for w in quick.values()), quick
    default = warmups(None)
    assert default.pop("load-pk-update") == ["warmup.seconds=0"]
    assert all(w == [] for w in default.values()), default


def test_a_rate_with_a_fraction_goes_to_the_driver_as_it_is_and_to_ycsbs_client_whole(tmp_path, monkeypatch):
    # The driver (harness/) schedules 1500.7 operations a second; YCSB's Client parses -target as a whole number.
    scenario = SCENARIOS_BY_ID["workloadc"]
    step = next(s for s in scenario.steps if s.phase == "run")
    files = [REPO / "workloads" / f for f in step.workloads]

    def target(rate: str, client: str, peer: bool = False) -> list[str]:
        monkeypatch.setenv("YCSB_CLIENT", client)
        asked = replace(step, props=(*step.props, ("target", rate)))
        resolved = resolve_step(asked, 1, scenario, stacked_properties(files), quick=True, cap=None)
        rocksdb = Peer("rocksdb@ycsb-0.17.0", "rocksdb", "site.ycsb.db.rocksdb.RocksDBClient", tmp_path, "0.17.0")
        launcher = PeerLauncher(rocksdb) if peer else OurLauncher(Path("bin/ycsb"), "lmdb")
        return [a for a in ycsb_command(launcher, "lmdb", files, resolved, tmp_path, None) if a.startswith("target=")]

    assert target("1500.7", "driver") == ["target=1500.7"]
    assert target("1500", "driver") == ["target=1500"]
    assert target("1500.7", "upstream") == ["target=1501"]
    assert target("1500.2", "upstream") == ["target=1500"]
    assert target("0.4", "upstream") == ["target=1"]  # a rate, however slow, stays a rate: 0 would be none
    assert target("0", "upstream") == ["target=0"] and target("fast", "upstream") == ["target=fast"]
    assert target("1500.7", "driver", peer=True) == ["target=1501"]  # a peer's YCSB tree runs its own Client
    assert whole_target("2.5e3") == "2500" and whole_target("-3.5") == "-3.5"  # refused by name downstream
