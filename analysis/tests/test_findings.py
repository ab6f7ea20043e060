"""Findings evaluated on constructed figures: one that reproduces, one that does not, and what
"not measured" means; F12 also on real outputs of the published kv-1000 fill."""

from __future__ import annotations

import pytest

from analysis.report.findings import NOT_MEASURED, NOT_REPRODUCED, REPRODUCED, evaluate_finding, evaluate_findings
from analysis.report.reference import load_findings
from analysis.results.parse import parse_ycsb_output
from analysis.results.results import CloseStats, Figure, figures_of
from analysis.results.tidy import close_columns, output_rows

from .conftest import FIXTURES

FINDINGS = {f.id: f for f in load_findings()}


def check(finding_id: str, values: dict, machine: dict | None = None):
    return evaluate_finding(FINDINGS[finding_id], values, machine)


def test_fastest_sequential_writes_reproduces():
    values = {
        ("leveldb", "seqwrite", ""): 512_000.0,
        ("kyoto", "seqwrite", ""): 301_000.0,
        ("sqlite", "seqwrite", ""): 40_200.0,
    }
    result = check("F1", values)
    assert result.status == REPRODUCED
    assert (
        result.evidence == "seqwrite: LevelDB 1.13 (leveldbjni) 512,000 > Kyoto TreeDB 301,000, SQLite3 40,200 ops/sec"
    )


def test_fastest_random_reads_does_not_reproduce_when_leveldb_wins():
    values = {
        ("kyoto", "randread", ""): 90_000.0,
        ("leveldb", "randread", ""): 120_000.0,
        ("sqlite", "randread", ""): 60_000.0,
    }
    result = check("F4", values)
    assert result.status == NOT_REPRODUCED
    assert "Kyoto TreeDB 90,000 is not above all of LevelDB 1.13 (leveldbjni) 120,000" in result.evidence


def test_a_missing_engine_means_not_measured_and_says_which():
    result = check("F1", {("leveldb", "seqwrite", ""): 512_000.0, ("kyoto", "seqwrite", ""): 301_000.0})
    assert result.status == NOT_MEASURED
    assert result.evidence == "missing: seqwrite on SQLite3"


def test_batching_gain_compares_ratios_per_engine():
    base = {
        ("leveldb", "seqwrite", ""): 500_000.0,
        ("leveldb", "randwrite", ""): 200_000.0,
        ("sqlite", "seqwrite", ""): 40_000.0,
        ("sqlite", "randwrite", ""): 10_000.0,
    }
    helps_sqlite = {
        **base,
        ("leveldb", "batch-seqwrite", ""): 550_000.0,
        ("leveldb", "batch-randwrite", ""): 260_000.0,
        ("sqlite", "batch-seqwrite", ""): 100_000.0,
        ("sqlite", "batch-randwrite", ""): 22_000.0,
    }
    result = check("F6", helps_sqlite)
    assert result.status == REPRODUCED
    assert "sequential: SQLite3 2.50x, LevelDB 1.13 (leveldbjni) 1.10x" in result.evidence
    helps_leveldb = {**helps_sqlite, ("leveldb", "batch-randwrite", ""): 600_000.0}
    assert check("F6", helps_leveldb).status == NOT_REPRODUCED


def test_sync_writes_are_judged_against_the_disk_flush_rate():
    values = {}
    for engine, plain, sync in (("leveldb", 400_000.0, 900.0), ("kyoto", 300_000.0, 40.0), ("sqlite", 30_000.0, 700.0)):
        for order in ("seq", "rand"):
            values[(engine, f"{order}write", "")] = plain
            values[(engine, f"sync-{order}write", "")] = sync
    slow_disk = check("F7", values, {"fsync_per_sec": 300.0})
    assert slow_disk.status == NOT_REPRODUCED  # 900/s is above twice a 300/s flush rate
    fast_disk = check("F7", values, {"fsync_per_sec": 1000.0})
    assert fast_disk.status == REPRODUCED
    assert "this disk flushes 1,000 times/sec" in fast_disk.evidence


def test_bigger_cache_needs_three_times_for_treedb():
    values = {("kyoto", "randread", ""): 100_000.0, ("kyoto", "bigread-randread", ""): 310_000.0}
    assert check("F10", values).status == REPRODUCED
    values[("kyoto", "bigread-randread", "")] = 150_000.0
    result = check("F10", values)
    assert result.status == NOT_REPRODUCED and "1.50x" in result.evidence


def test_shared_cache_collapse():
    values = {
        ("sqlite", "pk-query-threads", v): q
        for v, q in (
            ("shared-1t", 33_000.0),
            ("shared-2t", 15_000.0),
            ("shared-4t", 14_000.0),
            ("private-2t", 50_000.0),
            ("private-4t", 50_000.0),
        )
    }
    assert check("F13", values).status == REPRODUCED
    values[("sqlite", "pk-query-threads", "shared-4t")] = 60_000.0
    assert check("F13", values).status == NOT_REPRODUCED


def test_delete_all_in_one_statement_cannot_be_measured_through_ycsb():
    result = check("F15", {("sqlite", "fastdb-delete", "delete-one-by-one"): 9000.0})
    assert result.status == NOT_MEASURED
    assert "YCSB has no operation" in result.evidence


def test_every_published_finding_gets_a_verdict():
    results = evaluate_findings(load_findings(), {})
    assert [r.id for r in results] == [f"F{i}" for i in range(1, 16)]
    assert all(r.status == NOT_MEASURED and r.evidence for r in results)


# --- F12: two claims, the speed and RocksDB's level 1 ------------------------------------------

MB = 2**20


def kv1000_figures(rocksdb_l1_files: int | None, leveldb: float = 46_000.0, rocksdb: float = 28_000.0):
    """Figures of both engines on kv1000; RocksDB's statistics at close unless rocksdb_l1_files is None."""
    values = {("leveldb", "kv1000", ""): leveldb, ("rocksdb", "kv1000", ""): rocksdb}
    close = (
        None
        if rocksdb_l1_files is None
        else CloseStats(
            stall_stops=45,
            stall_slowdowns=0,
            stall_seconds=6.8,
            files_per_level=[4, rocksdb_l1_files, 39, 0, 0, 0, 0],
            l1_bytes=rocksdb_l1_files * 2 * MB,
            l1_target_bytes=10 * MB,
            l1_estimated=True,
        )
    )
    figures = {
        ("rocksdb", "kv1000", ""): Figure("rocksdb", "kv1000", "", "rocksdb", "ops", "ops/sec", rocksdb, close=close),
        ("leveldb", "kv1000", ""): Figure(
            "leveldb",
            "kv1000",
            "",
            "rocksdb",
            "ops",
            "ops/sec",
            leveldb,
            close=CloseStats(files_per_level=[6, 0, 10], l1_bytes=0, l1_target_bytes=10 * MB),
        ),
    }
    return values, figures


def test_f12_reproduces_when_leveldb_is_faster_and_rocksdb_l1_overgrows():
    values, figures = kv1000_figures(rocksdb_l1_files=17)
    result = evaluate_finding(FINDINGS["F12"], values, None, figures)
    assert result.status == REPRODUCED
    assert result.evidence == (
        "kv1000: LevelDB 1.13 (leveldbjni) 46,000 > RocksDB 28,000 ops/sec; "
        "RocksDB at close: L1 ~34 MB vs 10 MB target (3.40x), above it "
        "(files L0 4 · L1 17 · L2 39; 45 write stops, 6.8 s stalled); LevelDB at close: "
        "L1 empty (10 MB target) (files L0 6 · L1 0 · L2 10) "
        "(criterion: LevelDB faster, and RocksDB's L1 above its target)"
    )


def test_f12_is_not_reproduced_when_rocksdb_l1_stays_within_its_target():
    values, figures = kv1000_figures(rocksdb_l1_files=2)
    result = evaluate_finding(FINDINGS["F12"], values, None, figures)
    assert result.status == NOT_REPRODUCED
    assert "kv1000: LevelDB 1.13 (leveldbjni) 46,000 > RocksDB 28,000 ops/sec" in result.evidence  # the speed part held
    assert "L1 ~4.0 MB vs 10 MB target (0.40x), not above it" in result.evidence


def test_f12_is_not_reproduced_when_rocksdb_is_faster_whatever_its_levels():
    values, figures = kv1000_figures(rocksdb_l1_files=17, leveldb=20_000.0)
    assert evaluate_finding(FINDINGS["F12"], values, None, figures).status == NOT_REPRODUCED
    values, figures = kv1000_figures(rocksdb_l1_files=None, leveldb=20_000.0)  # one false claim decides it
    result = evaluate_finding(FINDINGS["F12"], values, None, figures)
    assert result.status == NOT_REPRODUCED and "level 1 not measured" in result.evidence


def test_f12_level_part_is_not_measured_without_statistics_at_close():
    values, figures = kv1000_figures(rocksdb_l1_files=None)
    result = evaluate_finding(FINDINGS["F12"], values, None, figures)
    assert result.status == NOT_MEASURED
    assert result.evidence.startswith(
        "kv1000: LevelDB 1.13 (leveldbjni) 46,000 > RocksDB 28,000 ops/sec; RocksDB's level 1 not "
        "measured (no statistics at close in its stderr)"
    )
    assert check("F12", values).status == NOT_MEASURED  # no figures passed at all: the same


def test_f12_without_a_fixed_l1_target_is_not_measured():
    values, figures = kv1000_figures(rocksdb_l1_files=17)
    figures[("rocksdb", "kv1000", "")].close.l1_target_bytes = None  # dynamic level sizes
    result = evaluate_finding(FINDINGS["F12"], values, None, figures)
    assert result.status == NOT_MEASURED and "no fixed target (dynamic level sizes)" in result.evidence


def test_f12_without_throughput_is_not_measured():
    values, figures = kv1000_figures(rocksdb_l1_files=17)
    del values[("leveldb", "kv1000", "")]
    result = evaluate_finding(FINDINGS["F12"], values, None, figures)
    assert result.status == NOT_MEASURED and result.evidence == "missing: kv1000 on LevelDB 1.13 (leveldbjni)"


FULL = FIXTURES / "close-stats"  # real outputs of the published 1,000,000-record fill (README.md there)


def full_scale_figures() -> list:
    """Figures of both engines from the real 1,000,000-record fills, as the suite builds them."""
    rows: list[dict] = []
    cells: list[dict] = []
    for engine in ("leveldb", "rocksdb"):
        output = parse_ycsb_output((FULL / f"{engine}-kv1000-full.txt").read_text())
        step = [
            {
                "engine": engine,
                "scenario": "kv1000",
                "variant": "",
                "repeat": 1,
                "measured": True,
                "step_ok": True,
                **row,
            }
            for row in output_rows(output, None)
        ]
        step[0].update(close_columns(engine, (FULL / f"{engine}-kv1000-full.err").read_text()))
        rows += step
        cells.append({"engine": engine, "scenario": "kv1000", "status": "ok", "error": None, "repeats": []})
    return figures_of(cells, rows)


def test_f12_reproduces_on_the_real_full_size_fill():
    figures = {(f.engine, f.scenario, f.variant): f for f in full_scale_figures()}
    values = {key: f.value for key, f in figures.items()}
    rocksdb = figures[("rocksdb", "kv1000", "")].close
    assert rocksdb.files_per_level == [5, 26, 175, 76, 0, 0, 0]
    assert (rocksdb.stall_stops, rocksdb.stall_slowdowns) == (230, 185)
    assert rocksdb.stall_seconds == pytest.approx(47.457906)
    assert rocksdb.l1_ratio == pytest.approx(5.2)
    result = evaluate_finding(FINDINGS["F12"], values, None, figures)
    assert result.status == REPRODUCED
    assert result.evidence == (
        "kv1000: LevelDB 1.13 (leveldbjni) 26,000 > RocksDB 17,700 ops/sec; "
        "RocksDB at close: L1 ~52 MB vs 10 MB target (5.20x), above it "
        "(files L0 5 · L1 26 · L2 175 · L3 76; 230 write stops, 47 s stalled); LevelDB at close: "
        "L1 35 MB vs 10 MB target (3.50x) (files L0 7 · L1 24 · L2 114 · L3 144) "
        "(criterion: LevelDB faster, and RocksDB's L1 above its target)"
    )


def test_leveldb_findings_get_a_verdict_per_library_and_the_closer_one_is_named():
    from analysis.report.findings import closer_library

    values = {
        ("leveldb", "seqwrite", ""): 512_000.0,
        ("leveldb-system", "seqwrite", ""): 250_000.0,
        ("kyoto", "seqwrite", ""): 301_000.0,
        ("sqlite", "seqwrite", ""): 40_200.0,
    }
    results = {r.label: r for r in evaluate_findings([FINDINGS["F1"], FINDINGS["F10"]], values)}
    assert set(results) == {"F1 (LevelDB 1.13)", "F1 (LevelDB 1.23)", "F10"}
    assert results["F1 (LevelDB 1.13)"].status == REPRODUCED
    assert results["F1 (LevelDB 1.23)"].status == NOT_REPRODUCED
    assert "LevelDB 1.23 (system library) 250,000 is not above all of Kyoto TreeDB 301,000" in (
        results["F1 (LevelDB 1.23)"].evidence
    )
    sentence = closer_library(list(results.values()))
    assert sentence is not None and "LevelDB 1.13 1 of 1, LevelDB 1.23 0 of 1" in sentence
    assert sentence.endswith("behaves more like LevelDB 1.13 (leveldbjni) here")


def test_a_run_with_one_leveldb_library_keeps_one_unlabelled_verdict():
    from analysis.report.findings import closer_library

    values = {
        ("leveldb-system", "seqwrite", ""): 600_000.0,
        ("kyoto", "seqwrite", ""): 301_000.0,
        ("sqlite", "seqwrite", ""): 40_200.0,
    }
    (result,) = evaluate_findings([FINDINGS["F1"]], values)
    assert result.label == "F1" and result.status == REPRODUCED
    assert result.evidence.startswith("seqwrite: LevelDB 1.23 (system library) 600,000 >")
    assert closer_library([result]) is None
