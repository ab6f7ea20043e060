"""`run --shard I/N` splits the matrix into disjoint parts; `report DIR... --out` merges them into the
report one run of the whole matrix gives (real runs of two engines at tiny counts)."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest

from analysis.catalogue.scenarios import select_scenarios
from analysis.report.compare import main as compare_main
from analysis.report.report import main as report_main
from analysis.results.merge import missing_parts
from analysis.running.suite import main as run_main
from analysis.running.suite import matrix_cells, shard_cells

MATRIX = ["--engines", "leveldb", "sqlite", "--scenarios", "seqwrite", "randwrite", "--cap", "300", "--no-report"]
# What a run measures differs run to run; what it ran, with which counts and outcome, does not.
TIDY_KEYS = ("engine", "scenario", "variant", "repeat", "step", "phase", "operation", "count", "ok", "errors")


def test_shards_are_disjoint_and_cover_the_matrix() -> None:
    cells = matrix_cells(["leveldb", "rocksdb", "sqlite", "kyoto"], select_scenarios(["2011", "ycsb"]))
    parts = [shard_cells(cells, (i, 3)) for i in (1, 2, 3)]
    assert sum(len(p) for p in parts) == len(cells)
    assert sorted((e, s.id) for p in parts for e, s in p) == sorted((e, s.id) for e, s in cells)
    assert all(abs(len(p) - len(cells) / 3) < 1 for p in parts), [len(p) for p in parts]


def test_missing_parts_are_named() -> None:
    assert missing_parts([{"shard": [1, 2]}]) == ["part 2/2"]
    assert missing_parts([{"shard": [2, 3]}, {"shard": None}]) == ["part 1/3", "part 3/3"]
    assert missing_parts([{"shard": [1, 2]}, {"shard": [2, 2]}]) == []
    assert missing_parts([{"shard": None}, {}]) == []


def tidy_keys(directory: Path) -> list[tuple[str, ...]]:
    with (directory / "tidy.csv").open() as f:
        return sorted(tuple(row[k] for k in TIDY_KEYS) for row in csv.DictReader(f))


def report_shape(markdown: str, *paths: Path) -> list[str]:
    """The report without what differs between two runs of one matrix: the measured numbers, when and
    where it ran, the findings decided from the numbers (the Findings section, and the summary's
    lines that say which engine is ahead: at these tiny counts the order flips run to run), the body
    of the Busy machine section (which steps ran beside other processes), the sections only a merged
    report has."""
    body = markdown[: markdown.index("## Findings")] + markdown[markdown.index("## Failed cells") :]
    body = body[: min(body.index(h) for h in ("## Where each cell ran", "## How this was run") if h in body)]
    lines = []
    busy = False  # the Busy machine section: which steps other processes slowed is this machine's, run to run
    for line in body.splitlines():
        if line.startswith("## "):
            busy = line == "## Busy machine"
        elif busy:
            continue
        if (
            line.startswith(("Run `", "Merged from", "| Host ", "| Disk flush", "| Data directory"))
            or line.startswith("- [Where each cell ran]")  # the contents line of a section only a merge has
            or " ahead of " in line
            or any(str(p) in line for p in paths)
        ):
            continue
        lines.append(re.sub(r"[\d.,]+", "#", line))
    return lines


def test_shards_merged_give_the_report_of_one_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole, first, second, merged = (tmp_path / n for n in ("whole", "s1", "s2", "merged"))
    assert run_main([*MATRIX, "--out", str(whole)]) == 0
    assert run_main([*MATRIX, "--out", str(first), "--shard", "1/2"]) == 0
    assert run_main([*MATRIX, "--out", str(second), "--shard", "2/2"]) == 0
    cells = {
        d: {(c["engine"], c["scenario"]) for c in json.loads((d / "suite.json").read_text())["cells"]}
        for d in (whole, first, second)
    }
    assert cells[first] and cells[second] and not cells[first] & cells[second]
    assert cells[first] | cells[second] == cells[whole]

    assert report_main([str(whole)]) == 0
    assert report_main([str(first), str(second), "--out", str(merged)]) == 0
    assert tidy_keys(merged) == tidy_keys(whole)
    one, both = (d.joinpath("report.md").read_text() for d in (whole, merged))
    assert report_shape(both, first, second, merged) == report_shape(one, whole)
    where = both[both.index("## Where each cell ran") :]
    assert f"`{first}`" in where and f"`{second}`" in where
    assert "Merged from 2 results directories (s1, s2)" in both

    # compare merges a side's shards the same way: every figure of the whole run has its counterpart.
    capsys.readouterr()
    assert compare_main([str(whole), f"{first},{second}"]) == 0
    compared = capsys.readouterr().out
    assert "4 figures in both" in compared and f"`{first}` + `{second}`" in compared, compared

    # Runs that measured with other counts, or the same cell twice, are not one report.
    suite = json.loads((second / "suite.json").read_text())
    (second / "suite.json").write_text(json.dumps({**suite, "cap": 500}))
    capsys.readouterr()
    assert report_main([str(first), str(second), "--out", str(merged)]) == 2
    assert "counts differ: cap is 300" in capsys.readouterr().err
    assert report_main([str(first), str(second), "--out", str(merged), "--allow-mixed"]) == 0
    assert "merged although counts differ" in (merged / "report.md").read_text()
    assert report_main([str(first), str(whole), "--out", str(merged)]) == 2
    assert "is in both" in capsys.readouterr().err

    # One part alone is refused unless --partial, and then says at the top and on stderr what is missing.
    alone = tmp_path / "alone"
    assert report_main([str(first), "--out", str(alone)]) == 2
    assert "part 2/2 of the sharded matrix missing" in capsys.readouterr().err
    assert not (alone / "report.md").exists()
    assert report_main([str(first), "--out", str(alone), "--partial"]) == 0
    assert "WARNING: INCOMPLETE: part 2/2 of the sharded matrix is missing" in capsys.readouterr().err
    head = (alone / "report.md").read_text().split("\n## ", 1)[0]
    assert "**INCOMPLETE: part 2/2 of the sharded matrix is missing from these results" in head, head
    assert "INCOMPLETE" not in (merged / "report.md").read_text()


def fake_results(directory: Path, shard: list[int] | None, cells: list[tuple[str, str]]) -> Path:
    """A results directory holding these cells (not run: no figures) and the suite.json of a run --shard."""
    for engine, scenario in cells:
        cell = directory / engine / scenario
        cell.mkdir(parents=True)
        (cell / "cell.json").write_text(
            json.dumps({"engine": engine, "scenario": scenario, "status": "failed", "repeats": []})
        )
    (directory / "suite.json").write_text(json.dumps({"mode": "quick", "repeat": 1, "shard": shard}))
    (directory / "machine.json").write_text("{}")
    return directory


def test_compare_warns_of_a_lone_shard(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole = fake_results(tmp_path / "whole", None, [("leveldb", "seqwrite"), ("sqlite", "seqwrite")])
    first = fake_results(tmp_path / "s1", [1, 2], [("leveldb", "seqwrite")])
    second = fake_results(tmp_path / "s2", [2, 2], [("sqlite", "seqwrite")])
    capsys.readouterr()
    assert compare_main([str(whole), str(first)]) == 0
    out, err = capsys.readouterr()
    warning = "B holds only some parts of a sharded matrix: part 2/2 is missing"
    assert f"compare: WARNING: {warning}" in err, err
    assert f"**WARNING: {warning}" in out.split("A = ", 1)[0], out  # at the top, before the table
    assert "A holds" not in err
    # Both parts given: nothing is missing, nothing to warn of.
    assert compare_main([str(whole), f"{first},{second}"]) == 0
    out, err = capsys.readouterr()
    assert "WARNING" not in err and "WARNING" not in out


def test_a_refused_merge_leaves_no_out_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = fake_results(tmp_path / "a", None, [("leveldb", "seqwrite")])
    second = fake_results(tmp_path / "b", None, [("sqlite", "seqwrite")])
    suite = json.loads((second / "suite.json").read_text())
    (second / "suite.json").write_text(json.dumps({**suite, "cap": 500}))
    merged = tmp_path / "merged"
    assert report_main([str(first), str(second), "--out", str(merged)]) == 2
    assert "counts differ" in capsys.readouterr().err
    assert not merged.exists()
    # The same cell twice, and one part of a sharded matrix alone: refused, nothing created either.
    assert report_main([str(first), str(first), "--out", str(merged)]) == 2
    part = fake_results(tmp_path / "p", [1, 2], [("leveldb", "randwrite")])
    assert report_main([str(part), "--out", str(merged)]) == 2
    assert "part 2/2 of the sharded matrix missing" in capsys.readouterr().err
    assert not merged.exists()
