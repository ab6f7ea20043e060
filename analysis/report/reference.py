"""The published figures (analysis/reference/*.csv, a file per page of pages.csv), keyed like our figures:
(scenario id, variant, engine) -> Published."""

from __future__ import annotations

import csv
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..catalogue.engines import REGISTERED
from ..catalogue.pages import FASTDB_PAGE, LEVELDB_2011_PAGE, REFERENCE_DIR, ROCKSDB_PAGE, SQLITE_PAGE

# Column headings for each source, "2011, X5650, ext3" style: when, on what.
LEVELDB_2011_LABEL = "2011, X5650, ext3"
ROCKSDB_LABEL = "published, LevelDB 1.18 / RocksDB 3.10"
SQLITE_LABEL = "published, SQLite 3.8.11, 8 cores, SSD"
FASTDB_LABEL = "published, FastDB vs SQLite"

# Engine names in the published tables -> ours: each engine's own name and its `published.names` (the registry);
# "fastdb" has no binding: a published-only row.
ENGINE_NAMES: Mapping[str, str] = {
    **{e.name: e.name for e in REGISTERED.engines},
    **{name: e.name for e in REGISTERED.engines for name in e.published_names},
    "fastdb-disk": "fastdb",
    "fastdb-disk-hash": "fastdb",
}
PUBLISHED_ONLY_ENGINES: Mapping[str, str] = {"fastdb": "FastDB (disk)"}

# (section, operation, order) of the 2011 table -> our scenario id.
LEVELDB_2011_SCENARIOS: Mapping[tuple[str, str, str], str] = {
    ("1", "write", "sequential"): "seqwrite",
    ("1", "write", "random"): "randwrite",
    ("1", "read", "sequential"): "seqread",
    ("1", "read", "random"): "randread",
    ("2A", "write", "sequential"): "largevalue-seqwrite",
    ("2A", "write", "random"): "largevalue-randwrite",
    ("2B", "write", "sequential"): "batch-seqwrite",
    ("2B", "write", "random"): "batch-randwrite",
    ("2C", "write", "sequential"): "sync-seqwrite",
    ("2C", "write", "random"): "sync-randwrite",
    ("2D", "write", "sequential"): "nocomp-seqwrite",
    ("2D", "write", "random"): "nocomp-randwrite",
    ("2E", "write", "sequential"): "bigwrite-seqwrite",
    ("2E", "write", "random"): "bigwrite-randwrite",
    ("3A", "read", "sequential"): "bigread-seqread",
    ("3A", "read", "random"): "bigread-randread",
    ("3B", "read", "sequential"): "nocomp-seqread",
    ("3B", "read", "random"): "nocomp-randread",
}

FASTDB_VARIANTS: Mapping[tuple[str, str], tuple[str, str]] = {
    ("insert-one-txn", "10000"): ("fastdb-insert", "one-txn-10k"),
    ("insert-one-txn", "100000"): ("fastdb-insert", "one-txn-100k"),
    ("insert-one-txn", "1000000"): ("fastdb-insert", "one-txn-1m"),
    ("insert-txn-per-row", "10000"): ("fastdb-insert", "txn-per-row-10k"),
    ("index-search", "100000"): ("fastdb-index-search", "index-search"),
    ("delete-one-by-one", "100000"): ("fastdb-delete", "delete-one-by-one"),
    ("delete-all-one-statement", "100000"): ("fastdb-delete", "delete-all-one-statement"),
}

SQLITE_VARIANTS: Mapping[tuple[str, str], str] = {
    ("bulk-import", "one-row-per-txn"): "one-row-per-txn",
    # Our binding prepares its statements once: the prepared figure is the like-for-like one.
    ("bulk-import", "all-rows-one-txn-prepared"): "all-rows-one-txn",
    ("pk-update", "one-row-per-txn"): "one-row-per-txn",
    ("pk-update", "1000-rows-per-txn"): "1000-rows-per-txn",
    ("pk-update", "10000-rows-per-txn"): "10000-rows-per-txn",
}


@dataclass(frozen=True)
class Published:
    value: float
    unit: str
    label: str  # the column heading of its source
    x_baseline: float | None = None  # as published, or computed from the same source's baseline
    mb_per_sec: float | None = None
    note: str = ""


Key = tuple[str, str, str]  # (scenario, variant, engine)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def leveldb_2011(rows: list[dict[str, str]]) -> dict[Key, Published]:
    figures: dict[Key, float] = {}
    given: dict[Key, float | None] = {}
    for row in rows:
        scenario = LEVELDB_2011_SCENARIOS[(row["section"], row["operation"], row["order"])]
        key = (scenario, "", ENGINE_NAMES[row["engine"]])
        figures[key] = float(row["ops_per_sec"])
        given[key] = float(row["x_baseline"]) if row["x_baseline"] else None
    baseline_of = {
        "write": {"sequential": "seqwrite", "random": "randwrite"},
        "read": {"sequential": "seqread", "random": "randread"},
    }
    out = {}
    for row in rows:
        scenario = LEVELDB_2011_SCENARIOS[(row["section"], row["operation"], row["order"])]
        engine = ENGINE_NAMES[row["engine"]]
        key = (scenario, "", engine)
        ratio = given[key]
        if ratio is None and row["section"] not in ("1", "2A"):
            base = figures.get((baseline_of[row["operation"]][row["order"]], "", engine))
            ratio = figures[key] / base if base else None
        unit = (
            "entries/sec"
            if row["section"] == "2B" or (row["operation"], row["order"]) == ("read", "sequential")
            else row["unit"]
        )
        out[key] = Published(figures[key], unit, LEVELDB_2011_LABEL, ratio)
    return out


def rocksdb_vs_leveldb(rows: list[dict[str, str]]) -> dict[Key, Published]:
    scenario_names = {"tiny-keys": "tinykeys", "kv-1000": "kv1000"}
    out: dict[Key, Published] = {}
    for row in rows:
        key = (scenario_names[row["scenario"]], "", ENGINE_NAMES[row["engine"]])
        if key in out:
            continue  # the first row is the like-for-like one (flush and compaction share a thread)
        out[key] = Published(
            float(row["ops_per_sec"]), "ops/sec", ROCKSDB_LABEL, mb_per_sec=float(row["MB_per_sec"]), note=row["notes"]
        )
    return out


def sqlite_notes(rows: list[dict[str, str]]) -> dict[Key, Published]:
    out: dict[Key, Published] = {}
    for row in rows:
        if row["scenario"] == "pk-query-threads":
            variant = f"{row['variant'].split('-')[0]}-{row['threads']}t"
        else:
            variant = SQLITE_VARIANTS.get((row["scenario"], row["variant"]), "")
            if not variant:
                continue
        unit = "queries/sec" if row["metric"] == "qps" else "rows/sec"
        out[(row["scenario"], variant, ENGINE_NAMES[row["engine"]])] = Published(
            float(row["value"]), unit, SQLITE_LABEL, note=row["notes"]
        )
    return out


def fastdb_vs_sqlite(rows: list[dict[str, str]]) -> dict[Key, Published]:
    out: dict[Key, Published] = {}
    for row in rows:
        target = FASTDB_VARIANTS.get((row["scenario"], row["records"]))
        engine = ENGINE_NAMES.get(row["engine"])
        if target is None or engine is None:
            continue
        key = (target[0], target[1], engine)
        out.setdefault(key, Published(float(row["elapsed_ms"]), "ms", FASTDB_LABEL, note=row["notes"]))
    return out


def load_published(directory: Path = REFERENCE_DIR) -> dict[Key, Published]:
    """Every published figure we can put beside one of ours."""
    published: dict[Key, Published] = {}
    for page, read in (
        (LEVELDB_2011_PAGE, leveldb_2011),
        (ROCKSDB_PAGE, rocksdb_vs_leveldb),
        (SQLITE_PAGE, sqlite_notes),
        (FASTDB_PAGE, fastdb_vs_sqlite),
    ):
        published.update(read(_rows(directory / page.file)))
    return published


@dataclass(frozen=True)
class PublishedFinding:
    id: str
    source: str
    finding: str
    how_to_check: str
    engines: tuple[str, ...] = ()  # the engines its check compares, in the order of the check's roles
    each_row_of: str = ""  # a binding among them judged on each of its rows (suite engines) in turn


def load_findings(directory: Path = REFERENCE_DIR) -> list[PublishedFinding]:
    return [
        PublishedFinding(
            r["id"], r["source"], r["finding"], r["how_to_check"], tuple(r["engines"].split()), r["each_row_of"]
        )
        for r in _rows(directory / "findings.csv")
    ]
