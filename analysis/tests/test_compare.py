"""`python -m analysis compare` knows its noise and its counts: mixed counts refused as `report` refuses them,
changes within the measured spread not counted, busy steps named, a merged report's directory accepted,
one-sided figures in one line."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from analysis.report.compare import capacity_blocks, compare_runs, comparison_blocks, findings_blocks, verdict_agreement
from analysis.report.compare import main as compare_main
from analysis.report.render import to_markdown
from analysis.report.report import write_report
from analysis.report.report_rate import run_rate
from analysis.report.report_verdicts import judged_findings
from analysis.results.results import RunData

from .test_noise import figure
from .test_report import constructed_run
from .test_report_rate import _sweep
from .test_shard import fake_results


def run_of(tmp_path: Path, name: str, figures: list, cells: list[dict] | None = None, **suite) -> RunData:
    run = constructed_run(tmp_path / name)
    return replace(run, figures=figures, cells=cells or [], suite={**run.suite, **suite})


def markdown_of(a: RunData, b: RunData) -> str:
    return to_markdown(comparison_blocks(a, b, compare_runs(a, b)))


def test_mixed_counts_are_refused_unless_allowed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capped = fake_results(tmp_path / "capped", None, [("leveldb", "seqwrite")])
    whole = fake_results(tmp_path / "whole", None, [("leveldb", "seqwrite")])
    suite = json.loads((capped / "suite.json").read_text())
    (capped / "suite.json").write_text(json.dumps({**suite, "cap": 20000}))
    capsys.readouterr()
    assert compare_main([str(capped), str(whole)]) == 2
    err = capsys.readouterr().err
    assert "compare: counts differ: cap is 20000 in A but none in B" in err and "--allow-mixed" in err
    assert compare_main([str(capped), str(whole), "--allow-mixed"]) == 0
    out, err = capsys.readouterr()
    assert "**WARNING: compared although counts differ: cap is 20000 in A but none in B**" in out
    assert compare_main([str(whole), str(whole)]) == 0  # the same counts: compared as before


def test_a_change_within_the_measured_spread_is_not_counted(tmp_path: Path) -> None:
    probe = figure("leveldb", "randread", 98_000.0, 100_000.0, 104_000.0)  # A's read spread: 6 %
    a = run_of(
        tmp_path,
        "a",
        [probe, figure("kyoto", "randread", 50_000.0), figure("sqlite", "seqwrite", 10_000.0)],
        noise_cells=[{"engine": "leveldb", "scenario": "randread", "repeat": 3}],
    )
    b = run_of(
        tmp_path,
        "b",
        [
            figure("leveldb", "randread", 103_000.0),  # +3 %: inside 6 %
            figure("kyoto", "randread", 60_000.0),  # +20 %: outside
            figure("sqlite", "seqwrite", 10_400.0),  # +4 %, no spread measured for a load: under 5 %
        ],
    )
    markdown = markdown_of(a, b)
    assert "3 figures in both: B is faster on 1, slower on 0, within the noise on 2." in markdown
    assert "| LevelDB 1.13 (leveldbjni) | randread | 100,000 ops/sec | 103,000 ops/sec | 1.03x | 1.03x | within " in (
        markdown
    )
    assert "within the noise (±6.0 %) |" in markdown
    assert "for the 1 figure whose spread neither side measured, larger than 5 %, a threshold" in markdown
    # Each side says how many runs its figures are and what spread it measured.
    assert "A: one run per figure (but leveldb/randread, repeated to measure the noise); its run-to-run " in markdown
    assert "spread: read 6.0 %. B: one run per figure; no run-to-run spread measured." in markdown


def _busy_cell(engine: str, scenario: str, other: float) -> dict:
    step = {"measured": True, "variant": "", "resources": {"other_cpu_cores": other}}
    return {"engine": engine, "scenario": scenario, "status": "ok", "repeats": [[step]]}


def test_busy_steps_are_named(tmp_path: Path) -> None:
    figures = [figure("leveldb", "seqwrite", 100.0), figure("kyoto", "seqwrite", 100.0)]
    a = run_of(tmp_path, "a", figures, [_busy_cell("leveldb", "seqwrite", 0.1), _busy_cell("kyoto", "seqwrite", 0.1)])
    b = run_of(tmp_path, "b", figures, [_busy_cell("leveldb", "seqwrite", 0.9), _busy_cell("kyoto", "seqwrite", 0.1)])
    markdown = markdown_of(a, b)
    assert "core busy (the report's 'Busy machine'): LevelDB 1.13 (leveldbjni) seqwrite in B." in markdown
    assert "| 1.00x | 1.00x | busy machine in B |" in markdown
    assert markdown.count("busy machine in") == 1
    # A machine busy throughout is said once, not figure by figure.
    busy = [_busy_cell("leveldb", "seqwrite", 0.9), _busy_cell("kyoto", "seqwrite", 0.9)]
    everywhere = markdown_of(replace(a, cells=busy), replace(b, cells=busy))
    assert "core busy (the report's 'Busy machine'): all 2 figures, in both runs." in everywhere


def test_one_sided_figures_are_one_line_each_side(tmp_path: Path) -> None:
    a = run_of(tmp_path, "a", [figure("leveldb", "seqwrite", 100.0), figure("sqlite", "randread", 5.0)])
    b = run_of(
        tmp_path,
        "b",
        [
            figure("leveldb", "seqwrite", 100.0),
            figure("rocksdb", "seqwrite", 80.0),
            figure("rocksdb", "randwrite", 70.0),
            replace(figure("sqlite", "randread", 5.0), value=None, values=[], status="failed"),
        ],
    )
    markdown = markdown_of(a, b)
    assert "| — |" not in markdown and "| RocksDB |" not in markdown
    assert "Only in B (A has no figure: not run or failed), 2: RocksDB: seqwrite, randwrite." in markdown
    assert "Only in A (B has no figure: not run or failed), 1: SQLite3: randread." in markdown


def test_a_merged_report_s_directory_stands_for_its_parts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = fake_results(tmp_path / "s1", [1, 2], [("leveldb", "seqwrite")])
    second = fake_results(tmp_path / "s2", [2, 2], [("sqlite", "seqwrite")])
    merged = tmp_path / "merged"
    write_report([first, second], merged)
    capsys.readouterr()
    assert compare_main([str(merged), f"{first},{second}"]) == 0
    out = capsys.readouterr().out
    assert f"A = `{first}` + `{second}`" in out and "WARNING" not in out
    assert compare_main([str(tmp_path / "nothing"), str(merged)]) == 2
    assert "holds no suite results" in capsys.readouterr().err
    # A report merged before it named its parts says what to give instead.
    (merged / "merged.json").unlink()
    assert compare_main([str(merged), str(first)]) == 2
    assert "give the parts, comma-separated" in capsys.readouterr().err


def test_the_findings_verdicts_are_set_side_by_side_and_counted(tmp_path: Path) -> None:
    # A: LevelDB writes fastest (F2 reproduced), Kyoto reads fastest (F4 reproduced); B: Kyoto's writes win
    # (F2 not reproduced), the reads as in A. Every other finding lacks its figures on both sides.
    reads = [figure("kyoto", "randread", 300_000.0), figure("leveldb", "randread", 100_000.0)]
    reads.append(figure("sqlite", "randread", 50_000.0))
    a = run_of(
        tmp_path,
        "a",
        [figure("leveldb", "randwrite", 200_000.0), figure("kyoto", "randwrite", 50_000.0)]
        + [figure("sqlite", "randwrite", 20_000.0), *reads],
    )
    b = run_of(
        tmp_path,
        "b",
        [figure("leveldb", "randwrite", 50_000.0), figure("kyoto", "randwrite", 200_000.0)]
        + [figure("sqlite", "randwrite", 20_000.0), *reads],
    )
    text = to_markdown(findings_blocks(a, b))
    assert "are the same on 1 of the 2 findings judged on either side (50%)" in text, text
    assert "they differ on F2 (reproduced in A, not reproduced in B)" in text, text
    assert "| F4 | reproduced | reproduced | same |" in text, text
    assert "| F1 |" not in text  # judged on neither side: not a row
    rows, sentence = verdict_agreement(judged_findings(a).findings, judged_findings(a).findings)
    assert "the same on 2 of the 2" in sentence and "differ" not in sentence


def test_the_capacities_both_runs_measured_are_compared(tmp_path: Path) -> None:
    a, b = run_of(tmp_path, "a", []), run_of(tmp_path, "b", [])
    assert capacity_blocks(run_rate(a), run_rate(b)) == []  # neither has rate results
    for run, sweeps in (
        (a, [_sweep("lmdb", 200_000.0), _sweep("rocksdb", 100_000.0)]),
        (b, [_sweep("lmdb", 240_000.0)]),
    ):
        (run.directory / "rate").mkdir(parents=True)
        (run.directory / "rate" / "rate.json").write_text(json.dumps({"sweeps": [s.to_json() for s in sweeps]}))
    md = to_markdown(capacity_blocks(run_rate(a), run_rate(b)))
    assert "## Capacity under a latency bound" in md
    assert "| LMDB (lmdbjava) | workloadc | p99=2ms | 125,000 | 150,000 | 1.20x |" in md
    assert "RocksDB" not in md  # measured in A only


def test_a_side_of_several_directories_has_every_parts_capacities(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole = fake_results(tmp_path / "whole", None, [("lmdb", "seqwrite"), ("rocksdb", "seqwrite")])
    first = fake_results(tmp_path / "s1", [1, 2], [("lmdb", "seqwrite")])
    second = fake_results(tmp_path / "s2", [2, 2], [("rocksdb", "seqwrite")])
    for directory, sweeps in (
        (whole, [_sweep("lmdb", 200_000.0), _sweep("rocksdb", 100_000.0)]),
        (first, [_sweep("lmdb", 240_000.0)]),
        (second, [_sweep("rocksdb", 60_000.0)]),
    ):
        (directory / "rate").mkdir()
        (directory / "rate" / "rate.json").write_text(json.dumps({"sweeps": [s.to_json() for s in sweeps]}))
    capsys.readouterr()
    assert compare_main([str(whole), f"{first},{second}"]) == 0
    out = capsys.readouterr().out
    assert "| LMDB (lmdbjava) | workloadc | p99=2ms | 125,000 | 150,000 | 1.20x |" in out, out
    assert "| RocksDB | workloadc | p99=2ms | 62,500 | 37,500 | 0.60x |" in out, out  # from the second part
    (second / "rate" / "rate.json").write_text(json.dumps({"sweeps": [_sweep("lmdb", 1.0).to_json()]}))
    assert compare_main([str(whole), f"{first},{second}"]) == 2
    assert "rate sweep lmdb/workloadc is in both" in capsys.readouterr().err
