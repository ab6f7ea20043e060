"""What a step cost: measured on child processes whose usage is known, then carried into tidy rows,
figures, findings and the report."""

from __future__ import annotations

import json
import stat
import sys
from pathlib import Path

import pytest

from analysis.catalogue.keydraws import distinct_keys
from analysis.catalogue.scenarios import SCENARIOS_BY_ID
from analysis.catalogue.workloadfile import stacked_properties
from analysis.report.findings import REPRODUCED, TOO_CLOSE, evaluate_finding
from analysis.report.reference import load_findings
from analysis.report.render import to_markdown
from analysis.report.report import build_report
from analysis.results.costs import cost_columns, step_shape, user_bytes_stored, user_bytes_written
from analysis.results.parse import parse_warmup_costs
from analysis.results.results import Figure, load_run
from analysis.running.plan import RunOptions
from analysis.running.resources import disk_size, flush_directory, run_measured
from analysis.running.runner import run_cell
from analysis.running.suite import repeats_by_scenario

from .conftest import REPO
from .test_runner import FAKE_YCSB, fake_repo, options_for  # noqa: F401 (fake_repo is a fixture)

WRITTEN = 100 * 4096  # whole pages: the kernel counts the pages a process dirties
# The filesystem's own blocks a write makes dirty (ext4: bitmaps, extent tree) are charged to the writer too.
METADATA = 8 * 4096

KNOWN_CHILD = f"""
import os, time
fd = os.open("out.bin", os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
os.write(fd, b"x" * {WRITTEN})
os.fsync(fd)
os.close(fd)
memory = bytearray(200 * 2**20)
for i in range(0, len(memory), 4096):
    memory[i] = 1  # touch every page: resident
start = time.process_time()
while time.process_time() - start < 0.4:
    pass
time.sleep(0.5)  # long enough for /proc/<pid>/io to be sampled after the writes
"""


def test_a_child_that_writes_a_known_number_of_bytes_is_measured_exactly(tmp_path):
    code, timed_out, usage = run_measured(
        [sys.executable, "-I", "-B", "-c", KNOWN_CHILD], tmp_path / "out", tmp_path / "err", tmp_path, 30
    )
    assert (code, timed_out) == (0, False), (tmp_path / "err").read_text()
    assert usage is not None
    assert WRITTEN <= usage.written_bytes <= WRITTEN + METADATA
    assert usage.io_write_bytes == usage.written_bytes  # /proc/<pid>/io's last sample agrees with ru_oublock
    assert usage.io_wchar == WRITTEN  # the bytes passed to write(2), exactly
    assert usage.io_cancelled_write_bytes == 0
    assert 200 * 2**20 <= usage.peak_rss_bytes < 400 * 2**20
    assert usage.cpu_seconds >= 0.4
    size = disk_size(tmp_path)
    assert size is not None and size.apparent_bytes >= WRITTEN and size.files == 3


def test_a_killed_child_is_still_measured(tmp_path):
    code, timed_out, usage = run_measured(
        [sys.executable, "-c", "import time; time.sleep(30)"], tmp_path / "out", tmp_path / "err", tmp_path, 0.5
    )
    assert timed_out and code == -9 and usage is not None and usage.written_bytes == 0


REWRITE = f"""
import os
fd = os.open("db/data.bin", os.O_WRONLY | os.O_CREAT)
os.pwrite(fd, b"y" * {WRITTEN}, 0)  # the same pages each time, left to the kernel to write back
os.close(fd)
"""


def test_a_step_rewriting_the_previous_step_s_pages_is_charged_for_them(tmp_path):
    (tmp_path / "db").mkdir()
    command = [sys.executable, "-I", "-B", "-c", REWRITE]
    first = run_measured(command, tmp_path / "out1", tmp_path / "err1", tmp_path, 30)[2]
    assert first is not None and WRITTEN <= first.written_bytes <= WRITTEN + METADATA
    # Without the flush the second child rewrites pages that are still dirty, and the kernel charges it nothing.
    flush_directory(tmp_path / "db")
    second = run_measured(command, tmp_path / "out2", tmp_path / "err2", tmp_path, 30)[2]
    assert second is not None and WRITTEN <= second.written_bytes <= WRITTEN + METADATA


# The stand-in launcher also writes WRITTEN bytes into the database directory and burns some CPU.
WRITING_YCSB = FAKE_YCSB + (
    """
fd = os.open(os.path.join(props["path"], "data.bin"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
os.write(fd, b"x" * {written})
os.fsync(fd)
os.close(fd)
import time
start = time.process_time()
while time.process_time() - start < 0.2:
    pass
"""
).replace("{written}", str(WRITTEN))


def run_writing_cell(repo: Path, tmp_path: Path, scenario: str) -> RunOptions:
    """One LevelDB cell of `scenario`, 1,000 records, through a launcher that writes WRITTEN bytes."""
    launcher = repo / "bin" / "ycsb"
    launcher.write_text(WRITING_YCSB.format(python=sys.executable))
    launcher.chmod(launcher.stat().st_mode | stat.S_IEXEC)
    options = options_for(repo, tmp_path, cap=1000)
    cell = run_cell(options, "leveldb", SCENARIOS_BY_ID[scenario])
    assert cell.status == "ok", cell.error
    return options


def test_a_fake_step_s_costs_reach_tidy_rows_and_figures(fake_repo, tmp_path):  # noqa: F811
    options = run_writing_cell(fake_repo, tmp_path, "seqwrite")
    resources = json.loads((options.out / "leveldb" / "seqwrite" / "cell.json").read_text())["repeats"][0][0][
        "resources"
    ]
    # 1,000 records of a 16-byte key and one 100-byte field (workloads/seqwrite).
    assert (resources["key_bytes"], resources["insert_bytes"], resources["threads"]) == (16, 116, 1)
    # The JVM's own output files (stdout, stderr, JSON export) are in the process too: a page each at most.
    assert WRITTEN <= resources["written_bytes"] <= WRITTEN + 3 * 4096 + METADATA
    assert resources["allocated_bytes"] == WRITTEN and resources["files"] == 1

    run = load_run(options.out)
    overall = run.tidy[run.tidy["operation"] == "OVERALL"].iloc[0]
    assert overall["user_bytes_written"] == 116_000
    assert overall["write_amplification"] == pytest.approx(resources["written_bytes"] / 116_000)
    assert overall["space_amplification"] == pytest.approx(WRITTEN / 116_000)
    assert overall["cpu_seconds_per_1000_ops"] >= 0.2  # 0.2 s of CPU at least, over 1,000 operations
    assert overall["peak_rss_bytes"] > 1_000_000
    # The timing layer's file, not YCSB's whole-microsecond latencies (5 us): 1,000 inserts of 4,000 ns each.
    step = json.loads((options.out / "leveldb" / "seqwrite" / "cell.json").read_text())["repeats"][0][0]
    assert step["timing"].startswith("leveldb/seqwrite/r1/01-") and step["timing"].endswith(".timing.json")
    assert "nanotimed.file=" + str(options.out / step["timing"]) in step["command"]
    assert overall["inside_ops_per_sec"] == pytest.approx(250_000)
    assert (overall["open_seconds"], overall["close_seconds"]) == (0.002, 0.03)
    figure = run.figure("leveldb", "seqwrite")
    assert figure is not None and figure.costs["space_amplification"] == pytest.approx(WRITTEN / 116_000)
    assert figure.inside_values == [pytest.approx(250_000)] and figure.value == pytest.approx(10_000)


def test_a_drawn_fill_stores_only_the_distinct_keys_it_drew(fake_repo, tmp_path):  # noqa: F811
    options = run_writing_cell(fake_repo, tmp_path, "randwrite")
    overall = load_run(options.out).tidy.query("operation == 'OVERALL'").iloc[0]
    # randwrite draws its 1,000 keys with replacement: 1,000 inserts written, the distinct ones stored.
    assert 600 < distinct_keys(1000) < 660
    assert overall["user_bytes_written"] == 116_000
    assert overall["user_bytes_stored"] == distinct_keys(1000) * 116
    assert overall["space_amplification"] == pytest.approx(WRITTEN / (distinct_keys(1000) * 116))


def test_step_shape_from_the_workload_files():
    def shape(name: str):
        return step_shape(stacked_properties([REPO / "workloads" / name]))

    kv1000 = shape("kv1000")
    assert (kv1000.key_bytes, kv1000.insert_bytes, kv1000.update_bytes, kv1000.key_estimated) == (8, 1008, 1008, False)
    pk_update = shape("pk-update")  # three 1,000-byte fields, an update writes one of them
    assert (pk_update.insert_bytes, pk_update.update_bytes) == (10 + 3000, 10 + 1000)
    core = shape("workloada")  # YCSB core's "user..." keys: an estimate
    assert core.key_estimated and core.insert_bytes == 23 + 1000
    assert step_shape({"threadcount": "4"}).threads == 4


def test_user_bytes_written_and_stored():
    shape = step_shape({"keyformat": "binary", "fieldcount": "1", "fieldlength": "1000", "writeallfields": "true"})
    counts = {"INSERT": 10, "UPDATE": 5, "READ": 100, "DELETE": 2}
    assert user_bytes_written(counts, shape) == 10 * 1008 + 5 * 1008 + 2 * 8
    assert user_bytes_stored("run", 1000, counts, shape) == (1000 + 10 - 2) * 1008
    assert user_bytes_stored("load", 1000, {"INSERT": 1000}, shape) == 1000 * 1008
    # A load that drew its keys with replacement stores only the distinct ones it drew.
    assert user_bytes_stored("load", 1000, {"INSERT": 1000}, shape, loaded=632) == 632 * 1008
    assert user_bytes_stored("run", 1000, counts, shape, loaded=632) == (632 + 10 - 2) * 1008


def test_the_launchers_warm_up_is_taken_out_of_the_steps_cpu_and_bytes():
    line = (
        "[ycsb-embedded] warm-up: 13500 inserts in 45 passes ... JIT quiet after 0.1 s more; it used 1.87 s of CPU"
        " and wrote 31064064 bytes (in this JVM's totals)"
    )
    warmup = parse_warmup_costs("[lmdb] engine: LMDB\n" + line + "\nCommand line: ...\n")
    assert warmup == {"warmup_cpu_seconds": 1.87, "warmup_written_bytes": 31064064}
    assert parse_warmup_costs("[ycsb-embedded] warm-up: off (warmup.operations=0, warmup.seconds=2)") == {}
    process = {"user_seconds": 2.5, "system_seconds": 0.5, "written_bytes": 41064064}
    costs = cost_columns({**process, **warmup}, "load", 1000, {"INSERT": 1000}, 1000)
    assert costs["cpu_seconds"] == pytest.approx(3.0 - 1.87)
    assert costs["written_bytes"] == 10_000_000
    assert cost_columns(process, "load", 1000, {"INSERT": 1000}, 1000)["cpu_seconds"] == 3.0  # no warm-up line


FINDINGS = {f.id: f for f in load_findings()}


def _figures(values: dict[str, list[float]]) -> dict:
    figures = {}
    for engine, runs in values.items():
        f = Figure(engine, "seqwrite", "", "1", "ops", "ops/sec", sorted(runs)[len(runs) // 2], len(runs), runs)
        figures[(engine, "seqwrite", "")] = f
    return figures


def test_a_margin_inside_the_spread_is_too_close_to_call():
    figures = _figures({"leveldb": [300.0, 310.0, 330.0], "kyoto": [295.0, 305.0, 320.0], "sqlite": [50.0, 51, 52]})
    values = {k: f.value for k, f in figures.items()}
    result = evaluate_finding(FINDINGS["F1"], values, None, figures)
    assert result.status == TOO_CLOSE
    # margin 310/305 - 1 = 1.6 %; the wider spread is LevelDB's (330 - 300) / 310 = 9.7 %
    assert result.evidence.startswith("too close to call on this machine (margin 1.6 %, spread 9.7 %)")
    # The same medians with tight repeats decide; one run (no spread) decides as before.
    tight = _figures({"leveldb": [309.0, 310.0, 311.0], "kyoto": [304.0, 305.0, 306.0], "sqlite": [50.0, 51, 52]})
    assert evaluate_finding(FINDINGS["F1"], values, None, tight).status == REPRODUCED
    single = _figures({"leveldb": [310.0], "kyoto": [305.0], "sqlite": [51.0]})
    assert evaluate_finding(FINDINGS["F1"], values, None, single).status == REPRODUCED


def test_full_runs_the_margin_cells_three_times_and_says_so():
    scenarios = [SCENARIOS_BY_ID[s] for s in ("seqwrite", "randread", "workloada", "kv1000")]
    assert repeats_by_scenario(None, True, scenarios) == {"seqwrite": 3, "randread": 3, "workloada": 1, "kv1000": 3}
    assert repeats_by_scenario(None, False, scenarios) == dict.fromkeys(repeats_by_scenario(None, True, scenarios), 1)
    assert set(repeats_by_scenario(2, True, scenarios).values()) == {2}


def test_the_report_starts_with_a_summary_and_shows_the_costs(fake_repo, tmp_path: Path):  # noqa: F811
    launcher = fake_repo / "bin" / "ycsb"
    launcher.write_text(WRITING_YCSB.format(python=sys.executable))
    options = options_for(fake_repo, tmp_path, cap=1000, repeat=2)
    for scenario in ("seqwrite", "randwrite"):
        run_cell(options, "leveldb", SCENARIOS_BY_ID[scenario])
    (options.out / "suite.json").write_text(json.dumps({"mode": "quick", "repeat": 2}))
    markdown = to_markdown(build_report(load_run(options.out), options.out))
    order = ["# ycsb-embedded", "## Summary", "**Published findings**", "**Failed cells**: 0 of 2", "**Durability**"]
    order += ["## This machine", "### What it cost", "## Write and space amplification", "## Findings"]
    positions = [markdown.index(text) for text in order]
    assert positions == sorted(positions)
    assert "every cell ran 2 times" in markdown
    assert "not checked in this run" in markdown
    # the cost table: seqwrite on LevelDB, WRITTEN bytes on disk = 0.4 MB, 3.53x the 116,000 bytes of user data
    row = next(line for line in markdown.splitlines() if line.startswith("| seqwrite | LevelDB 1.13 (leveldbjni) |"))
    assert "| 250,000 | 0.002 / 0.030 |" in row and "| 0.4 | 3.53x |" in row  # in ops: the timing file's
    # Small multiples: a chart per write scenario, one legend above them.
    assert [p.name for p in sorted((options.out / "charts").glob("amplification*"))] == [
        "amplification-1.svg",
        "amplification-2.svg",
    ]
    assert "Bars in each chart, top to bottom: LevelDB 1.13 (leveldbjni)." in markdown
    # Each figure carries its min-max over the two repeats.
    assert "ops/sec [" in markdown


STATUS_LINES = """2026-11-22 20:45:22:001 0 sec: 0 operations; est completion in 0 second
2026-11-22 20:45:23:001 1 sec: 20000 operations; 20000 current ops/sec; [INSERT: Count=20000, Max=10, Min=1, Avg=2]
2026-11-22 20:45:24:001 2 sec: 22000 operations; 2000 current ops/sec; [INSERT: Count=2000, Max=10, Min=1, Avg=2]
2026-11-22 20:45:25:001 3 sec: 41000 operations; 19000 current ops/sec; [INSERT: Count=19000, Max=10, Min=1, Avg=2]
2026-11-22 20:45:25:401 3 sec: 45000 operations; 10000 current ops/sec; [CLEANUP: Count=1, Max=9, Min=9, Avg=9]
"""


def test_throughput_over_time_is_one_point_a_second_with_the_slowest_marked(tmp_path):
    import pandas as pd

    from analysis.report.report_costs import timeline_blocks, timeline_of
    from analysis.results.results import RunData
    from analysis.results.tidy import TIDY_COLUMNS

    (tmp_path / "01-load-kv1000.err").write_text(STATUS_LINES)
    step = {"measured": True, "variant": "", "stderr": "01-load-kv1000.err"}
    cells = [{"engine": "rocksdb", "scenario": "kv1000", "status": "ok", "repeats": [[step]]}]
    run = RunData(tmp_path, {}, {}, cells, pd.DataFrame(columns=TIDY_COLUMNS), [], {})
    timeline = timeline_of(run, "rocksdb", "kv1000")
    assert timeline is not None
    # The closing line repeats second 3 with a partial interval: the full interval's figure stays.
    assert (timeline.seconds, timeline.ops_per_sec) == ([1.0, 2.0, 3.0], [20000.0, 2000.0, 19000.0])
    assert timeline.slowest == (2.0, 2000.0)
    # Three seconds show three points, not a shape: no chart, and the report says why.
    markdown = to_markdown(timeline_blocks(run, tmp_path))
    assert "## Throughput over time" in markdown and "![kv1000" not in markdown
    assert "shorter than 10 one-second status lines" in markdown and "kv1000 on RocksDB (3 s)" in markdown
    assert not (tmp_path / "charts").exists()
    # Ten seconds get their chart.
    lines = STATUS_LINES.splitlines()
    second = "2026-11-22 20:45:{:02d}:001 {} sec: {} operations; 20000 current ops/sec; [INSERT: Count=20000]"
    longer = [lines[0], *(second.format(22 + s, s, 20000 * s) for s in range(1, 11))]
    (tmp_path / "01-load-kv1000.err").write_text("\n".join(longer) + "\n")
    markdown = to_markdown(timeline_blocks(run, tmp_path))
    assert "![kv1000: ops/sec second by second](charts/timeline-kv1000.svg)" in markdown
    assert "shorter than" not in markdown
    assert (tmp_path / "charts" / "timeline-kv1000.svg").read_text().lstrip().startswith("<?xml")


def test_the_summary_says_full_runs_repeat_the_margin_cells(tmp_path):
    import pandas as pd

    from analysis.report.report_context import run_summary
    from analysis.report.report_summary import summary_blocks
    from analysis.results.results import RunData
    from analysis.results.tidy import TIDY_COLUMNS

    suite = {"mode": "full", "repeat": 3, "repeats": {"seqwrite": 3, "kv1000": 3, "workloada": 1}}
    run = RunData(tmp_path, suite, {}, [], pd.DataFrame(columns=TIDY_COLUMNS), [], {})
    markdown = to_markdown(summary_blocks(run, [], None, full_repeats=True))
    assert "the cells of F1, F2, F3, F4, F11, F12 ran 3 times (`--full` does so by default)" in markdown
    assert "median (and min-max) of 3 runs for kv1000, seqwrite, one run for the rest" in run_summary(run)
