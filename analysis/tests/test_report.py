"""Report tables, the whole report and the comparison, on constructed figures."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from analysis.catalogue.scenarios import SCENARIOS_BY_ID
from analysis.report.compare import compare_figures, comparison_blocks
from analysis.report.formatting import format_number, format_ratio
from analysis.report.reference import load_published
from analysis.report.render import Table, to_html, to_markdown
from analysis.report.report import build_report, drawn_keys_note
from analysis.report.report_tables import REPORT_TABLES
from analysis.report.report_verdicts import QUICK_SCOPE
from analysis.report.tables import build_table
from analysis.results.results import CloseStats, Figure, RunData
from analysis.results.steady import CLIMBING, TOO_SHORT
from analysis.results.tidy import TIDY_COLUMNS

TABLES = {t.id: t for t in REPORT_TABLES}


def figure(engine: str, scenario: str, value: float | None, variant: str = "", status: str = "ok") -> Figure:
    s = SCENARIOS_BY_ID[scenario]
    return Figure(
        engine,
        scenario,
        variant,
        s.section,
        s.metric,
        s.unit,
        value=value,
        repeats=1 if value is not None else 0,
        values=[value] if value is not None else [],
        status=status if value is not None or status != "ok" else "not run",
    )


BASELINE_AND_BATCH = [
    figure("leveldb", "seqwrite", 500_000.0),
    figure("leveldb", "randwrite", 200_000.0),
    figure("leveldb", "batch-seqwrite", 600_000.0),
    figure("leveldb", "batch-randwrite", 250_000.0),
    figure("kyoto", "seqwrite", 300_000.0),
    figure("kyoto", "randwrite", 100_000.0),
    figure("kyoto", "batch-seqwrite", 450_000.0),
    figure("kyoto", "batch-randwrite", None, status="failed"),
    figure("sqlite", "seqwrite", 40_000.0),
    figure("sqlite", "randwrite", 9_000.0),
    figure("leveldb", "randread", 150_000.0),
    figure("kyoto", "randread", 90_000.0),
    figure("sqlite", "randread", 60_000.0),
]


def by_key(figures: list[Figure]) -> dict:
    return {(f.engine, f.scenario, f.variant): f for f in figures}


def rows_of(table: Table) -> dict[str, list[str]]:
    return {row[0]: row[1:] for row in table.rows}


def test_formatting_like_the_published_page():
    assert format_number(779_000) == "779,000"
    assert format_number(4_031_234) == "4,030,000"
    assert format_number(88.4) == "88"
    assert format_number(7.34) == "7.3"
    assert format_ratio(1.354) == "1.35x"
    assert format_ratio(0.0031) == "0.0031x"


def test_baseline_table_puts_published_beside_today():
    built = build_table(TABLES["1-writes"], by_key(BASELINE_AND_BATCH), load_published())
    assert built.table.headers == [
        "Engine",
        "Sequential: today, this host",
        "Sequential: 2011, X5650, ext3",
        "Random: today, this host",
        "Random: 2011, X5650, ext3",
    ]
    rows = rows_of(built.table)
    assert list(rows) == ["LevelDB 1.13 (leveldbjni)", "Kyoto TreeDB", "SQLite3"]  # the 2011 page's order
    assert rows["LevelDB 1.13 (leveldbjni)"] == [
        "500,000 ops/sec",
        "779,000 ops/sec",
        "200,000 ops/sec",
        "164,000 ops/sec",
    ]
    assert [p.title for p in built.panels] == ["Sequential", "Random"]
    assert built.panels[0].series[0].values == [500_000.0, 300_000.0, 40_000.0]


def test_batch_table_gives_every_value_its_baseline_ratio():
    built = build_table(TABLES["2B"], by_key(BASELINE_AND_BATCH), load_published())
    rows = rows_of(built.table)
    assert rows["LevelDB 1.13 (leveldbjni)"][0] == "600,000 entries/sec (1.20x baseline)"
    assert rows["LevelDB 1.13 (leveldbjni)"][1] == "840,000 entries/sec (1.08x baseline)"
    assert rows["Kyoto TreeDB"][0] == "450,000 entries/sec (1.50x baseline)"
    assert rows["Kyoto TreeDB"][1] == "—"  # the 2011 page had no TreeDB batch row
    assert rows["Kyoto TreeDB"][2] == "failed"
    assert rows["SQLite3"][0] == "not run"
    assert rows["SQLite3"][1] == "124,000 entries/sec (2.55x baseline)"
    assert any("through transactions" in note for note in built.notes)


def test_a_table_whose_scenarios_did_not_run_is_left_out():
    assert build_table(TABLES["2C"], by_key(BASELINE_AND_BATCH), load_published()) is None


def test_variant_table_for_sqlite_notes():
    figures = [
        figure("sqlite", "pk-update", v, variant)
        for variant, v in (
            ("one-row-per-txn", 500.0),
            ("1000-rows-per-txn", 40_000.0),
            ("10000-rows-per-txn", 45_000.0),
        )
    ]
    built = build_table(TABLES["pk-update"], by_key(figures), load_published())
    assert built.table.headers == [
        "Test",
        "SQLite3: today, this host",
        "SQLite3: published, SQLite 3.8.11, 8 cores, SSD",
    ]
    rows = rows_of(built.table)
    assert rows["1 row per transaction"] == ["500 ops/sec", "59 rows/sec"]
    assert rows["1,000 rows per transaction"] == ["40,000 ops/sec (80.00x baseline)", "598 rows/sec (10.14x baseline)"]


def constructed_run(tmp_path: Path) -> RunData:
    cells: list[dict] = [
        {
            "engine": f.engine,
            "scenario": f.scenario,
            "status": f.status if f.status != "not run" else "ok",
            "error": "INSERT: 3 ERROR" if f.status == "failed" else None,
            "repeats": [],
        }
        for f in BASELINE_AND_BATCH
    ]
    machine = {
        "cpu": "Test CPU 3000",
        "cores": 2,
        "memory_bytes": 8 * 2**30,
        "kernel": "Linux 6.1",
        "os": "Debian",
        "filesystem": "ext4",
        "device": "/dev/vda",
        "disk": "vda",
        "fsync_per_sec": 500.0,
        "jdk": "openjdk 17",
        "data_dir": "/data",
    }
    suite = {"mode": "quick", "repeat": 1, "command": ["python", "-m", "analysis", "run", "--quick"]}
    return RunData(
        tmp_path,
        suite,
        machine,
        cells,
        pd.DataFrame(columns=TIDY_COLUMNS),
        BASELINE_AND_BATCH,
        {"leveldb": "LevelDB 1.13 (leveldbjni) 1.13 (test)", "kyoto": "Kyoto Cabinet 1.2.79 (test)"},
    )


def test_report_reads_like_the_2011_page(tmp_path):
    blocks = build_report(constructed_run(tmp_path), tmp_path)
    markdown = to_markdown(blocks)
    order = [
        "## This machine",
        "Test CPU 3000 (2 cores)",
        "LevelDB 1.13 (leveldbjni) 1.13 (test)",
        "## 1. Baseline Performance",
        "### Baseline: Writes",
        "### Baseline: Reads",
        "## 2. Write Performance under Different Configurations",
        "### B. Batch Writes",
        "## Findings",
        "## Failed cells",
        "## How this was run",
    ]
    positions = [markdown.index(text) for text in order]
    assert positions == sorted(positions)
    assert "600,000 entries/sec (1.20x baseline)" in markdown
    assert "![B. Batch Writes](charts/2B.svg)" in markdown
    # Findings decided from these numbers: one reproduced, one not, the rest not measured.
    assert "| F1 | LevelDB has the fastest sequential writes (leveldb-benchmarks-2011) | **reproduced** |" in markdown
    assert (
        "| F4 | Kyoto TreeDB has the fastest random reads (leveldb-benchmarks-2011) | **not reproduced** |" in markdown
    )
    assert "| F10 |" in markdown and "missing: bigread-randread on Kyoto TreeDB" in markdown
    assert "| Kyoto TreeDB | batch-randwrite | INSERT: 3 ERROR |" in markdown
    for chart in ("1-writes", "1-reads", "2B"):
        assert (tmp_path / "charts" / f"{chart}.svg").read_text().lstrip().startswith("<?xml")
        assert not (tmp_path / "charts" / f"{chart}.png").exists()
    page = to_html(blocks, "test", tmp_path)
    # The charts are in the page, their text as text: the published figure's label is findable.
    assert '<img src="charts/2B.svg"' not in page
    assert '<svg class="chart" role="img" aria-label="B. Batch Writes"' in page
    assert ">600,000</text>" in page and "<strong>reproduced</strong>" in page
    assert page.count("<table") == markdown.count("\n|---")


def test_a_run_without_the_findings_scenarios_has_no_findings_section(tmp_path):
    # A run of the scale group alone listed all 15 published findings as "not measured".
    run = constructed_run(tmp_path)
    scale_only = RunData(tmp_path, run.suite, run.machine, [], run.tidy, [], {})
    markdown = to_markdown(build_report(scale_only, tmp_path))
    assert "## Findings" not in markdown and "| F1 |" not in markdown
    line = "**Published findings**: none judged: this run had none of the scenarios they are checked on."
    assert markdown.count(line) == 1
    # One figure of a finding's scenario brings the section back, with the findings it cannot judge.
    one = RunData(tmp_path, run.suite, run.machine, [], run.tidy, [figure("leveldb", "seqwrite", 1000.0)], {})
    markdown = to_markdown(build_report(one, tmp_path))
    assert "## Findings" in markdown and "| F10 |" in markdown and line not in markdown


def test_a_quick_runs_findings_say_their_verdicts_are_provisional(tmp_path):
    # A quick run once called F4 reproduced (Kyoto's reads at 100,000 records) where the full run's 1,000,000
    # did not: its section must say the counts are scaled down and how to set a full run's verdicts beside it.
    quick = constructed_run(tmp_path)
    markdown = to_markdown(build_report(quick, tmp_path))
    assert QUICK_SCOPE.strip() in markdown and "compare THIS FULL" in markdown
    full = RunData(tmp_path, quick.suite | {"mode": "full"}, quick.machine, quick.cells, quick.tidy, quick.figures, {})
    assert QUICK_SCOPE.strip() not in to_markdown(build_report(full, tmp_path))


def test_compare_gives_ratios_and_inverts_times():
    a = [
        figure("leveldb", "seqwrite", 100_000.0),
        figure("sqlite", "fastdb-delete", 1000.0, "delete-one-by-one"),
        figure("kyoto", "seqwrite", 50_000.0),
    ]
    b = [
        figure("leveldb", "seqwrite", 150_000.0),
        figure("sqlite", "fastdb-delete", 500.0, "delete-one-by-one"),
        figure("rocksdb", "seqwrite", 90_000.0),
    ]
    comparisons = {(c.engine, c.scenario): c for c in compare_figures(a, b)}
    assert comparisons[("leveldb", "seqwrite")].ratio == pytest.approx(1.5)
    assert comparisons[("sqlite", "fastdb-delete")].ratio == pytest.approx(0.5)
    assert comparisons[("sqlite", "fastdb-delete")].speedup == pytest.approx(2.0)  # half the time: twice as fast
    assert comparisons[("kyoto", "seqwrite")].b is None and comparisons[("kyoto", "seqwrite")].ratio is None
    assert comparisons[("rocksdb", "seqwrite")].a is None


def test_compare_report_names_both_runs(tmp_path):
    run_a, run_b = constructed_run(tmp_path / "a"), constructed_run(tmp_path / "b")
    markdown = to_markdown(comparison_blocks(run_a, run_b, compare_figures(run_a.figures, run_b.figures)))
    assert "A = `" in markdown and "B = `" in markdown
    assert "| LevelDB 1.13 (leveldbjni) | seqwrite | 500,000 ops/sec | 500,000 ops/sec | 1.00x | 1.00x |" in markdown


def test_rocksdb_table_puts_stalls_and_level_shape_beside_the_throughput():
    mb = 2**20
    rocksdb = figure("rocksdb", "kv1000", 7_000.0)
    rocksdb.mb_per_sec = 7.06
    rocksdb.close = CloseStats(
        stall_stops=45,
        stall_slowdowns=0,
        stall_seconds=6.795194,
        flush_bytes=113_764_088,
        compaction_write_bytes=247_077_836,
        files_per_level=[4, 17, 39, 0, 0, 0, 0],
        l1_bytes=17 * 2 * mb,
        l1_target_bytes=10 * mb,
        l1_estimated=True,
    )
    leveldb = figure("leveldb", "kv1000", 14_000.0)
    leveldb.close = CloseStats(
        compaction_write_bytes=146 * mb,
        files_per_level=[9, 8, 12, 0, 0, 0, 0],
        l1_bytes=16 * mb,
        l1_target_bytes=10 * mb,
    )
    quiet = figure("rocksdb", "tinykeys", 140_000.0)
    quiet.close = CloseStats(
        stall_stops=0,
        stall_slowdowns=0,
        stall_seconds=0.0,
        flush_bytes=1_503_055,
        compaction_write_bytes=0,
        files_per_level=[2, 0, 0, 0, 0, 0, 0],
        l1_bytes=0,
        l1_target_bytes=10 * mb,
        l1_estimated=True,
    )
    figures = [rocksdb, leveldb, quiet, figure("leveldb", "tinykeys", 250_000.0)]  # LevelDB's: no statistics
    built = build_table(TABLES["rocksdb"], by_key(figures), load_published())
    table = built.table
    assert table.headers == [
        "Test",
        "Engine",
        "today, this host",
        "write stalls",
        "level shape at close",
        "background writes",
        "published, LevelDB 1.18 / RocksDB 3.10",
        "published notes",
    ]
    rows = {(row[0], row[1]): row[2:] for row in table.rows}
    assert list(rows) == [
        ("8-byte keys, empty values", "LevelDB 1.13 (leveldbjni)"),
        ("8-byte keys, empty values", "RocksDB"),
        ("8-byte keys, 1,000-byte values", "LevelDB 1.13 (leveldbjni)"),
        ("8-byte keys, 1,000-byte values", "RocksDB"),
    ]
    assert rows[("8-byte keys, 1,000-byte values", "RocksDB")][1:] == [
        "45 stops, 0 slowdowns, 6.8 s stalled",
        "L0 4 · L1 17 · L2 39; L1 ~34 MB vs 10 MB target (3.40x)",
        "flush 108 MB + compaction 236 MB",
        "7,250 ops/sec, 7.42 MB/s",
        "flush+compaction share one thread; L1 grew far past its target ([6 359 148 0 0 0 0])",
    ]
    assert rows[("8-byte keys, 1,000-byte values", "RocksDB")][0].startswith("7,000 ops/sec, 7.06 MB/s")
    assert rows[("8-byte keys, 1,000-byte values", "LevelDB 1.13 (leveldbjni)")][1:4] == [
        "— (no stall counter)",
        "L0 9 · L1 8 · L2 12; L1 16 MB vs 10 MB target (1.60x)",
        "146 MB, flushes included",
    ]
    assert (
        rows[("8-byte keys, 1,000-byte values", "LevelDB 1.13 (leveldbjni)")][-1] == "—"
    )  # the published row has no note
    assert rows[("8-byte keys, empty values", "RocksDB")][1:3] == ["none", "L0 2; L1 empty (10 MB target)"]
    assert rows[("8-byte keys, empty values", "LevelDB 1.13 (leveldbjni)")][1:4] == ["—", "—", "—"]
    assert rows[("8-byte keys, empty values", "LevelDB 1.13 (leveldbjni)")][-1] == "no stall"
    # The level shape and the notes are text: left-aligned, free to wrap.
    assert to_markdown([table]).splitlines()[1] == "|---|---|---:|---:|---|---:|---:|---|"
    assert (
        '<td data-label="level shape at close">L0 4 · L1 17 · L2 39; L1 ~34 MB vs 10 MB target (3.40x)</td>'
        in to_html([table], "t")
    )
    assert any("leveldb.stats" in note for note in built.notes)
    assert [p.title for p in built.panels] == ["8-byte keys, empty values", "8-byte keys, 1,000-byte values"]


def test_the_ycsb_table_states_the_record_shape_the_run_used(tmp_path):
    """A run with fieldcount=1 (its own workload files) is not the published 10 fields of 100 bytes: the report
    reads the shape from what the run recorded, not from the published note."""
    import shutil

    from analysis.running.suite import main as run_main

    from .conftest import REPO

    workloads = tmp_path / "workloads"
    shutil.copytree(REPO / "workloads", workloads)
    text = (workloads / "workloada").read_text()
    assert "fieldcount=10\n" in text
    (workloads / "workloada").write_text(text.replace("fieldcount=10\n", "fieldcount=1\n"))
    out = tmp_path / "out"
    args = ["--engines", "leveldb", "--scenarios", "workloada", "--cap", "200", "--workloads", str(workloads)]
    assert run_main([*args, "--out", str(out)]) == 0
    ycsb = (out / "report.md").read_text().split("### Throughput of the standard mixes", 1)[1]
    assert "This run's records: **1 field of 100 bytes**, not the published 10 fields of 100 bytes." in ycsb


def test_the_report_opens_with_a_heat_map_then_the_summary_then_contents(tmp_path):
    from analysis.report.render import Contents, Heading, HeatMap

    run = constructed_run(tmp_path)
    blocks = build_report(run, tmp_path)
    headings = [b.text for b in blocks if isinstance(b, Heading) and b.level == 2]
    assert headings[:3] == ["At a glance", "Summary", "This machine"]
    heat = next(b for b in blocks if isinstance(b, HeatMap))
    assert blocks.index(heat) < blocks.index(Heading(2, "Summary")) < blocks.index(Contents())
    assert heat.columns == ["LevelDB 1.13 (leveldbjni)", "Kyoto TreeDB", "SQLite3"]
    rows = dict(heat.rows)
    # Each figure over the best of its test; a failed cell has none.
    assert rows["seqwrite"] == [1.0, 0.6, 0.08]
    assert rows["randread"] == [1.0, 0.6, 0.4]
    assert rows["batch-randwrite"] == [1.0, None, None]
    markdown = to_markdown(blocks)
    assert "| seqwrite | 1.00 | 0.60 | 0.08 |" in markdown
    assert "- [1. Baseline Performance](#1-baseline-performance)" in markdown
    page = to_html(blocks, "test", tmp_path)
    assert '<h2 id="1-baseline-performance">' in page and '<a href="#findings">Findings</a>' in page
    assert '<td class="num" style="background: #a6dba0">1.00</td>' in page


def test_tests_of_one_engine_are_listed_below_the_heat_map_not_in_it(tmp_path):
    from analysis.report.render import Heading, HeatMap
    from analysis.report.report_summary import glance_blocks

    run = constructed_run(tmp_path)
    run.figures = BASELINE_AND_BATCH + [
        figure("sqlite", "pk-update", 500.0, "one-row-per-txn"),
        figure("sqlite", "pk-update", 40_000.0, "1000-rows-per-txn"),
        figure("sqlite", "pk-update", None, "10000-rows-per-txn", status="failed"),
        figure("leveldb", "tinykeys", 700_000.0),
    ]
    steadiness = {("sqlite", "pk-update", "one-row-per-txn"): TOO_SHORT, ("kyoto", "randread", ""): CLIMBING}
    blocks = glance_blocks(run, steadiness=steadiness)
    heat = next(b for b in blocks if isinstance(b, HeatMap))
    # The map compares engines: only tests with two or more engines are its rows (a failed one still counts).
    assert [label for label, _ in heat.rows] == [
        "seqwrite",
        "randwrite",
        "randread",
        "batch-seqwrite",
        "batch-randwrite",
    ]
    assert heat.columns == ["LevelDB 1.13 (leveldbjni)", "Kyoto TreeDB", "SQLite3"]
    assert heat.short_columns == ["LevelDB 1.13", "Kyoto TreeDB", "SQLite3"]
    assert blocks.index(heat) < blocks.index(Heading(3, "Tests of one engine"))
    markdown = to_markdown(blocks)
    alone = markdown[markdown.index("### Tests of one engine") :]
    assert "| Test | Engine | Figure | Section |" in alone
    assert "| pk-update one-row-per-txn | SQLite3 | 500 ops/sec ◦ | 5. SQLite Performance Notes |" in alone
    assert "| pk-update 1000-rows-per-txn | SQLite3 | 40,000 ops/sec | 5. SQLite Performance Notes |" in alone
    assert "| tinykeys | LevelDB 1.13 (leveldbjni) | 700,000 ops/sec | 4. LevelDB vs RocksDB Writes |" in alone
    assert "10000-rows-per-txn" not in markdown  # no figure: in neither
    # The steady-state marks of both, one legend.
    assert "| randread | 1.00 | 0.60 ↗ | 0.40 |" in markdown
    legend = markdown[: markdown.index("| Test |")]
    assert "↗: the rate still climbed" in legend and "◦: the step lasted fewer than" in legend
    # A run of one engine has nothing to compare: its map keeps every test, as before.
    one = replace(run, figures=[f for f in run.figures if f.engine == "leveldb"])
    [single] = [b for b in glance_blocks(one) if isinstance(b, HeatMap)]
    assert [label for label, _ in single.rows][-1] == "tinykeys"
    assert "Tests of one engine" not in to_markdown(glance_blocks(one))


def test_an_elapsed_time_test_scores_the_shortest_best():
    from analysis.report.report_summary import scores

    figures = [
        figure("sqlite", "fastdb-delete", 200.0, variant="delete-one-by-one"),
        figure("fastdb", "fastdb-delete", 50.0, variant="delete-one-by-one"),
    ]
    assert scores(figures) == {"fastdb": 1.0, "sqlite": 0.25}


def test_heat_shades_and_numbers():
    from analysis.report.render import format_score, heat_colour

    assert [format_score(s) for s in (1.0, 0.5, 0.0312, None)] == ["1.00", "0.50", "0.031", "—"]
    # green at the best, yellow at a tenth, orange at a hundredth and below
    assert [heat_colour(s) for s in (1.0, 0.1, 0.01, 0.0001)] == ["#a6dba0", "#fee08b", "#f4a582", "#f4a582"]


def test_the_page_holds_its_svg_charts_with_ids_of_their_own(tmp_path):
    from analysis.report.charts import Panel, Series, bar_chart
    from analysis.report.render import Image

    panels = [Panel("p", ["a", "b"], [Series("today", [1.0, None]), Series("2011", [2.0, 3.0], published=True)])]
    svg = bar_chart("A chart", "ops/sec", panels, tmp_path / "charts" / "one.png")
    assert svg == tmp_path / "charts" / "one.svg" and not (tmp_path / "charts" / "one.png").exists()
    # Two charts in one page (one named by the PNG it once was): every id and reference made unique.
    page = to_html([Image("charts/one.svg", "first"), Image("charts/one.png", "second")], "t", tmp_path)
    assert page.count('<svg class="chart"') == 2 and "<img" not in page and "<metadata>" not in page
    ids = re.findall(r' id="([^"]+)"', page)
    assert len(ids) == len(set(ids)) and all(i.startswith(("c0-", "c1-")) for i in ids)
    assert "url(#c0-" in page and "url(#c1-" in page and '<style type="text/css">svg.chart *{' in page
    assert ">no figure</text>" in page


def test_tables_of_drawn_fills_say_so_with_the_share_of_reads_found(tmp_path):
    run = constructed_run(tmp_path)
    read = {c: None for c in TIDY_COLUMNS} | {"scenario": "randread", "measured": True, "operation": "READ"}
    run.tidy = pd.DataFrame(
        [
            read | {"engine": "leveldb", "ok": 632, "not_found": 368},
            read | {"engine": "kyoto", "ok": 630, "not_found": 370},
            read | {"engine": "sqlite", "scenario": "randwrite", "measured": False, "ok": 1000, "not_found": 0},
        ],
        columns=TIDY_COLUMNS,
    )
    said = "Keys drawn with replacement as db_bench does: about 63 % distinct"
    assert drawn_keys_note(run, TABLES["1-reads"]) == f"{said}; 63.1 % of reads found."
    assert drawn_keys_note(run, TABLES["1-writes"]) == f"{said}."  # no reads measured
    assert drawn_keys_note(run, TABLES["rocksdb"]) == f"{said}."  # RocksDB's db_bench fillrandom draws alike
    assert drawn_keys_note(run, TABLES["ycsb"]) is None  # YCSB's own workloads keep the permutation
    markdown = to_markdown(build_report(run, tmp_path))
    reads = markdown.index("### Baseline: Reads")
    assert markdown.index(f"{said}; 63.1 % of reads found.", reads) < markdown.index("\n|", reads)


def timed(f: Figure, inside: float, opened: float = 0.012, closed: float = 0.345) -> Figure:
    """The figure with its in-operation one, as the timing layer's file gives it, and its open and close."""
    f.inside_values = [inside]
    f.costs = {"inside_ops_per_sec": inside, "open_seconds": opened, "close_seconds": closed}
    return f


def clocked_figures() -> list[Figure]:
    return [
        timed(figure("leveldb", "seqwrite", 500_000.0), 800_000.0),
        timed(figure("leveldb", "randwrite", 200_000.0), 400_000.0, 0.011, 0.456),
        timed(figure("kyoto", "seqwrite", 300_000.0), 900_000.0),
        timed(figure("sqlite", "seqwrite", 40_000.0), 60_000.0),
        figure("kyoto", "randwrite", 100_000.0),  # a cell without the timing layer (a peer's, an older run's)
        timed(figure("leveldb", "workloada", 50_000.0), 70_000.0),  # nothing published to compare with
        timed(figure("kyoto", "workloada", 40_000.0), 90_000.0),
    ]


def test_beside_each_published_figure_the_in_operation_one_then_ycsb_s_and_the_open_and_close():
    built = build_table(TABLES["1-writes"], by_key(clocked_figures()), load_published())
    assert built.table.headers == [
        "Engine",
        "Sequential: today, this host, in operations",
        "Sequential: YCSB",
        "Sequential: 2011, X5650, ext3",
        "Random: today, this host, in operations",
        "Random: YCSB",
        "Random: 2011, X5650, ext3",
    ]
    rows = rows_of(built.table)
    assert rows["LevelDB 1.13 (leveldbjni)"] == [
        "800,000 ops/sec",
        "500,000 ops/sec",
        "779,000 ops/sec",
        "400,000 ops/sec",
        "200,000 ops/sec",
        "164,000 ops/sec",
    ]
    assert rows["Kyoto TreeDB"][3:5] == ["—", "100,000 ops/sec"]  # no in-operation figure: not YCSB's instead
    # The chart draws the in-operation figures, on the clock the published ones were measured with.
    assert built.panels[0].series[0].name == "today, this host, in operations"
    assert built.panels[0].series[0].values == [800_000.0, 900_000.0, 60_000.0]
    [note] = [n for n in built.notes if "Open / close" in n]
    assert "LevelDB 1.13 (leveldbjni) sequential 0.012 / 0.345, random 0.011 / 0.456; Kyoto TreeDB sequential " in note
    assert rows["SQLite3"][0:2] == ["60,000 ops/sec", "40,000 ops/sec"]
    assert "in operations" in note and "YCSB" in note
    # Without in-operation figures (a run from before the timing layer) the table is as it was.
    plain = build_table(TABLES["1-writes"], by_key(BASELINE_AND_BATCH), load_published())
    assert "Sequential: YCSB" not in plain.table.headers and not any("Open / close" in n for n in plain.notes)


def test_the_heat_map_and_findings_compare_on_the_published_clock_where_every_engine_has_it(tmp_path):
    from analysis.report.render import HeatMap
    from analysis.results.results import like_for_like

    figures = clocked_figures()
    published = {(s, v) for (s, v, _e) in load_published()}
    compared, on_ycsb = like_for_like(figures, published)
    values = {(f.engine, f.scenario): f.value for f in compared}
    # seqwrite: both engines timed, so both in operations (Kyoto ahead, where YCSB's clock had LevelDB).
    assert (values[("leveldb", "seqwrite")], values[("kyoto", "seqwrite")]) == (800_000.0, 900_000.0)
    # randwrite: Kyoto has no in-operation figure, so none there rather than YCSB's: the clocks never mix.
    assert (values[("leveldb", "randwrite")], values[("kyoto", "randwrite")]) == (400_000.0, None)
    # workloada: nothing published, so YCSB's own throughput.
    assert values[("kyoto", "workloada")] == 40_000.0
    assert on_ycsb == {("workloada", "")}

    run = constructed_run(tmp_path)
    run.figures = figures
    blocks = build_report(run, tmp_path)
    rows = dict(next(b for b in blocks if isinstance(b, HeatMap)).rows)
    assert rows["seqwrite"] == [pytest.approx(800 / 900), 1.0, pytest.approx(60 / 900)]
    assert rows["randwrite"] == [1.0, None, None] and rows["workloada †"] == [1.0, 0.8, None]
    markdown = to_markdown(blocks)
    assert "compared on db_bench's clock" in markdown
    # F1 (LevelDB writes sequentially fastest) is judged on the in-operation figures: Kyoto is ahead there.
    f1 = next(line for line in markdown.splitlines() if line.startswith("| F1 "))
    assert "not reproduced" in f1 and "900,000" in f1, f1
    assert "Judged on db_bench's clock" in markdown
