"""The scale group: its cells as data (series, thread steps, the sustained run), timed steps, and
the command a step runs (heap, HdrHistogram logs, the engine's own tuning file)."""

from __future__ import annotations

from pathlib import Path

from analysis.catalogue.model import ENGINES
from analysis.catalogue.scale_group import (
    SCALE,
    SCALE_LOAD_MIN_SECONDS,
    SCALE_RECORDS,
    SCALE_STEP_SECONDS,
    SCALE_THREADS,
    ScaleSettings,
    scale_scenarios,
    scale_worst_case_seconds,
)
from analysis.catalogue.scenarios import select_scenarios
from analysis.catalogue.workloadfile import stacked_properties
from analysis.results.parse import Expectation, parse_ycsb_output, step_problems
from analysis.running.plan import plan_steps, resolve_step, ycsb_command
from analysis.running.run_args import parse_args, scale_settings
from analysis.running.runner import step_weight
from analysis.running.suite import main as run_main

from .conftest import REPO

WORKLOADS = REPO / "workloads"


def variants(scenario) -> list[str]:
    return [s.variant for s in scenario.steps]


def test_default_series_and_where_the_thread_and_sustained_steps_go():
    assert [s.id for s in SCALE] == [f"scale-{n}" for n in SCALE_RECORDS]
    small, middle, large = SCALE
    every = ["load", "read-uniform", "read-zipfian", "scan", "mix", "overwrite"]
    threads = [f"{w}-{t}t" for w in ("read-uniform", "mix") for t in SCALE_THREADS]
    assert variants(small) == every + threads
    assert variants(middle) == every
    assert variants(large) == every + threads + ["sustained"]
    for scenario in SCALE:
        assert all(s.heap == "256m" and s.seconds for s in scenario.steps)
        assert {s.records for s in scenario.steps} == {int(scenario.id.split("-")[1])}
    assert SCALE_RECORDS[-1] * (16 + 1024) >= 4 << 30  # the largest data is at least 4x a 1 GB budget


def test_the_series_are_settable():
    args = parse_args(
        ["--scenarios", "scale", "--records-series", "100,50", "--threads-series", "1,3", "--duration", "7"]
    )
    small, large = scale_scenarios(scale_settings(args))
    assert (small.id, large.id) == ("scale-50", "scale-100")
    assert variants(small)[-4:] == ["read-uniform-1t", "read-uniform-3t", "mix-1t", "mix-3t"]
    assert large.steps[-1].variant == "sustained" and large.steps[-1].seconds == 7
    three = next(s for s in small.steps if s.variant == "mix-3t")
    assert dict(three.props) == {"threadcount": "3", "sqlite.cachesize": str((256 << 20) // 3)}
    assert small.steps[0].props == (("kyoto.buckets", "6"),)  # the registry's: a bucket per 8 records


def test_a_registry_template_scales_with_the_step():
    from analysis.catalogue.scale_group import scaled

    assert scaled("{records}/8", records=1000) == "125"
    assert scaled("{records}/8", records=5) == "1"  # at least 1
    assert scaled("{cache}/{threads}", cache=300, threads=7) == "42"
    assert scaled("{threads}", threads=4) == "4" and scaled("512", records=1) == "512"


def test_scale_is_selected_only_by_name():
    assert not any(s.id.startswith("scale-") for s in select_scenarios(None))
    assert not any(s.id.startswith("scale-") for s in select_scenarios(["all"]))
    assert [s.id for s in select_scenarios(["scale"])] == [s.id for s in SCALE]
    assert [s.id for s in select_scenarios(["scale-262144"])] == ["scale-262144"]


def test_a_timed_step_resolves_to_maxexecutiontime_and_may_stop_early():
    scenario = scale_scenarios(ScaleSettings(records=(1000,), step_seconds=9))[0]
    assert scenario.steps[0].seconds == SCALE_LOAD_MIN_SECONDS  # a small load still gets a minute
    step = scenario.steps[1]
    props = stacked_properties([WORKLOADS / f for f in step.workloads])
    resolved = resolve_step(step, 2, scenario, props, quick=True, cap=None)
    assert resolved.recordcount == 1000
    assert resolved.operationcount == 1_000_000_000  # the time decides, not the count
    assert resolved.props["maxexecutiontime"] == "9"
    assert resolved.expectation.timed
    assert step_weight(resolved) == 10.0  # a JVM start plus nine seconds
    assert scale_scenarios(ScaleSettings(records=(4_194_304,)))[0].steps[0].seconds == 300  # at 14,000 inserts/s
    capped = resolve_step(step, 2, scenario, props, quick=True, cap=500)
    assert (capped.recordcount, capped.operationcount) == (500, 500)


def test_timed_expectation():
    out = parse_ycsb_output(
        "[OVERALL], RunTime(ms), 1000\n[OVERALL], Throughput(ops/sec), 40\n"
        "[READ], Operations, 40\n[READ], Return=OK, 30\n[READ], Return=NOT_FOUND, 10\n"
    )
    allowed = frozenset({"OK", "NOT_FOUND"})
    assert step_problems(out, 0, [], Expectation(1000, allowed, timed=True)) == []
    assert step_problems(out, 0, [], Expectation(1000, allowed)) == ["40 of 1000 operations done"]
    assert step_problems(out, 0, [], Expectation(10, allowed, timed=True)) == [
        "40 operations done in a timed step of at most 10"
    ]


def test_command_has_the_heap_the_hdr_logs_and_the_engines_own_file(tmp_path):
    scenario = scale_scenarios(ScaleSettings(records=(1000,)))[0]
    step = scenario.steps[1]
    resolved = resolve_step(step, 2, scenario, stacked_properties([WORKLOADS / "scale/base"]), True, None)
    files = [WORKLOADS / f for f in step.workloads_for("leveldb-system")]
    assert files[-1] == WORKLOADS / "scale/leveldb-system"
    assert step.workloads_for("leveldb") == step.workloads  # leveldbjni refuses LevelDB 1.23's options
    command = ycsb_command(Path("bin/ycsb"), "leveldb-system", files, resolved, tmp_path, None, tmp_path / "02-x.")
    assert command[:2] == ["env", "JAVA_OPTS=-Xmx256m"] or command[1].endswith("-Xmx256m")
    assert f"hdrhistogram.output.path={tmp_path / '02-x.'}" in command
    assert f"maxexecutiontime={SCALE_STEP_SECONDS}" in command
    assert step.name == "run-scale-base-read-uniform"  # no '/' in a file name


def test_every_scale_workload_file_exists_and_every_setting_has_a_comment():
    scenario = SCALE[-1]
    names = scenario.workload_files()
    assert "scale/leveldb-system" in names
    for name in names:
        lines = (WORKLOADS / name).read_text().splitlines()
        assert lines[0].startswith(f"# {name}:"), name
    base = stacked_properties([WORKLOADS / "scale/base"])
    assert base["measurementtype"] == "hdrhistogram" and base["hdrhistogram.fileoutput"] == "true"
    assert base["rocksdb.bloombits"] == "10"


def test_plan_steps_reads_the_files(tmp_path):
    from analysis.running.plan import RunOptions

    options = RunOptions(repo=REPO, out=tmp_path, workloads=WORKLOADS, data=tmp_path / "data", cap=100)
    steps = plan_steps(options, SCALE[0])
    assert [s.recordcount for s in steps] == [100] * len(SCALE[0].steps)
    assert steps[0].step.phase == "load" and steps[0].expectation.operations == 100


def test_bad_series_is_refused(capsys):
    try:
        run_main(["--scenarios", "scale", "--records-series", "10,x"])
    except SystemExit as e:
        assert e.code == 2
    assert "not a comma-separated list of positive whole numbers" in capsys.readouterr().err


def write_log(path: Path, seconds: list[tuple[float, list[int]]], start: float = 1_700_000_000.0) -> None:
    """An HdrHistogram interval log as YCSB writes one: a start time, then an interval per second (us values)."""
    from hdrh.histogram import HdrHistogram
    from hdrh.log import HistogramLogWriter

    with path.open("w") as f:
        writer = HistogramLogWriter(f)
        writer.output_log_format_version()
        f.write(f"#[StartTime: {start:.3f} (seconds since epoch), then]\n")  # the library's own writer misdates it
        writer.output_legend()
        for at, values in seconds:
            h = HdrHistogram(1, 3_600_000_000, 3)
            for v in values:
                h.record_value(v)
            # Seconds since the start time, as YCSB's status thread stamps them (a little after each second).
            writer.output_interval_histogram(h, at - 1.0 + 0.02, at + 0.02)


def test_timeline_adds_the_operations_of_each_second_and_finds_stalls(tmp_path):
    from analysis.results.scale import hdr_logs, stalls, step_percentiles, timeline

    write_log(
        tmp_path / "05-run-mix.READ.hdr",
        [(1, [10] * 90 + [1000] * 10), (2, [10] * 100), (3, [10] * 5), (4, [10] * 100), (5, [10])],
    )
    write_log(
        tmp_path / "05-run-mix.UPDATE.hdr",
        [(1, [20] * 100), (2, [20] * 100), (3, [20] * 5), (4, [20] * 100), (5, [20])],
    )
    write_log(tmp_path / "05-run-mix.CLEANUP.hdr", [(5, [99999])])
    logs = hdr_logs(tmp_path, "05-run-mix")
    assert [p.name for p in logs] == ["05-run-mix.READ.hdr", "05-run-mix.UPDATE.hdr"]  # the close is no operation
    seconds = timeline(logs)
    assert [s.operations for s in seconds] == [200, 200, 10, 200, 2]
    assert [s.at for s in seconds] == [1.0, 2.0, 3.0, 4.0, 5.0]
    assert seconds[0].ops_per_sec == 200.0
    assert seconds[0].p50_us == 20 and seconds[0].p99_us == 1000  # READ's slow tenth sets the p99
    assert [s.at for s in stalls(seconds)] == [3.0]  # the first and last (partial) seconds are left out
    whole = step_percentiles(logs)
    assert whole is not None and whole["p50_us"] == 20 and whole["p999_us"] == 1000


def test_an_unreadable_log_is_said_so(tmp_path):
    import pytest

    from analysis.results.scale import UnreadableLog, read_intervals

    log = tmp_path / "x.READ.hdr"
    # A line of YCSB 0.17's own HdrHistogram 2.1.4 log: V1-encoded.
    log.write_text(
        "#[StartTime: 1795576920.759 (seconds since epoch), Wed Nov 25 03:22:00 UTC 2026]\n"
        '"StartTimestamp","Interval_Length","Interval_Max","Interval_Compressed_Histogram"\n'
        "0.229,0.127,0.000,HISTggAAAB142pNpmdzIwMDAwQABzFCaEUoz2X9gQAEAYqkC8g==\n"
    )
    with pytest.raises(UnreadableLog, match="not a readable HdrHistogram V2 log"):
        read_intervals(log)


def test_workload_and_threads():
    from analysis.results.scale import workload_and_threads

    assert workload_and_threads("mix-8t") == ("mix", 8)
    assert workload_and_threads("read-uniform") == ("read-uniform", 1)
    assert workload_and_threads("sustained") == ("sustained", 1)


def test_the_defaults_fit_ninety_minutes_for_every_engine_row_even_when_every_load_runs_out_of_time():
    worst = scale_worst_case_seconds(ScaleSettings(), engines=len(ENGINES))
    assert len(ENGINES) == 6 and worst <= 85 * 60, worst / 60  # five minutes left for the engines' closes
    # loads of 60, 75 and 300 s + 15 steps x 10 s + 20 x 5 s + 60 s + 39 steps x 2 s, per engine
    assert worst == 6 * (60 + 75 + 300 + 15 * 10 + 20 * 5 + 60 + 39 * 2)


def test_shards_with_different_budgets_are_not_merged():
    from analysis.results.merge import merge_problems

    machine = {"cores": 2}
    runs = [(Path("a"), {"memory_bytes": 1 << 30}, machine), (Path("b"), {"memory_bytes": 512 << 20}, machine)]
    assert any("memory_bytes" in p for p in merge_problems(runs))
    assert merge_problems([runs[0], (Path("c"), {"memory_bytes": 1 << 30}, machine)]) == []


def test_a_cold_start_is_warm_up_not_a_stall():
    from analysis.results.scale import Second, stalls

    rates = [5, 10, 20, 100, 100, 30, 100, 100, 50]
    seconds = [Second(float(i + 1), 1.0, r, 1.0, 1.0, 1.0) for i, r in enumerate(rates)]
    assert [s.at for s in stalls(seconds)] == [6.0]  # 10 and 20 come before the run first reaches its median


def test_leaders_in_memory_and_beyond():
    from analysis.report.scale_readings import budget_records, leaders

    def point(engine, records, rate, noisy=False):
        return {
            "engine": engine,
            "records": records,
            "workload": "read-uniform",
            "threads": 1,
            "ok": True,
            "rate": rate,
            "noisy": noisy,
            "data_bytes": records * 1040,
        }

    budget = 1 << 30
    points = [
        point("rocksdb", 2**18, 50_000),
        point("kyoto", 2**18, 70_000),
        point("rocksdb", 2**22, 9_000),
        point("kyoto", 2**22, 400, noisy=True),
    ]
    [row] = leaders(points, budget)
    assert row[0] == "read-uniform"
    assert row[1].startswith("Kyoto TreeDB (70,000")
    assert row[2].startswith("RocksDB (9,000")
    assert row[3] == "yes"
    crossing = budget_records(points, budget)
    assert crossing is not None and round(crossing) == round(budget / 1040)
    points[3]["rate"] = 10_000
    assert leaders(points, budget)[0][2].endswith("†") and leaders(points, budget)[0][3] == "no"


def test_a_timed_step_gets_time_to_close_before_it_is_killed():
    from analysis.running.runner import CLOSE_SECONDS, step_timeout

    assert step_timeout(600.0, None) == 600.0  # an untimed step: --step-timeout as given
    assert step_timeout(600.0, 420) == 420 + CLOSE_SECONDS  # Kyoto's close after a 420 s load took minutes
    assert step_timeout(None, 420) is None  # --full: no timeout at all


def test_the_warm_rate_is_the_second_half_of_the_full_seconds():
    from analysis.results.scale import Second, warm_rate

    # A cold start: the first seconds fill the caches; the partial first and last seconds are left out.
    rates = [50, 1_000, 2_000, 9_000, 10_000, 10_000, 11_000, 7]
    seconds = [Second(float(i + 1), 1.0, r, 1.0, 1.0, 1.0) for i, r in enumerate(rates)]
    assert warm_rate(seconds) == (10_000 + 10_000 + 11_000) / 3
    assert warm_rate(seconds[:5]) is None  # three full seconds: too short to have a warm half


def test_leveldbs_mapped_reads_are_explained_only_when_they_amplify():
    from analysis.report.scale_readings import mapped_read_note

    def point(engine, records, amplification, workload="read-uniform"):
        return {"engine": engine, "records": records, "workload": workload, "read_amplification": amplification}

    points = [
        point("leveldb-system", 2**18, 3.0),
        point("leveldb-system", 2**22, 1_900.0),
        point("rocksdb", 2**22, 900.0),  # not a mapped reader: not named
        point("leveldb", 2**22, 5_000.0, "scan"),  # not a point read
    ]
    note = mapped_read_note(points, 8192)
    assert "LevelDB 1.23 (system library): 1,900 at 4,194,304 records" in note
    assert "8,192 KB on this machine's disk" in note and "RocksDB:" not in note and "5,000" not in note
    assert "the disk's read-ahead window" in mapped_read_note(points, None)
    assert mapped_read_note([point("leveldb", 2**22, 40.0)], 8192) == ""


def test_only_an_engine_the_registry_says_reads_through_maps_gets_the_mapped_reads_note(monkeypatch):
    from analysis.catalogue.engines import Engine, Registry
    from analysis.report import scale_readings

    points = [{"engine": "m", "records": 2**20, "workload": "read-uniform", "read_amplification": 500.0}]
    assert scale_readings.mapped_read_note(points, 8192) == ""  # not registered
    registry = Registry({}, (Engine("m", "Mapped", "m", mapped_reads=True),))
    monkeypatch.setattr(scale_readings, "REGISTERED", registry)
    assert "m: 500 at 1,048,576 records" in scale_readings.mapped_read_note(points, 8192)
    monkeypatch.setattr(scale_readings, "REGISTERED", Registry({}, (Engine("m", "Mapped", "m"),)))
    assert scale_readings.mapped_read_note(points, 8192) == ""


def test_every_engine_row_has_a_colour_of_its_own():
    from analysis.report.charts import PUBLISHED_COLOURS, TODAY_COLOURS

    # With five colours LMDB, the sixth row, was drawn in LevelDB 1.13's blue.
    assert len(set(TODAY_COLOURS[: len(ENGINES)])) == len(ENGINES)
    assert len(set(PUBLISHED_COLOURS[: len(ENGINES)])) == len(ENGINES)


def test_the_close_after_the_last_operation_is_not_a_stall():
    from analysis.results.scale import Second, stalls

    # Kyoto's sustained run: 60 busy seconds, one operation straddling the end, two seconds of closing.
    rates = [1000] * 60 + [1, 0, 0]
    seconds = [Second(float(i + 1), 1.0, r, 1.0, 1.0, 1.0) for i, r in enumerate(rates)]
    assert stalls(seconds) == []
    rates[30] = 100
    seconds = [Second(float(i + 1), 1.0, r, 1.0, 1.0, 1.0) for i, r in enumerate(rates)]
    assert [s.at for s in stalls(seconds)] == [31.0]


def test_leaders_when_no_size_exceeds_the_budget_name_no_leader_beyond():
    from analysis.report.scale_readings import leaders, split_sizes

    def point(engine, records, rate):
        return {
            "engine": engine,
            "records": records,
            "workload": "mix",
            "threads": 1,
            "ok": True,
            "rate": rate,
            "noisy": False,
        }

    points = [
        {**point("rocksdb", 2000, 900.0), "data_bytes": 2000 * 1040},
        {**point("lmdb", 2000, 700.0), "data_bytes": 2000 * 1040},
        {**point("rocksdb", 8000, 500.0), "data_bytes": 8000 * 1040},
        {**point("lmdb", 8000, 800.0), "data_bytes": 8000 * 1040},
    ]
    assert split_sizes(points, 512 << 20) == (8000, None)
    # One leader per workload, at the largest N: none "beyond", no ranking change asked.
    assert leaders(points, 512 << 20) == [["mix", "LMDB (lmdbjava) (800 ops/s)"]]
    assert split_sizes(points, None) == (8000, None)
    assert split_sizes(points, 4 << 20) == (2000, 8000) and len(leaders(points, 4 << 20)[0]) == 4


def scale_point(engine: str, records: int, variant: str, rate: float, **extra) -> dict:
    """One step of a scale cell as report_scale reads it (scale.point_of's keys)."""
    workload, threads = (variant.rsplit("-", 1)[0], int(variant[-2])) if variant.endswith("t") else (variant, 1)
    return {
        "engine": engine,
        "scenario": f"scale-{records}",
        "records": records,
        "repeat": 1,
        "variant": variant,
        "workload": workload,
        "threads": threads,
        "ok": True,
        "problems": "",
        "seconds": 4,
        "runtime_s": 4.0,
        "operations": int(rate * 4),
        "loaded": records if variant == "load" else None,
        "not_found": 0,
        "ops_per_sec": rate,
        "warm_ops_per_sec": None,
        "rate": rate,
        "p50_us": 20.0,
        "p99_us": 200.0,
        "p999_us": 900.0,
        "data_bytes": records * 1040,
        "db_bytes": records * 1100,
        "space_amplification": 1.06,
        "write_amplification": 2.5 if variant in ("load", "overwrite") else None,
        "read_bytes": 4096,
        "read_amplification": 1.5 if variant == "read-uniform" else None,
        "budget_bytes": 512 << 20,
        "cgroup_peak_bytes": 100 << 20,
        "cgroup_cache_bytes": 10 << 20,
        "peak_rss_bytes": 90 << 20,
        "cpu_seconds_per_1000_ops": 0.1,
        "other_cpu_cores": 0.0,
        "noisy": False,
        "hdr_logs": [],
        "hdr_unreadable": False,
        **extra,
    }


def test_the_at_scale_report_is_self_contained_in_figures_csv_and_in_the_summary(tmp_path, monkeypatch):
    """A small run (2 sizes inside a 512m budget, 3 engines): the charts are SVG inside report.html, every
    figure the section draws is a row of figures.csv, the summary has the section's leaders, and "Who leads"
    says no size exceeded the budget instead of naming a leader beyond it."""
    import csv
    import json

    from analysis.report import report_scale
    from analysis.report.report import write_report

    engines, sizes = ("rocksdb", "sqlite", "lmdb"), (2000, 8000)
    speed = {"rocksdb": 3.0, "sqlite": 1.0, "lmdb": 2.0}
    points = [
        scale_point(e, n, v, 1000 * speed[e] * (4 if v == "read-uniform" and e == "sqlite" else 1))
        for e in engines
        for n in sizes
        for v in ("load", "read-uniform", "mix", "mix-1t", "mix-2t")
    ]
    monkeypatch.setattr(report_scale, "scale_points", lambda cells, results: points)
    for e in engines:
        for n in sizes:
            cell = tmp_path / e / f"scale-{n}"
            cell.mkdir(parents=True)
            (cell / "cell.json").write_text(
                json.dumps({"engine": e, "scenario": f"scale-{n}", "status": "ok", "repeats": []})
            )
    suite = {"mode": "quick", "repeat": 1, "memory_bytes": 512 << 20, "scenarios": ["scale-2000", "scale-8000"]}
    (tmp_path / "suite.json").write_text(json.dumps(suite))
    (tmp_path / "machine.json").write_text(json.dumps({"cores": 2}))

    paths = write_report(tmp_path)

    page = paths.html.read_text()
    assert "<img" not in page and page.count('<svg class="chart"') >= 2, "the At-scale charts are not inline"
    assert (tmp_path / "charts" / "scale-cost.svg").is_file() and not list((tmp_path / "charts").glob("*.png"))
    with paths.figures_csv.open() as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(points)
    mix = next(r for r in rows if (r["engine"], r["records"], r["variant"]) == ("lmdb", "8000", "mix"))
    assert (mix["scenario"], mix["section"], float(mix["value"]), float(mix["p99_us"])) == (
        "scale-8000",
        "scale",
        2000.0,
        200.0,
    )
    markdown = paths.markdown.read_text()
    summary = markdown.split("## Summary", 1)[1].split("\n## ", 1)[0]
    assert (
        "**At scale** (budget 512m; 2,000, 8,000 records; SQLite3, RocksDB, LMDB (lmdbjava)): no size exceeded the "
        "budget; fastest at 8,000 records: load RocksDB; read-uniform SQLite3; mix RocksDB." in summary
    ), summary
    leads = markdown.split("### Who leads in memory and beyond", 1)[1].split("\n### ", 1)[0]
    assert "No N exceeded the budget: the largest, 8,000 records, fits 512m." in leads
    assert "| workload | leader at 8,000 records |" in leads and "beyond |" not in leads, leads


def test_the_summary_names_the_leaders_in_memory_and_beyond_the_budget(tmp_path, monkeypatch):
    import pandas as pd

    from analysis.report import report_scale
    from analysis.results.results import RunData

    rates = {("rocksdb", 2000): 900.0, ("lmdb", 2000): 700.0, ("rocksdb", 8000): 300.0, ("lmdb", 8000): 500.0}
    points = [scale_point(e, n, "mix", rate, noisy=e == "lmdb") for (e, n), rate in rates.items()]
    points.append(scale_point("lmdb", 8000, "scan", 0.0, ok=False, problems="exit code 4"))
    monkeypatch.setattr(report_scale, "scale_points", lambda cells, results: points)
    run = RunData(tmp_path, {"memory_bytes": 4 << 20}, {}, [], pd.DataFrame(), [], {})  # 8,000 records: 8 MB
    assert report_scale.scale_summary(run) == (
        "**At scale** (budget 4m; 2,000, 8,000 records; RocksDB, LMDB (lmdbjava)): fastest in memory (2,000 "
        "records): mix RocksDB; beyond it (8,000 records): mix LMDB (lmdbjava); the ranking changed on 1 of 1 "
        "workloads; 1 of 5 steps failed; 2 of 5 steps ran while other processes kept the machine busy."
    )
    monkeypatch.setattr(report_scale, "scale_points", lambda cells, results: [])
    assert report_scale.scale_summary(RunData(tmp_path, {}, {}, [], pd.DataFrame(), [], {})) is None
