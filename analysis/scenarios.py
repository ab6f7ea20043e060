"""The scenario catalogue: every published test the suite reproduces, as data.

A scenario is one published test (or one family of variants of it). The suite runs it on each
engine it applies to as one *cell*: a fresh data directory, then its steps in order, each step
one `bin/ycsb load|run <engine> -P <workload>...` in its own JVM. Steps marked `measured` give
the scenario's figure; a scenario with variants (threads, rows per transaction) measures one
step per variant.

The report tables at the bottom group scenarios the way the published pages did.
Workload files live in workloads/; a file missing there makes a failed cell, not a crash.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Mapping

ENGINES: tuple[str, ...] = ("leveldb", "leveldb-system", "rocksdb", "sqlite", "kyoto")
ENGINE_LABELS: Mapping[str, str] = {
    "leveldb": "LevelDB 1.13 (leveldbjni)",
    "leveldb-system": "LevelDB 1.23 (system library)",
    "rocksdb": "RocksDB",
    "sqlite": "SQLite3",
    "kyoto": "Kyoto TreeDB",
}

# A suite engine is a binding (bin/ycsb's engine name) plus the properties that pick its library:
# LevelDB runs twice, through leveldbjni and through the system's libleveldb, so the report shows
# what the library costs. Engines not listed are their binding with no extra property.
ENGINE_BINDINGS: Mapping[str, str] = {"leveldb-system": "leveldb"}
ENGINE_PROPS: Mapping[str, tuple[tuple[str, str], ...]] = {
    "leveldb": (("leveldb.library", "leveldbjni"),),
    "leveldb-system": (("leveldb.library", "system"),),
}
# The 2011 page measured LevelDB: both libraries run its sections; the other scenarios run each binding once.
BINDING_ENGINES: tuple[str, ...] = tuple(e for e in ENGINES if e not in ENGINE_BINDINGS)


def binding_of(engine: str) -> str:
    """The bin/ycsb engine (and the binding's "[name]" prefix in its output) of a suite engine."""
    return ENGINE_BINDINGS.get(engine, engine)

# Return codes a step may report without failing; a scenario that expects misses allows more.
OK_RETURNS: frozenset[str] = frozenset({"OK", "BATCHED_OK"})

# What a scenario's figure is, and its unit.
METRIC_UNITS: Mapping[str, str] = {
    "ops": "ops/sec",          # YCSB's [OVERALL] throughput of the measured step
    "entries": "entries/sec",  # [READSEQ] entries/sec: a full ordered pass counts its entries
    "batch": "entries/sec",    # [OVERALL] throughput of a batched load: one operation = one entry
    "elapsed_ms": "ms",        # [OVERALL] run time of the measured step
}


@dataclass(frozen=True)
class Step:
    """One `bin/ycsb` call of a cell."""

    phase: str                               # "load" or "run"
    workloads: tuple[str, ...]               # files in workloads/, stacked with -P in this order
    measured: bool = True                    # this step gives the scenario's figure
    variant: str = ""                        # what this measured step varies ("" for a plain scenario)
    props: tuple[tuple[str, str], ...] = ()  # extra -p name=value; "{recordcount}" is replaced
    records: int | None = None               # fixed recordcount in both modes (a variant's size)
    quick_records: int | None = None         # recordcount in --quick (default: the scenario's)
    quick_operations: int | None = None      # operationcount in --quick (default: the scenario's)
    operation_scale: int = 1                 # operationcount is per thread: multiply by this
    in_quick: bool = True                    # False: only with --full (too long for a quick run)
    allowed_returns: frozenset[str] = OK_RETURNS

    @property
    def name(self) -> str:
        """A file-name-safe label: phase, first workload and variant."""
        parts = [self.phase, self.workloads[0]] + ([self.variant] if self.variant else [])
        return "-".join(parts)


@dataclass(frozen=True)
class Scenario:
    id: str
    section: str                 # report section id ("1", "2A", ..., "rocksdb", "sqlite", "fastdb", "ycsb")
    title: str
    what: str                    # what one measured operation is
    engines: tuple[str, ...]
    steps: tuple[Step, ...]
    metric: str = "ops"          # a key of METRIC_UNITS
    order: str = ""              # "sequential" or "random" where the published table splits so
    baseline: str | None = None  # scenario whose same-engine figure is "1.00x baseline"
    quick_records: int | None = None     # None: the workload file's recordcount
    quick_operations: int | None = None  # None: the workload file's operationcount
    bytes_per_operation: int | None = None  # key + value bytes, for MB/s
    engine_notes: Mapping[str, str] = field(default_factory=dict)

    @property
    def unit(self) -> str:
        return METRIC_UNITS[self.metric]

    @property
    def variants(self) -> tuple[str, ...]:
        return tuple(s.variant for s in self.steps if s.measured)

    def workload_files(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for step in self.steps:
            for name in step.workloads:
                seen.setdefault(name, None)
        return tuple(seen)


def _load(*workloads: str, **kw) -> Step:
    return Step("load", tuple(workloads), **kw)


def _run(*workloads: str, **kw) -> Step:
    return Step("run", tuple(workloads), **kw)


# --- S1: LevelDB benchmarks, July 2011 -----------------------------------------------------

QUICK_ENTRIES = 100_000     # the 2011 runs used 1,000,000
QUICK_READSEQ_PASSES = 5    # one pass over 100k entries in a cold JVM mostly measures the JIT

_TREEDB_BATCH = "TreeDB through transactions of 1,000 (the 2011 page had no TreeDB batch row)"


def _write(id_: str, section: str, title: str, files: tuple[str, ...], order: str,
           baseline: str | None, metric: str = "ops", quick: int = QUICK_ENTRIES,
           notes: Mapping[str, str] | None = None) -> Scenario:
    what = "one entry written" if metric != "batch" else "one entry, 1,000 per atomic batch"
    return Scenario(id_, section, title, what, ENGINES, (_load(*files),), metric=metric, order=order,
                    baseline=baseline, quick_records=quick, engine_notes=notes or {})


def _read(id_: str, section: str, title: str, read_file: str, options: tuple[str, ...], order: str,
          baseline: str | None) -> Scenario:
    # Fill with the random-order write file (db_bench read after fillrandom), then read.
    fill = _load("randwrite", *options, measured=False)
    if read_file == "seqread":
        read = _run("seqread", *options, quick_operations=QUICK_READSEQ_PASSES)
        return Scenario(id_, section, title, "one entry of a full ordered pass", ENGINES, (fill, read),
                        metric="entries", order=order, baseline=baseline, quick_records=QUICK_ENTRIES)
    read = _run(read_file, *options)
    return Scenario(id_, section, title, "one point read of an existing key", ENGINES, (fill, read),
                    order=order, baseline=baseline, quick_records=QUICK_ENTRIES,
                    quick_operations=QUICK_ENTRIES)


LEVELDB_2011: tuple[Scenario, ...] = (
    _write("seqwrite", "1", "Sequential Writes", ("seqwrite",), "sequential", "seqwrite"),
    _write("randwrite", "1", "Random Writes", ("randwrite",), "random", "randwrite"),
    _read("seqread", "1", "Sequential Reads", "seqread", (), "sequential", "seqread"),
    _read("randread", "1", "Random Reads", "randread", (), "random", "randread"),
    # The page gives no ratio for large values: a different value size is not a variation of the baseline.
    _write("largevalue-seqwrite", "2A", "Large Values, Sequential Writes", ("largevalue-seqwrite",),
           "sequential", None, quick=300),
    _write("largevalue-randwrite", "2A", "Large Values, Random Writes", ("largevalue-randwrite",),
           "random", None, quick=300),
    _write("batch-seqwrite", "2B", "Batch Writes, Sequential", ("batch-seqwrite",), "sequential",
           "seqwrite", metric="batch", notes={"kyoto": _TREEDB_BATCH}),
    _write("batch-randwrite", "2B", "Batch Writes, Random", ("batch-randwrite",), "random",
           "randwrite", metric="batch", notes={"kyoto": _TREEDB_BATCH}),
    _write("sync-seqwrite", "2C", "Synchronous Writes, Sequential", ("sync-seqwrite",), "sequential",
           "seqwrite", quick=300),
    _write("sync-randwrite", "2C", "Synchronous Writes, Random", ("sync-randwrite",), "random",
           "randwrite", quick=300),
    _write("nocomp-seqwrite", "2D", "No Compression, Sequential Writes", ("seqwrite", "nocompression"),
           "sequential", "seqwrite"),
    _write("nocomp-randwrite", "2D", "No Compression, Random Writes", ("randwrite", "nocompression"),
           "random", "randwrite"),
    _write("bigwrite-seqwrite", "2E", "More Memory, Sequential Writes", ("seqwrite", "bigwrite-memory"),
           "sequential", "seqwrite"),
    _write("bigwrite-randwrite", "2E", "More Memory, Random Writes", ("randwrite", "bigwrite-memory"),
           "random", "randwrite"),
    _read("bigread-seqread", "3A", "Larger Cache, Sequential Reads", "seqread", ("bigread-memory",),
          "sequential", "seqread"),
    _read("bigread-randread", "3A", "Larger Cache, Random Reads", "randread", ("bigread-memory",),
          "random", "randread"),
    _read("nocomp-seqread", "3B", "No Compression, Sequential Reads", "seqread", ("nocompression",),
          "sequential", "seqread"),
    _read("nocomp-randread", "3B", "No Compression, Random Reads", "randread", ("nocompression",),
          "random", "randread"),
)

# --- S2: RocksDB vs LevelDB write throughput -------------------------------------------------

ROCKSDB_VS_LEVELDB: tuple[Scenario, ...] = (
    Scenario("tinykeys", "rocksdb", "8-byte keys, empty values", "one write of an 8-byte key, empty value",
             ("leveldb", "rocksdb"), (_load("tinykeys"),), quick_records=200_000, bytes_per_operation=8),
    Scenario("kv1000", "rocksdb", "8-byte keys, 1,000-byte values", "one write of an 8-byte key, 1,000-byte value",
             ("leveldb", "rocksdb"), (_load("kv1000"),), quick_records=200_000, bytes_per_operation=1008),
)

# --- S3: SQLite performance notes --------------------------------------------------------------
# The variants set YCSB's threadcount and the binding's properties; the workload files hold the rest.

PK_QUERY_THREADS = (1, 2, 4, 8, 16)
PK_QUERY_SHARED_THREADS = (1, 2, 4)   # the published shared-cache figures stop at 4 threads


def _pk_query_steps() -> tuple[Step, ...]:
    runs = [_run("pk-query-threads", variant=f"{cache}-{n}t", operation_scale=n,
                 props=(("threadcount", str(n)), ("sqlite.sharedcache", str(cache == "shared").lower())))
            for cache, threads in (("private", PK_QUERY_THREADS), ("shared", PK_QUERY_SHARED_THREADS))
            for n in threads]
    return (_load("pk-query-threads", measured=False), *runs)


SQLITE_NOTES: tuple[Scenario, ...] = (
    Scenario("pk-query-threads", "sqlite", "Primary-key queries from 1-16 threads, private vs shared cache",
             "one primary-key lookup (operations are per thread)", ("sqlite",), _pk_query_steps(),
             quick_records=10_000, quick_operations=5_000),
    Scenario("bulk-import", "sqlite", "Bulk import: rows per transaction", "one row inserted", ("sqlite",), (
        _load("bulk-import", variant="one-row-per-txn", props=(("batchsize", "1"),), quick_records=500),
        _load("bulk-import", variant="all-rows-one-txn", props=(("batchsize", "{recordcount}"),)),
    ), quick_records=20_000),
    Scenario("pk-update", "sqlite", "Primary-key updates: rows per transaction", "one row updated", ("sqlite",), (
        _load("pk-update", measured=False),
        _run("pk-update", variant="one-row-per-txn", props=(("batchsize", "1"),), quick_operations=500),
        _run("pk-update", variant="1000-rows-per-txn", props=(("batchsize", "1000"),)),
        _run("pk-update", variant="10000-rows-per-txn", props=(("batchsize", "10000"),)),
    ), quick_records=10_000, quick_operations=2_000),
)

# --- S4: FastDB vs SQLite: elapsed times at the published sizes -------------------------------

FASTDB_ENGINES = BINDING_ENGINES   # FastDB itself is not packaged; the shape runs on every engine

FASTDB: tuple[Scenario, ...] = (
    Scenario("fastdb-insert", "fastdb", "Inserts: one transaction, and one transaction per row",
             "one row inserted", FASTDB_ENGINES, (
                 _load("fastdb-insert-one-txn", variant="one-txn-10k", records=10_000,
                       props=(("batchsize", "{recordcount}"),)),
                 _load("fastdb-insert-one-txn", variant="one-txn-100k", records=100_000,
                       props=(("batchsize", "{recordcount}"),)),
                 _load("fastdb-insert-one-txn", variant="one-txn-1m", records=1_000_000, in_quick=False,
                       props=(("batchsize", "{recordcount}"),)),
                 _load("fastdb-insert-txn-per-row", variant="txn-per-row-10k", records=10_000,
                       props=(("batchsize", "1"),)),
             ), metric="elapsed_ms"),
    Scenario("fastdb-index-search", "fastdb", "Index search after inserts", "one point lookup",
             FASTDB_ENGINES, (_load("fastdb-index-search", measured=False),
                              _run("fastdb-index-search", variant="index-search")),
             metric="elapsed_ms", quick_records=100_000, quick_operations=100_000),
    Scenario("fastdb-delete", "fastdb", "Deletes one by one", "one row deleted", FASTDB_ENGINES, (
        _load("fastdb-delete-one-by-one", measured=False),
        # The file deletes keys in sequence, each once: a NOT_FOUND would be a lost record.
        _run("fastdb-delete-one-by-one", variant="delete-one-by-one"),
    ), metric="elapsed_ms", quick_records=100_000, quick_operations=100_000),
)

# --- S5: upstream YCSB's core workloads ------------------------------------------------------

YCSB_CORE: tuple[Scenario, ...] = tuple(
    Scenario(f"workload{letter}", "ycsb", f"YCSB workload {letter.upper()}", "one YCSB request", BINDING_ENGINES,
             (_load(f"workload{letter}", measured=False), _run(f"workload{letter}")),
             quick_records=10_000, quick_operations=10_000)
    for letter in "abcdef"
)

SCENARIOS: tuple[Scenario, ...] = LEVELDB_2011 + ROCKSDB_VS_LEVELDB + SQLITE_NOTES + FASTDB + YCSB_CORE
SCENARIOS_BY_ID: Mapping[str, Scenario] = {s.id: s for s in SCENARIOS}

# Names that select a group with --scenarios.
SCENARIO_GROUPS: Mapping[str, tuple[str, ...]] = {
    "2011": tuple(s.id for s in LEVELDB_2011),
    "baseline": ("seqwrite", "randwrite", "seqread", "randread"),
    "rocksdb-vs-leveldb": tuple(s.id for s in ROCKSDB_VS_LEVELDB),
    "sqlite-notes": tuple(s.id for s in SQLITE_NOTES),
    "fastdb": tuple(s.id for s in FASTDB),
    "ycsb": tuple(s.id for s in YCSB_CORE),
    "all": tuple(s.id for s in SCENARIOS),
}


def select_scenarios(patterns: list[str] | None) -> list[Scenario]:
    """Scenarios named by ids, group names, section ids ("2B") or shell patterns ("*seqwrite")."""
    if not patterns:
        return list(SCENARIOS)
    wanted: set[str] = set()
    for pattern in patterns:
        matched = set(SCENARIO_GROUPS.get(pattern, ()))
        matched |= {s.id for s in SCENARIOS if s.section.lower() == pattern.lower()}
        matched |= {s.id for s in SCENARIOS if fnmatchcase(s.id, pattern)}
        if not matched:
            raise ValueError(f"no scenario matches {pattern!r}; known: {', '.join(SCENARIOS_BY_ID)}; "
                             f"groups: {', '.join(SCENARIO_GROUPS)}")
        wanted |= matched
    return [s for s in SCENARIOS if s.id in wanted]


def select_engines(names: list[str] | None) -> list[str]:
    if not names:
        return list(ENGINES)
    unknown = [n for n in names if n not in ENGINES]
    if unknown:
        raise ValueError(f"unknown engine(s) {', '.join(unknown)}; known: {', '.join(ENGINES)}")
    return [e for e in ENGINES if e in names]


# --- How the report groups scenarios ---------------------------------------------------------

@dataclass(frozen=True)
class Column:
    """One figure of a report table: a scenario (and variant) under a heading."""

    scenario: str
    label: str
    variant: str = ""
    baseline: tuple[str, str] | None = None   # (scenario, variant) that is 1.00x; None: scenario's own


@dataclass(frozen=True)
class ReportTable:
    id: str
    section: str          # heading of the section the table sits in
    title: str
    columns: tuple[Column, ...]
    layout: str = "engines"   # "engines": a row per engine; "variants": a row per column, engines across;
    #                           "tests": a row per column and engine, with the engine's statistics at close
    note: str = ""


def _seq_random(seq: str, rand: str) -> tuple[Column, ...]:
    return (Column(seq, "Sequential"), Column(rand, "Random"))


S1_WRITES = "2. Write Performance under Different Configurations"
S1_READS = "3. Read Performance under Different Configurations"

REPORT_TABLES: tuple[ReportTable, ...] = (
    ReportTable("1-writes", "1. Baseline Performance", "Baseline: Writes", _seq_random("seqwrite", "randwrite"),
                note="Published: 1,000,000 entries of 16-byte keys and 100-byte values (about half compressible), "
                     "asynchronous writes, 4 MB of cache, one thread."),
    ReportTable("1-reads", "1. Baseline Performance", "Baseline: Reads", _seq_random("seqread", "randread"),
                note="A sequential read is an ordered iterator pass over the whole database (five passes in "
                     "--quick, to get past the JIT), counted in entries/sec."),
    ReportTable("2A", S1_WRITES, "A. Large Values", _seq_random("largevalue-seqwrite", "largevalue-randwrite"),
                note="Published: 1,000 values of 100,000 bytes. No baseline ratio, as on the 2011 page."),
    ReportTable("2B", S1_WRITES, "B. Batch Writes", _seq_random("batch-seqwrite", "batch-randwrite"),
                note="Published: 1,000 batches of 1,000 entries, each applied atomically; in entries/sec. " + _TREEDB_BATCH + "."),
    ReportTable("2C", S1_WRITES, "C. Synchronous Writes", _seq_random("sync-seqwrite", "sync-randwrite"),
                note="Published: 10,000 writes, each durable before it returns."),
    ReportTable("2D", S1_WRITES, "D. Turning Compression Off", _seq_random("nocomp-seqwrite", "nocomp-randwrite")),
    ReportTable("2E", S1_WRITES, "E. Using More Memory", _seq_random("bigwrite-seqwrite", "bigwrite-randwrite"),
                note="128 MB of write-oriented memory instead of 4 MB."),
    ReportTable("3A", S1_READS, "A. Larger Cache", _seq_random("bigread-seqread", "bigread-randread"),
                note="128 MB of read-oriented memory instead of 4 MB."),
    ReportTable("3B", S1_READS, "B. No Compression", _seq_random("nocomp-seqread", "nocomp-randread")),
    ReportTable("rocksdb", "4. LevelDB vs RocksDB Writes", "Write throughput, same tuning",
                (Column("tinykeys", "8-byte keys, empty values"), Column("kv1000", "8-byte keys, 1,000-byte values")),
                layout="tests",
                note="4 MB memtable, at most 2 memtables, level-0 triggers 4 / 8 / 12, one background thread; "
                     "RocksDB also held to LevelDB's 2 MB table files and 10 MB level 1 (static level sizes). "
                     "The published run explains RocksDB's result by write stalls and an overgrown level 1."),
    ReportTable("pk-query-threads", "5. SQLite Performance Notes", "Primary-key queries by threads", tuple(
        Column("pk-query-threads", f"{cache} cache, {n} thread{'s' if n > 1 else ''}", f"{cache}-{n}t",
               baseline=("pk-query-threads", "private-1t"))
        for cache, threads in (("private", PK_QUERY_THREADS), ("shared", PK_QUERY_SHARED_THREADS))
        for n in threads), layout="variants", note="Queries/sec over all threads; shared = SQLITE_OPEN_SHAREDCACHE."),
    ReportTable("bulk-import", "5. SQLite Performance Notes", "Bulk import", (
        Column("bulk-import", "one row per transaction", "one-row-per-txn",
               baseline=("bulk-import", "one-row-per-txn")),
        Column("bulk-import", "all rows in one transaction", "all-rows-one-txn",
               baseline=("bulk-import", "one-row-per-txn")),
    ), layout="variants", note="Rows/sec. Statements are prepared once, so the published "
                               "'one transaction, prepared statement' figure is the closest match of the second row."),
    ReportTable("pk-update", "5. SQLite Performance Notes", "Primary-key updates", (
        Column("pk-update", "1 row per transaction", "one-row-per-txn", baseline=("pk-update", "one-row-per-txn")),
        Column("pk-update", "1,000 rows per transaction", "1000-rows-per-txn",
               baseline=("pk-update", "one-row-per-txn")),
        Column("pk-update", "10,000 rows per transaction", "10000-rows-per-txn",
               baseline=("pk-update", "one-row-per-txn")),
    ), layout="variants", note="Updates/sec of c1 = c1 + 1 by random primary key."),
    ReportTable("fastdb", "6. FastDB vs SQLite", "Elapsed time (lower is better)", (
        Column("fastdb-insert", "insert 10,000 rows, one transaction", "one-txn-10k"),
        Column("fastdb-insert", "insert 100,000 rows, one transaction", "one-txn-100k"),
        Column("fastdb-insert", "insert 1,000,000 rows, one transaction", "one-txn-1m"),
        Column("fastdb-insert", "insert 10,000 rows, one transaction each", "txn-per-row-10k"),
        Column("fastdb-index-search", "100,000 index searches", "index-search"),
        Column("fastdb-delete", "delete 100,000 rows one by one", "delete-one-by-one"),
    ), layout="variants", note="Milliseconds of YCSB run time at the published sizes."),
    ReportTable("ycsb", "7. YCSB Core Workloads", "Throughput of the standard mixes",
                tuple(Column(f"workload{c}", c.upper()) for c in "abcdef"),
                note="Upstream's parameters: 10 fields of 100 bytes, zipfian requests (D: latest)."),
)
