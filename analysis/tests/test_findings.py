"""Findings evaluated on constructed figures: one that reproduces, one that does not, and what
"not measured" means."""

from __future__ import annotations

from analysis.findings import NOT_MEASURED, NOT_REPRODUCED, REPRODUCED, evaluate_finding, evaluate_findings
from analysis.reference import load_findings

FINDINGS = {f.id: f for f in load_findings()}


def check(finding_id: str, values: dict, machine: dict | None = None):
    return evaluate_finding(FINDINGS[finding_id], values, machine)


def test_fastest_sequential_writes_reproduces():
    values = {("leveldb", "seqwrite", ""): 512_000.0, ("kyoto", "seqwrite", ""): 301_000.0,
              ("sqlite", "seqwrite", ""): 40_200.0}
    result = check("F1", values)
    assert result.status == REPRODUCED
    assert result.evidence == "seqwrite: LevelDB 512,000 > Kyoto TreeDB 301,000, SQLite3 40,200 ops/sec"


def test_fastest_random_reads_does_not_reproduce_when_leveldb_wins():
    values = {("kyoto", "randread", ""): 90_000.0, ("leveldb", "randread", ""): 120_000.0,
              ("sqlite", "randread", ""): 60_000.0}
    result = check("F4", values)
    assert result.status == NOT_REPRODUCED
    assert "Kyoto TreeDB 90,000 is not above all of LevelDB 120,000" in result.evidence


def test_a_missing_engine_means_not_measured_and_says_which():
    result = check("F1", {("leveldb", "seqwrite", ""): 512_000.0, ("kyoto", "seqwrite", ""): 301_000.0})
    assert result.status == NOT_MEASURED
    assert result.evidence == "missing: seqwrite on SQLite3"


def test_batching_gain_compares_ratios_per_engine():
    base = {("leveldb", "seqwrite", ""): 500_000.0, ("leveldb", "randwrite", ""): 200_000.0,
            ("sqlite", "seqwrite", ""): 40_000.0, ("sqlite", "randwrite", ""): 10_000.0}
    helps_sqlite = {**base, ("leveldb", "batch-seqwrite", ""): 550_000.0, ("leveldb", "batch-randwrite", ""): 260_000.0,
                    ("sqlite", "batch-seqwrite", ""): 100_000.0, ("sqlite", "batch-randwrite", ""): 22_000.0}
    result = check("F6", helps_sqlite)
    assert result.status == REPRODUCED
    assert "sequential: SQLite3 2.50x, LevelDB 1.10x" in result.evidence
    helps_leveldb = {**helps_sqlite, ("leveldb", "batch-randwrite", ""): 600_000.0}
    assert check("F6", helps_leveldb).status == NOT_REPRODUCED


def test_sync_writes_are_judged_against_the_disk_flush_rate():
    values = {}
    for engine, plain, sync in (("leveldb", 400_000.0, 900.0), ("kyoto", 300_000.0, 40.0), ("sqlite", 30_000.0, 700.0)):
        for order in ("seq", "rand"):
            values[(engine, f"{order}write", "")] = plain
            values[(engine, f"sync-{order}write", "")] = sync
    slow_disk = check("F7", values, {"fsync_per_sec": 300.0})
    assert slow_disk.status == NOT_REPRODUCED   # 900/s is above twice a 300/s flush rate
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
    values = {("sqlite", "pk-query-threads", v): q for v, q in (
        ("shared-1t", 33_000.0), ("shared-2t", 15_000.0), ("shared-4t", 14_000.0),
        ("private-2t", 50_000.0), ("private-4t", 50_000.0))}
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
