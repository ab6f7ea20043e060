"""The report's "Latency at a rate" section, from a results directory that holds the rate command's record only:
a chart per workload (intended solid, service dashed, one colour per engine), the sweep's table with the steps
that did not hold their rate marked, and the capacity table with its neighbours and its share of flat out; the
heat map's row of each engine's capacity per workload and bound; several results directories' records merged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from analysis.report.render import HeatMap
from analysis.results.rate import RateStep, StallRun, Sweep, capacity, parse_sla
from analysis.results.scale import Second


def _step(kind: str, asked: float | None, achieved: float, p99: float, fraction: float | None = None) -> RateStep:
    intended = {"READ": {"p50": 5.0, "p99": p99, "p99.9": p99 * 2, "max": p99 * 4}}
    service = {"READ": {"p50": 4.0, "p99": 50.0, "p99.9": 90.0, "max": p99 * 4}}
    return RateStep(kind, asked, achieved, intended, service, fraction)


def _sweep(engine: str, flat: float, workload: str = "workloadc") -> Sweep:
    steps = [_step("flat", None, flat, 900.0)]
    for f, p99 in ((0.25, 60.0), (0.5, 80.0), (0.75, 5000.0)):
        steps.append(_step("sweep", flat * f, flat * f, p99, f))
    steps.append(_step("sweep", flat * 1.1, flat * 0.97, 90_000.0, 1.1))  # could not hold its rate
    steps.append(_step("search", flat * 0.625, flat * 0.625, 300.0, 0.625))
    steps[1].other_cores = 1.2  # the 25 % step ran beside a busy neighbour
    sla = parse_sla("p99=2ms")
    return Sweep(engine, workload, 1, steps, [capacity(steps, sla)], ceiling=3_000_000.0)


def _flat_sweep(engine: str, flat: float, p99: float) -> Sweep:
    """A sweep whose every held step has the same p99: under p99=2ms met everywhere (below) or nowhere."""
    steps = [_step("flat", None, flat, p99)]
    steps += [_step("sweep", flat * f, flat * f, p99, f) for f in (0.25, 0.5, 0.75)]
    return Sweep(engine, "workloadc", 1, steps, [capacity(steps, parse_sla("p99=2ms"))], ceiling=3_000_000.0)


def write_rate(directory: Path, sweeps: list[Sweep], **settings: object) -> None:
    """rate/rate.json of these sweeps, with the settings of a quick run on workload C unless given."""
    record = {
        "threads": 1,
        "step_seconds": 5,
        "fractions": [0.25, 0.5, 0.75, 1.1],
        "slas": ["p99=2ms"],
        "resolution": 0.025,
        "ceilings": {"workloadc": 3_000_000.0},
        "sweeps": [s.to_json() for s in sweeps],
        **settings,
    }
    (directory / "rate").mkdir(parents=True, exist_ok=True)
    (directory / "rate" / "rate.json").write_text(json.dumps(record))


def _write(directory: Path, sweeps: list[Sweep], **settings: object) -> None:
    """A results directory of the rate command alone: its suite.json, machine.json and rate.json."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "suite.json").write_text(json.dumps({"mode": "quick", "repeat": 1, "engines": [], "scenarios": []}))
    (directory / "machine.json").write_text(json.dumps({"cores": 2}))
    write_rate(directory, sweeps, **settings)


def test_a_results_directory_with_rate_results_gets_the_section(tmp_path: Path) -> None:
    from analysis.report.report import holds_results, write_report

    (tmp_path / "suite.json").write_text(json.dumps({"mode": "quick", "repeat": 1, "engines": [], "scenarios": []}))
    (tmp_path / "machine.json").write_text(json.dumps({"cores": 2}))
    assert not holds_results(tmp_path / "rate")
    record = {
        "threads": 1,
        "step_seconds": 5,
        "fractions": [0.25, 0.5, 0.75, 1.1],
        "slas": ["p99=2ms"],
        "ceilings": {"workloadc": 3_000_000.0},
        "sweeps": [_sweep("lmdb", 200_000.0).to_json(), _sweep("rocksdb", 100_000.0).to_json()],
    }
    (tmp_path / "rate").mkdir()
    (tmp_path / "rate" / "rate.json").write_text(json.dumps(record))
    paths = write_report(tmp_path)
    md = paths.markdown.read_text()
    assert "## Latency at a rate" in md
    assert "LMDB (lmdbjava) holds 125,000 ops/s of workloadc under p99=2ms, 62% of its flat-out rate." in md
    assert "| LMDB (lmdbjava) | workloadc | p99=2ms | 125,000 | 62% | 200,000 | 125,000 | 150,000 |" in md
    assert "| RocksDB | sweep | 110,000 (110%) | 97,000 | 5.0 us | 90,000 us |" in md
    assert "✗ not held" in md and "3,000,000/s" in md
    busy_row = "| LMDB (lmdbjava) | sweep | 50,000 (25%) | 50,000 | 5.0 us | 60 us | 120 us | 240 us | 50 us |"
    assert f"{busy_row} † others used 1.2 cores |" in md
    assert "**2 of 12 steps ran while other processes kept more than 30% of a core busy**" in md
    assert "| RocksDB | search |" not in md  # the probes are in the capacity's neighbours, not the sweep's table
    # a small chart per percentile (legible on a phone), under one legend of the engines' colours
    titles = [(tmp_path / "charts" / f"rate-workloadc-{k}.svg").read_text() for k in range(1, 5)]
    for k, title in enumerate(("p50 latency", "p99 latency", "p99.9 latency", "max latency")):
        assert f"workloadc: {title}" in titles[k], title
    assert (
        "Lines in each chart (intended time solid, service time dashed; hollow: not held): LMDB (lmdbjava), RocksDB."
        in md
    )
    assert "Latency at a rate" in paths.html.read_text()


def test_a_directory_without_rate_results_has_no_section(tmp_path: Path) -> None:
    from analysis.report.report_rate import load_rate, rate_blocks

    assert load_rate(tmp_path) is None and rate_blocks(load_rate(tmp_path), tmp_path) == []


def _glance(markdown: str) -> str:
    return markdown.split("## At a glance", 1)[1].split("\n## ", 1)[0]


def test_the_heat_map_shows_each_engines_capacity_under_each_bound(tmp_path: Path) -> None:
    from analysis.report.report import write_report

    sweeps = [
        _sweep("lmdb", 200_000.0),  # 125,000 under the bound
        _sweep("rocksdb", 100_000.0),  # 62,500
        _flat_sweep("kyoto", 30_000.0, 300.0),  # met at every rate asked: 22,500 and more
        _flat_sweep("sqlite", 8_000.0, 9_000.0),  # met at none
    ]
    _write(tmp_path, sweeps)
    paths = write_report(tmp_path)
    glance = _glance(paths.markdown.read_text())
    assert "| Test | Kyoto TreeDB | SQLite3 | RocksDB | LMDB (lmdbjava) |" in glance, glance
    assert "| workloadc capacity under p99=2ms | ≥22k | none | 62k | 125k |" in glance, glance
    assert "capacity on that workload, the highest rate in operations a second" in glance
    assert "Each test's figure relative" not in glance  # a rate run alone: no test rows to explain
    html = paths.html.read_text()
    row = html.split("workloadc capacity under p99=2ms</th>", 1)[1].split("</tr>", 1)[0]
    assert row.count('<td class="num" style="background: ') == 4  # shaded by the ratio to the best
    assert '#a6dba0">125k</td>' in row  # the best: green
    assert '#f4a582">none</td>' in row  # met at no rate: the worst shade


def test_the_capacity_rows_follow_the_tests_and_an_engine_without_a_sweep_has_none(tmp_path: Path) -> None:
    from analysis.report.report_rate import capacities_of, capacity_map_rows
    from analysis.report.report_summary import glance_blocks

    from .test_compare import run_of
    from .test_report import figure

    run = run_of(tmp_path, "a", [figure("leveldb", "randwrite", 200_000.0), figure("lmdb", "randwrite", 100_000.0)])
    record = {"sweeps": [_sweep("lmdb", 200_000.0).to_json(), _sweep("rocksdb", 100_000.0, "workloada").to_json()]}
    rows = capacity_map_rows(capacities_of(record))
    assert [(r.label, r.texts) for r in rows] == [
        ("workloadc capacity under p99=2ms", {"lmdb": "125k"}),
        ("workloada capacity under p99=2ms", {"rocksdb": "62k"}),
    ]
    [heat] = [b for b in glance_blocks(run, capacities=rows) if isinstance(b, HeatMap)]
    assert heat.columns == ["LevelDB 1.13 (leveldbjni)", "RocksDB", "LMDB (lmdbjava)"]
    assert [label for label, _ in heat.rows][-2:] == [r.label for r in rows]
    assert heat.rows[-2][1] == [None, None, 1.0] and heat.rows[-1][1] == [None, 1.0, None]
    assert [heat.cell(len(heat.rows) - 2, c) for c in range(3)] == ["—", "—", "125k"]
    assert [heat.cell(0, c) for c in range(3)] == ["1.00", "—", "0.50"]  # the tests' rows keep their scores
    # One engine swept and no test to compare: the rate section says its capacity, the map has nothing to add.
    alone = capacity_map_rows(capacities_of({"sweeps": [_sweep("lmdb", 200_000.0).to_json()]}))
    assert glance_blocks(run_of(tmp_path, "b", []), capacities=alone) == []


def test_a_merged_report_has_every_parts_rate_results(tmp_path: Path) -> None:
    from analysis.cli.main import main

    _write(tmp_path / "host-a", [_sweep("lmdb", 200_000.0)], ceilings={"workloadc": 3_000_000.0})
    _write(tmp_path / "host-b", [_sweep("rocksdb", 100_000.0)], ceilings={"workloadc": 2_900_000.0})
    out = tmp_path / "merged"
    assert main(["report", str(tmp_path / "host-a"), str(tmp_path / "host-b"), "--out", str(out)]) == 0
    md = (out / "report.md").read_text()
    assert "| LMDB (lmdbjava) | workloadc | p99=2ms | 125,000 | 62% | 200,000 |" in md
    assert "| RocksDB | workloadc | p99=2ms | 62,500 | 62% | 100,000 |" in md
    assert "| workloadc capacity under p99=2ms | 62k | 125k |" in _glance(md)
    assert "workloadc 3,000,000/s and 2,900,000/s" in md
    assert f"Merged from the rate results of 2 results directories (`{tmp_path / 'host-a'}`" in md
    assert (out / "charts" / "rate-workloadc-1.svg").is_file()


def test_a_merge_refuses_one_sweep_in_two_parts_and_mixed_settings_unless_allowed(tmp_path: Path, capsys) -> None:
    from analysis.cli.main import main

    _write(tmp_path / "a", [_sweep("lmdb", 200_000.0)])
    _write(tmp_path / "b", [_sweep("lmdb", 210_000.0)])
    out = tmp_path / "merged"
    assert main(["report", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(out)]) == 2
    assert "rate sweep lmdb/workloadc is in both" in capsys.readouterr().err
    assert not out.exists()
    _write(tmp_path / "c", [_sweep("rocksdb", 100_000.0)], step_seconds=30)
    assert main(["report", str(tmp_path / "a"), str(tmp_path / "c"), "--out", str(out)]) == 2
    assert "rate settings differ: step_seconds is 5 in" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "a"), str(tmp_path / "c"), "--out", str(out), "--allow-mixed"]) == 0
    assert "although rate settings differ: step_seconds is 5 in" in (out / "report.md").read_text()


def test_merging_rate_records_keeps_every_sweep_and_stall_run() -> None:
    from analysis.report.report_rate import merge_rates

    a = {"threads": 1, "sweeps": [{"engine": "lmdb", "workload": "workloadc"}], "ceilings": {"workloadc": 3.0}}
    b = {"threads": 1, "stalls": [{"engine": "rocksdb", "workload": "kv1000"}], "stall_fraction": 0.5}
    assert merge_rates([]) is None and merge_rates([(Path("a"), a)]) is a
    merged = merge_rates([(Path("a"), a), (Path("b"), b)])
    assert merged is not None and merged["sweeps"] == a["sweeps"] and merged["stalls"] == b["stalls"]
    assert merged["ceilings"] == {"workloadc": [3.0]} and merged["stall_fraction"] == 0.5
    assert merged["merge_problems"] == [] and merged["merged_from"] == ["a", "b"]
    with pytest.raises(ValueError, match="rate stall run rocksdb/kv1000 is in both b and c"):
        merge_rates([(Path("a"), a), (Path("b"), b), (Path("c"), b)])


def _seconds(p99s: list[float]) -> list[Second]:
    return [Second(float(i + 1), 1.0, 0 if p == 0 else 1000, 50.0, p, p * 2) for i, p in enumerate(p99s)]


def test_stall_runs_get_a_sentence_a_row_and_a_timeline_per_engine(tmp_path: Path) -> None:
    from analysis.report.report import write_report

    (tmp_path / "suite.json").write_text(json.dumps({"mode": "quick", "repeat": 1, "engines": [], "scenarios": []}))
    (tmp_path / "machine.json").write_text(json.dumps({"cores": 2}))
    # RocksDB: a start-up second, then a 2 s stall (a second with nothing finished, then the backlog) and a 1 s one
    rocks = _seconds([90_000, 100, 120, 0, 400_000, 110, 30_000, 100, 90])
    flat = _seconds([90_000, 100, 120, 110, 900, 100])  # 900 us: above 10x the median, under the 1 ms floor
    runs = [
        StallRun("rocksdb", "kv1000", 1, 80_000.0, 40_000, 39_900.0, 0.5, rocks),
        StallRun("leveldb", "kv1000", 1, 60_000.0, 30_000, 30_000.0, 0.5, flat),
        StallRun("leveldb", "tinykeys", 1, error="flat out: no rate"),
    ]
    record = {"sweeps": [], "stall_fraction": 0.5, "stalls": [r.to_json() for r in runs]}
    (tmp_path / "rate").mkdir()
    (tmp_path / "rate" / "rate.json").write_text(json.dumps(record))
    md = write_report(tmp_path).markdown.read_text()
    assert "## Latency at a rate" in md and "### Stalls at a fixed rate" in md
    assert "Capacity under a latency bound" not in md  # no sweep: no capacity table
    assert (
        "RocksDB on kv1000 at 40,000 writes/s (50% of flat out): 3 of 9 seconds stalled, in 2 stall(s), the longest "
        "2 s; the worst second's p99 400,000 us against the median second's 110 us." in md
    )
    assert "LevelDB 1.13 (leveldbjni) on kv1000 at 30,000 writes/s (50% of flat out): no stalled second in 6." in md
    assert "| RocksDB | kv1000 | 40,000 (50%) | 39,900 | 9 | 110 us | 3 | 2 | 2 | at 4, 5, 7 s |" in md
    assert "| LevelDB 1.13 (leveldbjni) | tinykeys | — |" in md and "flat out: no rate" in md
    for engine, label in (("rocksdb", "RocksDB"), ("leveldb", "LevelDB 1.13 (leveldbjni)")):
        svg = (tmp_path / "charts" / f"rate-stalls-{engine}-1.svg").read_text()
        assert f"{label}, kv1000 at" in svg, svg[:2000]
    assert not (tmp_path / "charts" / "rate-stalls-leveldb-2.svg").exists()  # tinykeys failed: no timeline
    assert "Lines in each chart, second by second (▼: a stalled second): p50, p99, p99.9." in md
