"""The report's tables: which scenarios (and variants) each section of the report shows, under which
headings, in which layout, with which baseline. Pure data; tables.py builds them from the figures and
scenarios.py says what runs.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..catalogue.model import Scenario
from ..catalogue.own_workloads import OWN_QUICK_COUNT, OWN_SCENARIOS
from ..catalogue.pages import FASTDB_PAGE, ROCKSDB_PAGE
from ..catalogue.scenarios import PK_QUERY_SHARED_THREADS, PK_QUERY_THREADS, knob_notes


@dataclass(frozen=True)
class Column:
    """One figure of a report table: a scenario (and variant) under a heading."""

    scenario: str
    label: str
    variant: str = ""
    baseline: tuple[str, str] | None = None  # (scenario, variant) that is 1.00x; None: scenario's own


@dataclass(frozen=True)
class ReportTable:
    id: str
    section: str  # heading of the section the table sits in
    title: str
    columns: tuple[Column, ...]
    layout: str = "engines"  # "engines": a row per engine; "variants": a row per column, engines across;
    #                           "tests": a row per column and engine, with the engine's statistics at close
    note: str = ""
    published_shape: tuple[int, int] | None = None  # (fields, bytes per field) the note states as published


def _seq_random(seq: str, rand: str) -> tuple[Column, ...]:
    return (Column(seq, "Sequential"), Column(rand, "Random"))


S1_WRITES = "2. Write Performance under Different Configurations"
S1_READS = "3. Read Performance under Different Configurations"

REPORT_TABLES: tuple[ReportTable, ...] = (
    ReportTable(
        "1-writes",
        "1. Baseline Performance",
        "Baseline: Writes",
        _seq_random("seqwrite", "randwrite"),
        note="Published: 1,000,000 entries of 16-byte keys and 100-byte values (about half compressible), "
        "asynchronous writes, 4 MB of cache, one thread.",
    ),
    ReportTable(
        "1-reads",
        "1. Baseline Performance",
        "Baseline: Reads",
        _seq_random("seqread", "randread"),
        note="A sequential read is an ordered iterator pass over the whole database (as many passes as "
        "--quick's time per step allows), counted in entries/sec.",
    ),
    ReportTable(
        "2A",
        S1_WRITES,
        "A. Large Values",
        _seq_random("largevalue-seqwrite", "largevalue-randwrite"),
        note="Published: 1,000 values of 100,000 bytes. No baseline ratio, as on the 2011 page.",
    ),
    ReportTable(
        "2B",
        S1_WRITES,
        "B. Batch Writes",
        _seq_random("batch-seqwrite", "batch-randwrite"),
        note="Published: 1,000 batches of 1,000 entries, each applied atomically; in entries/sec."
        + "".join(f" {note}." for note in knob_notes("", "batch").values()),
    ),
    ReportTable(
        "2C",
        S1_WRITES,
        "C. Synchronous Writes",
        _seq_random("sync-seqwrite", "sync-randwrite"),
        note="Published: 10,000 writes, each durable before it returns.",
    ),
    ReportTable("2D", S1_WRITES, "D. Turning Compression Off", _seq_random("nocomp-seqwrite", "nocomp-randwrite")),
    ReportTable(
        "2E",
        S1_WRITES,
        "E. Using More Memory",
        _seq_random("bigwrite-seqwrite", "bigwrite-randwrite"),
        note="128 MB of write-oriented memory instead of 4 MB.",
    ),
    ReportTable(
        "3A",
        S1_READS,
        "A. Larger Cache",
        _seq_random("bigread-seqread", "bigread-randread"),
        note="128 MB of read-oriented memory instead of 4 MB.",
    ),
    ReportTable("3B", S1_READS, "B. No Compression", _seq_random("nocomp-seqread", "nocomp-randread")),
    ReportTable(
        ROCKSDB_PAGE.section,
        "4. LevelDB vs RocksDB Writes",
        "Write throughput, same tuning",
        (Column("tinykeys", "8-byte keys, empty values"), Column("kv1000", "8-byte keys, 1,000-byte values")),
        layout="tests",
        note="4 MB memtable, at most 2 memtables, level-0 triggers 4 / 8 / 12, one background thread; "
        "RocksDB also held to LevelDB's 2 MB table files and 10 MB level 1 (static level sizes). "
        "The published run explains RocksDB's result by write stalls and an overgrown level 1.",
    ),
    ReportTable(
        "pk-query-threads",
        "5. SQLite Performance Notes",
        "Primary-key queries by threads",
        tuple(
            Column(
                "pk-query-threads",
                f"{cache} cache, {n} thread{'s' if n > 1 else ''}",
                f"{cache}-{n}t",
                baseline=("pk-query-threads", "private-1t"),
            )
            for cache, threads in (("private", PK_QUERY_THREADS), ("shared", PK_QUERY_SHARED_THREADS))
            for n in threads
        ),
        layout="variants",
        note="Queries/sec over all threads; shared = SQLITE_OPEN_SHAREDCACHE.",
    ),
    ReportTable(
        "bulk-import",
        "5. SQLite Performance Notes",
        "Bulk import",
        (
            Column(
                "bulk-import", "one row per transaction", "one-row-per-txn", baseline=("bulk-import", "one-row-per-txn")
            ),
            Column(
                "bulk-import",
                "all rows in one transaction",
                "all-rows-one-txn",
                baseline=("bulk-import", "one-row-per-txn"),
            ),
        ),
        layout="variants",
        note="Rows/sec. Statements are prepared once, so the published "
        "'one transaction, prepared statement' figure is the closest match of the second row.",
    ),
    ReportTable(
        "pk-update",
        "5. SQLite Performance Notes",
        "Primary-key updates",
        (
            Column("pk-update", "1 row per transaction", "one-row-per-txn", baseline=("pk-update", "one-row-per-txn")),
            Column(
                "pk-update",
                "1,000 rows per transaction",
                "1000-rows-per-txn",
                baseline=("pk-update", "one-row-per-txn"),
            ),
            Column(
                "pk-update",
                "10,000 rows per transaction",
                "10000-rows-per-txn",
                baseline=("pk-update", "one-row-per-txn"),
            ),
        ),
        layout="variants",
        note="Updates/sec of c1 = c1 + 1 by random primary key.",
    ),
    ReportTable(
        FASTDB_PAGE.section,
        "6. FastDB vs SQLite",
        "Elapsed time (lower is better)",
        (
            Column("fastdb-insert", "insert 10,000 rows, one transaction", "one-txn-10k"),
            Column("fastdb-insert", "insert 100,000 rows, one transaction", "one-txn-100k"),
            Column("fastdb-insert", "insert 1,000,000 rows, one transaction", "one-txn-1m"),
            Column("fastdb-insert", "insert 10,000 rows, one transaction each", "txn-per-row-10k"),
            Column("fastdb-index-search", "100,000 index searches", "index-search"),
            Column("fastdb-delete", "delete 100,000 rows one by one", "delete-one-by-one"),
        ),
        layout="variants",
        note="Milliseconds of YCSB run time at the published sizes.",
    ),
    ReportTable(
        "ycsb",
        "7. YCSB Core Workloads",
        "Throughput of the standard mixes",
        tuple(Column(f"workload{c}", c.upper()) for c in "abcdef"),
        note="Upstream's parameters: 10 fields of 100 bytes, zipfian requests (D: latest).",
        published_shape=(10, 100),
    ),
)

OWN_HEADING = "8. Your Workloads"


def _own_label(variant: str) -> str:
    if variant.startswith("run-") and variant.endswith("t"):
        threads = variant[4:-1]
        return f"run, {threads} thread{'' if threads == '1' else 's'}"
    return variant or "run"


def own_table(scenario: Scenario) -> ReportTable:
    """The table of a user's workload file (`run --workload FILE`): its load and run, a row per engine (a trace's
    load, set-up for its run, is no figure: not a column, not ranked)."""
    setup = any(s.phase == "load" and not s.measured for s in scenario.steps)
    return ReportTable(
        f"own-{scenario.id}",
        OWN_HEADING,
        scenario.id,
        tuple(Column(scenario.id, _own_label(v), v) for v in scenario.variants),
        note=f"Your workload file `{scenario.source or scenario.id}`, run as written. Load and run in one fresh "
        "directory per cell; ops/sec of YCSB's [OVERALL]."
        + (
            " The load is set-up, not a figure: it inserts the keys the trace reads before it writes them (how many: "
            "below), so it is neither in this table nor ranked."
            if setup
            else ""
        ),
    )


def own_counts_note(mode: str | None, cap: int | None) -> str:
    """How a run's mode sized a user's workload file (`run --workload`): --quick and --cap lower its counts,
    --full keeps the file's own."""
    if cap is not None:
        return f"With --cap {cap:,}, at most {cap:,} records and operations (the counts table says what ran)."
    if mode == "quick":
        return (
            f"With --quick, at most {OWN_QUICK_COUNT:,} records and operations unless the file sets insertcount "
            "(the counts table says what ran); --full runs the file's own counts."
        )
    return "With --full, the file's own counts."


def report_tables() -> tuple[ReportTable, ...]:
    """Every table of the report: the catalogue's, then one per user workload file registered for the run."""
    return REPORT_TABLES + tuple(own_table(s) for s in OWN_SCENARIOS.values())
