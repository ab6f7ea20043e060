"""The published catalogue: every published test the suite reproduces, as data, and the lookups over it.

Built on model.py; its groups, lookups by id and selection take in the scale group (scale_group.py) and the
user's own workload files (own_workloads.py) too. The report's tables, which group scenarios the way the
published pages did, are in report_tables.py. A file missing from workloads/ makes a failed cell, not a crash.
"""

from __future__ import annotations

from collections.abc import Mapping
from fnmatch import fnmatchcase

from .engines import REGISTERED
from .model import BINDING_ENGINES, ENGINES, MISSES_ALLOWED, Scenario, Step, load_step, run_step
from .own_workloads import OWN_SCENARIOS
from .pages import FASTDB_PAGE, LEVELDB_2011_PAGE, ROCKSDB_PAGE, SQLITE_PAGE
from .scale_group import SCALE

# --- S1: LevelDB benchmarks, July 2011 -----------------------------------------------------

# --quick times each measured step (runner.quick_timed): QUICK_STEP_SECONDS gives the steady check its 20 whole
# intervals of 100 ms (steady.py) with the first and the last left out. Its counts are then only a ceiling: a run
# has QUICK_TIMED_OPERATIONS, a fill at least QUICK_TIMED_RECORDS (the key space it draws from, as db_bench's
# --num), so that no engine here reaches them in that time.
QUICK_STEP_SECONDS = 2.3
QUICK_TIMED_RECORDS = 4_000_000
QUICK_TIMED_OPERATIONS = 50_000_000

QUICK_ENTRIES = 100_000  # the 2011 runs used 1,000,000
QUICK_SHORT_ENTRIES = 1_000  # large values and synced writes: 300 measured the open and a cold JVM
QUICK_READSEQ_PASSES = 5  # one pass over 100k entries in a cold JVM mostly measures the JIT


def knob_notes(scenario_id: str, knob: str = "") -> dict[str, str]:
    """The registry's note for each engine's row of a scenario (`<engine>.note.<id>`, else `.note.<knob>`):
    where the knob the scenario varies does not apply to an engine, or costs it something of its own."""
    notes = {}
    for e in REGISTERED.engines:
        note = e.notes.get(scenario_id) or (e.notes.get(knob) if knob else None)
        if note:
            notes[e.name] = note
    return notes


def _write(
    id_: str,
    section: str,
    title: str,
    files: tuple[str, ...],
    order: str,
    baseline: str | None,
    metric: str = "ops",
    quick: int = QUICK_ENTRIES,
    knob: str = "",
) -> Scenario:
    what = "one entry written" if metric != "batch" else "one entry, 1,000 per atomic batch"
    return Scenario(
        id_,
        section,
        title,
        what,
        ENGINES,
        (load_step(*files),),
        metric=metric,
        order=order,
        baseline=baseline,
        quick_records=quick,
        engine_notes=knob_notes(id_, knob),
    )


def _read(
    id_: str,
    section: str,
    title: str,
    read_file: str,
    options: tuple[str, ...],
    order: str,
    baseline: str | None,
    knob: str = "",
) -> Scenario:
    # Fill with the random-order write file (db_bench read after fillrandom), then read.
    fill = load_step("randwrite", *options, measured=False)
    if read_file == "seqread":
        read = run_step("seqread", *options, quick_operations=QUICK_READSEQ_PASSES)
        return Scenario(
            id_,
            section,
            title,
            "one entry of a full ordered pass",
            ENGINES,
            (fill, read),
            metric="entries",
            order=order,
            baseline=baseline,
            quick_records=QUICK_ENTRIES,
            engine_notes=knob_notes(id_, knob),
        )
    # db_bench's readrandom draws uniformly from [0, num) over a fill that drew its keys: ~37 % miss.
    read = run_step(read_file, *options, allowed_returns=MISSES_ALLOWED)
    return Scenario(
        id_,
        section,
        title,
        "one point read of a key drawn at random (about 63 % exist)",
        ENGINES,
        (fill, read),
        order=order,
        baseline=baseline,
        quick_records=QUICK_ENTRIES,
        quick_operations=QUICK_ENTRIES,
        engine_notes=knob_notes(id_, knob),
    )


LEVELDB_2011: tuple[Scenario, ...] = (
    _write("seqwrite", "1", "Sequential Writes", ("seqwrite",), "sequential", "seqwrite"),
    _write("randwrite", "1", "Random Writes", ("randwrite",), "random", "randwrite"),
    _read("seqread", "1", "Sequential Reads", "seqread", (), "sequential", "seqread"),
    _read("randread", "1", "Random Reads", "randread", (), "random", "randread"),
    # The page gives no ratio for large values: a different value size is not a variation of the baseline.
    _write(
        "largevalue-seqwrite",
        "2A",
        "Large Values, Sequential Writes",
        ("largevalue-seqwrite",),
        "sequential",
        None,
        quick=QUICK_SHORT_ENTRIES,
    ),
    _write(
        "largevalue-randwrite",
        "2A",
        "Large Values, Random Writes",
        ("largevalue-randwrite",),
        "random",
        None,
        quick=QUICK_SHORT_ENTRIES,
    ),
    _write(
        "batch-seqwrite",
        "2B",
        "Batch Writes, Sequential",
        ("batch-seqwrite",),
        "sequential",
        "seqwrite",
        metric="batch",
        knob="batch",
    ),
    _write(
        "batch-randwrite",
        "2B",
        "Batch Writes, Random",
        ("batch-randwrite",),
        "random",
        "randwrite",
        metric="batch",
        knob="batch",
    ),
    _write(
        "sync-seqwrite",
        "2C",
        "Synchronous Writes, Sequential",
        ("sync-seqwrite",),
        "sequential",
        "seqwrite",
        quick=QUICK_SHORT_ENTRIES,
    ),
    _write(
        "sync-randwrite",
        "2C",
        "Synchronous Writes, Random",
        ("sync-randwrite",),
        "random",
        "randwrite",
        quick=QUICK_SHORT_ENTRIES,
    ),
    _write(
        "nocomp-seqwrite",
        "2D",
        "No Compression, Sequential Writes",
        ("seqwrite", "nocompression"),
        "sequential",
        "seqwrite",
        knob="compression",
    ),
    _write(
        "nocomp-randwrite",
        "2D",
        "No Compression, Random Writes",
        ("randwrite", "nocompression"),
        "random",
        "randwrite",
        knob="compression",
    ),
    _write(
        "bigwrite-seqwrite",
        "2E",
        "More Memory, Sequential Writes",
        ("seqwrite", "bigwrite-memory"),
        "sequential",
        "seqwrite",
        knob="writebuffer",
    ),
    _write(
        "bigwrite-randwrite",
        "2E",
        "More Memory, Random Writes",
        ("randwrite", "bigwrite-memory"),
        "random",
        "randwrite",
        knob="writebuffer",
    ),
    _read(
        "bigread-seqread",
        "3A",
        "Larger Cache, Sequential Reads",
        "seqread",
        ("bigread-memory",),
        "sequential",
        "seqread",
        knob="cache",
    ),
    _read(
        "bigread-randread",
        "3A",
        "Larger Cache, Random Reads",
        "randread",
        ("bigread-memory",),
        "random",
        "randread",
        knob="cache",
    ),
    _read(
        "nocomp-seqread",
        "3B",
        "No Compression, Sequential Reads",
        "seqread",
        ("nocompression",),
        "sequential",
        "seqread",
        knob="compression",
    ),
    _read(
        "nocomp-randread",
        "3B",
        "No Compression, Random Reads",
        "randread",
        ("nocompression",),
        "random",
        "randread",
        knob="compression",
    ),
)

# --- S2: RocksDB vs LevelDB write throughput -------------------------------------------------

ROCKSDB_VS_LEVELDB: tuple[Scenario, ...] = (
    Scenario(
        "tinykeys",
        ROCKSDB_PAGE.section,
        "8-byte keys, empty values",
        "one write of an 8-byte key, empty value",
        ROCKSDB_PAGE.engines,
        (load_step("tinykeys"),),
        quick_records=200_000,
        bytes_per_operation=8,
    ),
    Scenario(
        "kv1000",
        ROCKSDB_PAGE.section,
        "8-byte keys, 1,000-byte values",
        "one write of an 8-byte key, 1,000-byte value",
        ROCKSDB_PAGE.engines,
        # 200,000 values of 1 KB take 3-6 s, and fill enough levels to show RocksDB's level 1 overgrowing
        (load_step("kv1000", quick_timed=False),),
        quick_records=200_000,
        bytes_per_operation=1008,
    ),
)

# --- S3: SQLite performance notes --------------------------------------------------------------
# The variants set YCSB's threadcount and the page's one engine's properties; the workload files hold the rest.

PK_QUERY_THREADS = (1, 2, 4, 8, 16)
QUICK_READS_PER_THREAD = 40_000  # pk-query-threads in --quick: as many reads per thread at every thread count
PK_QUERY_SHARED_THREADS = (1, 2, 4)  # the published shared-cache figures stop at 4 threads


def _pk_query_steps() -> tuple[Step, ...]:
    runs = [
        run_step(
            "pk-query-threads",
            variant=f"{cache}-{n}t",
            operation_scale=n,
            props=(("threadcount", str(n)), (f"{SQLITE_PAGE.engines[0]}.sharedcache", str(cache == "shared").lower())),
        )
        for cache, threads in (("private", PK_QUERY_THREADS), ("shared", PK_QUERY_SHARED_THREADS))
        for n in threads
    ]
    return (load_step("pk-query-threads", measured=False), *runs)


# The SQLite notes' and FastDB's tables are upstream JDBC's columns layout: their workload files set the columns
# schema, and an engine with a columns client (the registry's `client.columns`) runs them there.
SQLITE_COLUMNS: Mapping[str, str] = {e.name: e.clients["columns"] for e in REGISTERED.engines if "columns" in e.clients}

SQLITE_NOTES: tuple[Scenario, ...] = (
    Scenario(
        "pk-query-threads",
        SQLITE_PAGE.section,
        "Primary-key queries from 1-16 threads, private vs shared cache",
        "one primary-key lookup (operations are per thread)",
        SQLITE_PAGE.engines,
        _pk_query_steps(),
        quick_records=10_000,
        # per thread: 5,000 reads (0.2 s) measured the one-thread step cold, and 8 threads "2.87x" on 2 cores
        quick_operations=QUICK_READS_PER_THREAD,
        bindings=SQLITE_COLUMNS,
    ),
    Scenario(
        "bulk-import",
        SQLITE_PAGE.section,
        "Bulk import: rows per transaction",
        "one row inserted",
        SQLITE_PAGE.engines,
        (
            load_step("bulk-import", variant="one-row-per-txn", props=(("batchsize", "1"),), quick_records=500),
            load_step("bulk-import", variant="all-rows-one-txn", props=(("batchsize", "{recordcount}"),)),
        ),
        quick_records=20_000,
        bindings=SQLITE_COLUMNS,
    ),
    Scenario(
        "pk-update",
        SQLITE_PAGE.section,
        "Primary-key updates: rows per transaction",
        "one row updated",
        SQLITE_PAGE.engines,
        (
            # the set-up rows go in 1,000 to a transaction: one fsync each instead of one a row (8.4 s of the
            # quick run's 16.5 s in this cell, 85 s at the full 100,000), the same rows in the same order
            load_step("pk-update", measured=False, props=(("batchsize", "1000"),)),
            run_step("pk-update", variant="one-row-per-txn", props=(("batchsize", "1"),), quick_operations=500),
            run_step("pk-update", variant="1000-rows-per-txn", props=(("batchsize", "1000"),)),
            # 2,000 operations never filled one 10,000-row transaction: three full ones in --quick
            run_step(
                "pk-update", variant="10000-rows-per-txn", props=(("batchsize", "10000"),), quick_operations=30_000
            ),
        ),
        quick_records=10_000,
        quick_operations=10_000,
        bindings=SQLITE_COLUMNS,
    ),
)

# --- S4: FastDB vs SQLite: elapsed times at the published sizes -------------------------------

FASTDB_ENGINES = BINDING_ENGINES  # FastDB itself is not packaged; the shape runs on every engine

FASTDB: tuple[Scenario, ...] = (
    Scenario(
        "fastdb-insert",
        FASTDB_PAGE.section,
        "Inserts: one transaction, and one transaction per row",
        "one row inserted",
        FASTDB_ENGINES,
        (
            load_step(
                "fastdb-insert-one-txn", variant="one-txn-10k", records=10_000, props=(("batchsize", "{recordcount}"),)
            ),
            load_step(
                "fastdb-insert-one-txn",
                variant="one-txn-100k",
                records=100_000,
                props=(("batchsize", "{recordcount}"),),
            ),
            load_step(
                "fastdb-insert-one-txn",
                variant="one-txn-1m",
                records=1_000_000,
                in_quick=False,
                props=(("batchsize", "{recordcount}"),),
            ),
            load_step(
                "fastdb-insert-txn-per-row", variant="txn-per-row-10k", records=10_000, props=(("batchsize", "1"),)
            ),
        ),
        metric="elapsed_ms",
        bindings=SQLITE_COLUMNS,
    ),
    Scenario(
        "fastdb-index-search",
        FASTDB_PAGE.section,
        "Index search after inserts",
        "one point lookup",
        FASTDB_ENGINES,
        (load_step("fastdb-index-search", measured=False), run_step("fastdb-index-search", variant="index-search")),
        metric="elapsed_ms",
        quick_records=100_000,
        quick_operations=100_000,
        bindings=SQLITE_COLUMNS,
    ),
    Scenario(
        "fastdb-delete",
        FASTDB_PAGE.section,
        "Deletes one by one",
        "one row deleted",
        FASTDB_ENGINES,
        (
            load_step("fastdb-delete-one-by-one", measured=False),
            # The file deletes keys in sequence, each once: a NOT_FOUND would be a lost record.
            run_step("fastdb-delete-one-by-one", variant="delete-one-by-one", quick_timed=False),
        ),
        metric="elapsed_ms",
        quick_records=100_000,
        quick_operations=100_000,
        bindings=SQLITE_COLUMNS,
    ),
)

# --- S5: upstream YCSB's core workloads ------------------------------------------------------

YCSB_CORE: tuple[Scenario, ...] = tuple(
    Scenario(
        f"workload{letter}",
        "ycsb",
        f"YCSB workload {letter.upper()}",
        "one YCSB request",
        ENGINES,  # every engine row of the run, both LevelDB libraries included
        (load_step(f"workload{letter}", measured=False), run_step(f"workload{letter}")),
        quick_records=10_000,
        quick_operations=10_000,
    )
    for letter in "abcdef"
)

SCENARIOS: tuple[Scenario, ...] = LEVELDB_2011 + ROCKSDB_VS_LEVELDB + SQLITE_NOTES + FASTDB + YCSB_CORE

SCENARIOS_BY_ID: dict[str, Scenario] = {s.id: s for s in SCENARIOS}  # scale: SCALE, built per run


def register_own(scenarios: list[Scenario]) -> None:
    for s in scenarios:
        OWN_SCENARIOS[s.id] = s
        SCENARIOS_BY_ID[s.id] = s


def forget_own() -> None:
    """Back to the catalogue alone (a process that reads several runs' results, the tests)."""
    for id_ in OWN_SCENARIOS:
        SCENARIOS_BY_ID.pop(id_, None)
    OWN_SCENARIOS.clear()


def catalogue() -> tuple[Scenario, ...]:
    """The catalogue in report order, the user's workload files registered last (the scale group apart)."""
    return SCENARIOS + tuple(OWN_SCENARIOS.values())


# Names that select a group with --scenarios (a published page's: pages.csv's `group`).
SCENARIO_GROUPS: Mapping[str, tuple[str, ...]] = {
    LEVELDB_2011_PAGE.group: tuple(s.id for s in LEVELDB_2011),
    "baseline": ("seqwrite", "randwrite", "seqread", "randread"),
    ROCKSDB_PAGE.group: tuple(s.id for s in ROCKSDB_VS_LEVELDB),
    SQLITE_PAGE.group: tuple(s.id for s in SQLITE_NOTES),
    FASTDB_PAGE.group: tuple(s.id for s in FASTDB),
    "ycsb": tuple(s.id for s in YCSB_CORE),
    "all": tuple(s.id for s in SCENARIOS),
    "scale": tuple(s.id for s in SCALE),  # not part of "all"
}


def select_scenarios(patterns: list[str] | None, scale: tuple[Scenario, ...] = SCALE) -> list[Scenario]:
    """Scenarios named by ids, group names, section ids ("2B") or shell patterns ("*seqwrite");
    scale: the scale group's cells (built for the run's series), chosen only by name."""
    if not patterns:
        return list(SCENARIOS)
    catalogue = SCENARIOS + scale
    wanted: set[str] = set()
    for pattern in patterns:
        matched = {s.id for s in scale} if pattern == "scale" else set(SCENARIO_GROUPS.get(pattern, ()))
        matched |= {s.id for s in catalogue if s.section.lower() == pattern.lower()}
        matched |= {s.id for s in catalogue if fnmatchcase(s.id, pattern)}
        if not matched:
            raise ValueError(
                f"no scenario matches {pattern!r}; known: {', '.join(SCENARIOS_BY_ID)}; "
                f"groups: {', '.join(SCENARIO_GROUPS)}"
            )
        wanted |= matched
    return [s for s in catalogue if s.id in wanted]


def select_engines(names: list[str] | None) -> list[str]:
    if not names:
        return list(ENGINES)
    unknown = [n for n in names if n not in ENGINES]
    if unknown:
        raise ValueError(f"unknown engine(s) {', '.join(unknown)}; known: {', '.join(ENGINES)}")
    return [e for e in ENGINES if e in names]
