"""The report's "Latency at a rate" section, from a results directory that holds the rate command's record only:
a chart per workload (intended solid, service dashed, one colour per engine), the sweep's table with the steps
that did not hold their rate marked, and the capacity table with its neighbours and its share of flat out."""

from __future__ import annotations

import json
from pathlib import Path

from analysis.rate import RateStep, StallRun, Sweep, capacity, parse_sla
from analysis.scale import Second


def _step(kind: str, asked: float | None, achieved: float, p99: float, fraction: float | None = None) -> RateStep:
    intended = {"READ": {"p50": 5.0, "p99": p99, "p99.9": p99 * 2, "max": p99 * 4}}
    service = {"READ": {"p50": 4.0, "p99": 50.0, "p99.9": 90.0, "max": p99 * 4}}
    return RateStep(kind, asked, achieved, intended, service, fraction)


def _sweep(engine: str, flat: float) -> Sweep:
    steps = [_step("flat", None, flat, 900.0)]
    for f, p99 in ((0.25, 60.0), (0.5, 80.0), (0.75, 5000.0)):
        steps.append(_step("sweep", flat * f, flat * f, p99, f))
    steps.append(_step("sweep", flat * 1.1, flat * 0.97, 90_000.0, 1.1))  # could not hold its rate
    steps.append(_step("search", flat * 0.625, flat * 0.625, 300.0, 0.625))
    steps[1].other_cores = 1.2  # the 25 % step ran beside a busy neighbour
    sla = parse_sla("p99=2ms")
    return Sweep(engine, "workloadc", 1, steps, [capacity(steps, sla)], ceiling=3_000_000.0)


def test_a_results_directory_with_rate_results_gets_the_section(tmp_path: Path) -> None:
    from analysis.report import holds_results, write_report

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
    svg = (tmp_path / "charts" / "rate-workloadc.svg").read_text()
    for label in ("LMDB (lmdbjava) intended", "LMDB (lmdbjava) service", "RocksDB intended", "p99.9 latency"):
        assert label in svg, label
    assert "Latency at a rate" in paths.html.read_text()


def test_a_directory_without_rate_results_has_no_section(tmp_path: Path) -> None:
    from analysis.report_rate import rate_blocks

    assert rate_blocks(tmp_path, tmp_path) == []


def _seconds(p99s: list[float]) -> list[Second]:
    return [Second(float(i + 1), 1.0, 0 if p == 0 else 1000, 50.0, p, p * 2) for i, p in enumerate(p99s)]


def test_stall_runs_get_a_sentence_a_row_and_a_timeline_per_engine(tmp_path: Path) -> None:
    from analysis.report import write_report

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
    for engine in ("rocksdb", "leveldb"):
        svg = (tmp_path / "charts" / f"rate-stalls-{engine}.svg").read_text()
        assert "kv1000 at" in svg and "p99" in svg
