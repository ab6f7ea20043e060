"""Steady state checked, not assumed: a step whose rate still climbs at its end is flagged, a flat one is
not, a step of one second is too short; from `-s` status lines and from HdrHistogram interval logs alike;
the heat map marks them under a legend and the findings say so."""

from __future__ import annotations

import json
import statistics
from dataclasses import replace
from pathlib import Path

from analysis.report.render import HeatMap, to_html, to_markdown
from analysis.report.report import build_report
from analysis.results.steady import CLIMBING, STEADY, TOO_SHORT, figure_steadiness, judge, status_rates, step_rates

from .conftest import FIXTURES
from .test_report import constructed_run
from .test_scale import write_log

# A run of LMDB on workload C, second by second: the JIT compiling the hot path for 5-7 s.
CLIMB = [47e3, 91e3, 167e3, 243e3, 283e3, 308e3, 330e3, 350e3, 365e3, 373e3]
FLAT = [150e3, 149e3, 152e3, 148e3, 151e3, 150e3, 149e3, 151e3]


def status_lines(rates: list[float]) -> str:
    """A step's stderr as YCSB's `-s` status thread writes it: a line at 0 s, one a second, a closing one."""
    lines = ["2026-11-26 10:00:00:000 0 sec: 0 operations; est completion in 0 second "]
    done = 0
    for n, rate in enumerate(rates, start=1):
        done += int(rate)
        lines.append(f"2026-11-26 10:00:{n:02d}:000 {n} sec: {done} operations; {rate:.2f} current ops/sec; [READ: x]")
    lines.append(
        f"2026-11-26 10:00:{len(rates):02d}:100 {len(rates)} sec: {done + 10} operations; 100.00 current ops/sec;"
    )
    return "\n".join(lines) + "\n"


def test_a_climbing_step_is_flagged_a_flat_one_is_not_and_one_second_is_too_short():
    assert judge(CLIMB) == CLIMBING
    assert judge(FLAT) == STEADY
    assert judge([150e3]) == TOO_SHORT and judge([]) == TOO_SHORT and judge(FLAT[:3]) == TOO_SHORT
    # Five full passes over 7 s: a second holds 0, 1 or 2 operations, no rate to read.
    assert judge([0.0, 1, 0, 1, 2, 0, 1]) == TOO_SHORT
    # Early warm-up alone does not flag a step that then holds its rate.
    assert judge([50e3, 120e3, 150e3, 151e3, 149e3, 150e3, 152e3, 150e3, 149e3]) == STEADY
    # A rise of 10 % or less in the last third is within the rule.
    assert judge([100.0] * 6 + [110.0] * 3) == STEADY and judge([100.0] * 6 + [112.0] * 3) == CLIMBING
    # nine full passes in 100 ms, then ten: one operation more an interval is the count's grain, not a climb
    assert judge([90.0] * 14 + [100.0] * 7, 20, 10.0) == STEADY
    assert judge([90.0] * 14 + [110.0] * 7, 20, 10.0) == CLIMBING
    # a last third whose median is 15 % higher but whose intervals are as often slower than the middle's: noise
    noisy_middle = [100.0, 80, 120, 90, 110, 85, 115]
    noisy_last = [70.0, 140, 125, 150, 75, 126, 60]
    assert statistics.median(noisy_last) > 1.1 * statistics.median(noisy_middle) + 10
    assert judge([100.0] * 7 + noisy_middle + noisy_last, 20, 10.0) == STEADY
    assert judge([100.0] * 7 + noisy_middle + [125.0, 130, 135, 128, 140, 132, 126], 20, 10.0) == CLIMBING
    # a dip in the middle third and a return to the first third's rate: the step had reached it, no climb
    # (RocksDB's fillseq around a memtable flush, 100 ms intervals of a quick run, in thousands a second)
    dip = [344.0, 332, 317, 318, 305, 313, 311, 287, 278, 293, 309, 277, 276, 311]
    dip += [320.0, 315, 320, 318, 324, 339, 337, 351]
    middle, last = dip[8:15], dip[15:]
    assert statistics.median(last) > 1.1 * statistics.median(middle) + 10 / 1000  # the middle third's rule alone
    assert judge(dip, 20, 10.0 / 1000) == STEADY
    # the same middle and last thirds after a first third at the middle's rate: a climb
    assert judge([290.0] * 8 + middle + last, 20, 10.0 / 1000) == CLIMBING


def test_a_figure_climbs_when_half_its_repeats_do():
    from analysis.results.steady import combine

    assert combine([CLIMBING]) == CLIMBING and combine([CLIMBING, STEADY]) == CLIMBING
    assert combine([CLIMBING, STEADY, STEADY]) == STEADY and combine([CLIMBING, CLIMBING, STEADY]) == CLIMBING
    assert combine([STEADY, TOO_SHORT, CLIMBING]) == TOO_SHORT


def test_the_whole_seconds_of_status_lines_leave_out_the_first_and_closing_lines():
    assert status_rates(status_lines(FLAT)) == FLAT
    captured = (FIXTURES / "leveldb" / "run-status.err").read_text()
    assert status_rates(captured) == [135459.0, 150073.0, 149363.0, 150553.0]
    assert judge(status_rates(captured)) == STEADY


def _step(directory: Path, stem: str, rates: list[float] | None) -> dict:
    (directory / "r1").mkdir(parents=True, exist_ok=True)
    (directory / "r1" / f"{stem}.txt").write_text("")
    (directory / "r1" / f"{stem}.err").write_text(status_lines(rates) if rates is not None else "")
    return {
        "stdout": f"r1/{stem}.txt",
        "stderr": f"r1/{stem}.err",
        "name": "run-randread",
        "phase": "run",
        "recordcount": 1000,
        "operationcount": 1000,
        "measured": True,
        "variant": "",
        "problems": [],
        "exit_code": 0,
    }


def test_hdrhistogram_logs_are_read_where_the_step_wrote_them(tmp_path):
    step = _step(tmp_path, "02-run-randread", FLAT)  # its status lines say flat ...
    # ... its logs, a partial first and last second around six climbing ones, say otherwise and are preferred.
    seconds: list[tuple[float, list[int]]] = [(1, [10] * 30), *((n, [10] * (100 * n)) for n in range(2, 8))]
    seconds.append((8, [10] * 5))
    write_log(tmp_path / "r1" / "02-run-randread.READ.hdr", seconds)
    assert step_rates(tmp_path, step) == [200.0, 300.0, 400.0, 500.0, 600.0, 700.0]
    assert judge(step_rates(tmp_path, step)) == CLIMBING


def test_the_heat_map_marks_figures_not_steady_and_the_findings_say_so(tmp_path):
    run = constructed_run(tmp_path)
    cells: list[dict] = []
    for engine, rates in (("leveldb", FLAT), ("kyoto", CLIMB), ("sqlite", [150e3])):
        directory = tmp_path / engine / "randread"
        cells.append(
            {"engine": engine, "scenario": "randread", "status": "ok", "repeats": [[_step(directory, "02-x", rates)]]}
        )
        (directory / "cell.json").write_text(json.dumps(cells[-1]))
        cells[-1]["results_dir"] = str(tmp_path)
        for step in cells[-1]["repeats"][0]:
            step["stdout"], step["stderr"] = (f"{engine}/randread/{step[k]}" for k in ("stdout", "stderr"))
    assert figure_steadiness(cells, tmp_path) == {
        ("leveldb", "randread", ""): STEADY,
        ("kyoto", "randread", ""): CLIMBING,
        ("sqlite", "randread", ""): TOO_SHORT,
    }
    blocks = build_report(replace(run, cells=cells), tmp_path)
    heat = next(b for b in blocks if isinstance(b, HeatMap))
    assert dict(zip([label for label, _ in heat.rows], heat.marks, strict=True))["randread"] == ["", "↗", "◦"]
    markdown = to_markdown(blocks)
    assert "| randread | 1.00 | 0.60 ↗ | 0.40 ◦ |" in markdown
    assert "↗: the rate still climbed at the step's end (the median second of the last third" in markdown
    assert (
        "◦: the step lasted fewer than 20 whole intervals of 100 ms (where the driver recorded them; else 4 whole"
        in (markdown)
    )
    assert "of 3 figures, 1 still climbing at their step's end (marked ↗ in the heat map: Kyoto TreeDB randread)" in (
        markdown
    )
    assert "1 from steps too short to show a steady part" in markdown
    f4 = next(line for line in markdown.splitlines() if line.startswith("| F4 |"))
    assert "; not steady: Kyoto TreeDB randread still climbing, 1 of its 3 figures from steps too short to show" in f4
    assert "0.60 ↗</td>" in to_html(blocks, "t", tmp_path)
    # The table of the figures says so too.
    reads = markdown[markdown.index("### Baseline: Reads") :]
    assert reads.index(
        "Not steady (checked from each measured step's seconds): Kyoto TreeDB randread still climbing, "
        "1 of the table's 3 figures from steps too short to show a steady part."
    ) < reads.index("![")


def test_a_run_without_steps_renders_as_before(tmp_path):
    markdown = to_markdown(build_report(constructed_run(tmp_path), tmp_path))
    assert "↗" not in markdown and "◦" not in markdown and "Steady state" not in markdown


def test_the_at_scale_section_notes_loads_that_ran_faster_at_a_larger_n():
    from analysis.report.scale_readings import rising_loads_note

    def load(engine: str, records: int, rate: float, seconds: float) -> dict:
        return {
            "engine": engine,
            "workload": "load",
            "records": records,
            "rate": rate,
            "ok": True,
            "runtime_s": seconds,
        }

    # A small run: LevelDB 27,409 -> 42,227 ops/s from 65,536 to 262,144 records.
    points = [load("leveldb", 65_536, 27_409.0, 2.4), load("leveldb", 262_144, 42_227.0, 6.2)]
    points += [load("rocksdb", 65_536, 50_000.0, 1.3), load("rocksdb", 262_144, 48_000.0, 5.5)]
    note = rising_loads_note(points)
    assert note.startswith(
        "The loads' throughput rose with N: LevelDB 1.13 (leveldbjni) 27,400 -> 42,200 ops/s from 65,536 to "
        "262,144 records, a load of 2 s. "
    )
    assert "RocksDB" not in note and rising_loads_note(points[2:]) == ""


def intervals_csv(rates: list[float], millis: int = 100) -> str:
    """The driver's records: the operations so far every `millis` ms, a partial first and last interval around
    the given ones."""
    lines = ["# elapsed_ms,operations (every 100 ms of the measured step)"]
    done, elapsed = 3, 40  # the first record comes early: the threads' start
    lines.append(f"{elapsed},{done}")
    for rate in rates:
        elapsed += millis
        done += int(rate * millis / 1000)
        lines.append(f"{elapsed},{done}")
    lines.append(f"{elapsed + 30},{done + 7}")  # the closing record
    return "\n".join(lines) + "\n"


def test_the_drivers_100_ms_records_judge_a_step_that_status_lines_call_too_short(tmp_path):
    from analysis.results.steady import STEADY_MIN_INTERVALS, interval_rates, judge_step

    # 2.5 s flat: three status-line seconds are too short; 25 records of 100 ms are enough
    step = _step(tmp_path, "02-run-randread", FLAT[:3])
    assert judge(step_rates(tmp_path, step)) == TOO_SHORT
    flat = [150e3] * 25
    records = tmp_path / "r1" / "02-run-randread.intervals.csv"
    records.write_text(intervals_csv(flat))
    assert interval_rates(records.read_text()) == flat
    assert judge_step(tmp_path, step) == STEADY
    # fewer than 20 whole intervals: too short; a last third 20 % above the middle one: still climbing
    records.write_text(intervals_csv([150e3] * (STEADY_MIN_INTERVALS - 1)))
    assert judge_step(tmp_path, step) == TOO_SHORT
    records.write_text(intervals_csv([100e3] * 16 + [120e3] * 8))
    assert judge_step(tmp_path, step) == CLIMBING
    cells = [
        {
            "engine": "lmdb",
            "scenario": "randread",
            "status": "ok",
            "results_dir": str(tmp_path),
            "repeats": [[{**step, "measured": True, "exit_code": 0, "problems": []}]],
        }
    ]
    assert figure_steadiness(cells, tmp_path) == {("lmdb", "randread", ""): CLIMBING}


def test_the_records_of_a_steps_close_are_not_its_operations(tmp_path):
    from analysis.results.steady import STEADY_MIN_INTERVALS, interval_rates, judge_step

    # Kyoto TreeDB's 100 KB random writes (quick run of 2026-12-01): 23 records of operations, then 25 while its
    # close wrote the cache back. Judged with the close, the median interval had no operation: "too short".
    writing = [7.5e3] * 10 + [2.2e3] * 13
    text = intervals_csv(writing).splitlines()
    last_elapsed, last_ops = (int(v) for v in text[-1].split(","))
    closing = [f"{last_elapsed + 100 * i},{last_ops}" for i in range(1, 26)]
    records = tmp_path / "r1" / "01-load-largevalue-randwrite.intervals.csv"
    records.parent.mkdir(parents=True, exist_ok=True)
    records.write_text("\n".join([*text, *closing]) + "\n")
    assert interval_rates(records.read_text()) == writing
    assert len(writing) >= STEADY_MIN_INTERVALS
    step = {"stdout": "r1/01-load-largevalue-randwrite.txt", "stderr": "r1/01-load-largevalue-randwrite.err"}
    assert judge_step(tmp_path, step) == STEADY
    # a stall inside the step stays in: only the records after the last operation are the close
    stalled = [7.5e3] * 10 + [0.0] * 12 + [7.5e3]
    assert interval_rates(intervals_csv(stalled)) == stalled
