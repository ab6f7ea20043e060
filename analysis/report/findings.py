"""Each published finding (reference/findings.csv) checked against this run's figures.

A check names the figures it needs; if any is missing the finding is "not measured" (a partial
comparison would read as a verdict it is not). Otherwise it is "reproduced" or "not reproduced",
with the numbers and the criterion that decided it. A finding of two claims (F12: LevelDB is faster,
and RocksDB's level 1 overgrows) is reproduced when both hold, not reproduced when either fails,
and not measured when one holds and the other could not be measured.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from ..catalogue.model import ENGINE_LABELS
from ..results.noise import NO_NOISE, Noise
from ..results.results import CloseStats, Figure
from .formatting import format_count, format_level_one, format_level_shape, format_number, format_ratio
from .reference import PublishedFinding

REPRODUCED = "reproduced"
NOT_REPRODUCED = "not reproduced"
NOT_MEASURED = "not measured"
TOO_CLOSE = "too close to call"

# The findings decided by the margin between two engines' figures, and their scenarios: with --full
# these cells run MARGIN_REPEATS times, so that a margin inside the noise is reported as such.
MARGIN_FINDINGS: Mapping[str, tuple[str, ...]] = {
    "F1": ("seqwrite",),
    "F2": ("randwrite",),
    "F3": ("seqread",),
    "F4": ("randread",),
    "F11": ("tinykeys",),
    "F12": ("kv1000",),
}
MARGIN_SCENARIOS: tuple[str, ...] = tuple(dict.fromkeys(s for ids in MARGIN_FINDINGS.values() for s in ids))
MARGIN_REPEATS = 3

Values = Mapping[tuple[str, str, str], float]  # (engine, scenario, variant) -> figure
Figures = Mapping[tuple[str, str, str], Figure]  # the same keys -> the whole Figure (statistics at close)


@dataclass(frozen=True)
class FindingResult:
    id: str
    source: str
    finding: str
    status: str
    evidence: str
    library: str = ""  # the LevelDB row a 2011 finding was judged on, when the run has both libraries
    scenarios: tuple[str, ...] = ()  # the scenarios its check reads figures of
    figures: tuple[tuple[str, str, str], ...] = ()  # the (engine, scenario, variant) figures it read

    @property
    def label(self) -> str:
        """The id as the report shows it: 'F1', or 'F1 (LevelDB 1.23)' when judged per library."""
        return f"{self.id} ({LIBRARY_SHORT.get(self.library, self.library)})" if self.library else self.id


# The 2011 page's findings about LevelDB, judged on each LevelDB library the run has (its sections run
# on both); the RocksDB-vs-LevelDB findings (F11, F12) run on leveldbjni only.
LEVELDB_FINDINGS: tuple[str, ...] = ("F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9")
LEVELDB_LIBRARIES: tuple[str, ...] = ("leveldb", "leveldb-system")
LIBRARY_SHORT: Mapping[str, str] = {"leveldb": "LevelDB 1.13", "leveldb-system": "LevelDB 1.23"}


@dataclass(frozen=True)
class Verdict:
    status: str
    evidence: str


class MissingFigures(Exception):
    def __init__(self, missing: list[str]):
        super().__init__(", ".join(missing))
        self.missing = missing


class Numbers:
    """The figures a check reads; every read of a missing one is remembered."""

    def __init__(
        self,
        values: Values,
        machine: Mapping | None = None,
        figures: Figures | None = None,
        leveldb: str = "leveldb",
        noise: Noise = NO_NOISE,
    ):
        self.values = values
        self.noise = noise
        self.leveldb = leveldb  # the LevelDB row a finding about "LevelDB" is judged on
        self.machine = machine or {}
        self.figures = figures or {}
        self.missing: list[str] = []
        self.scenarios: dict[str, None] = {}  # every scenario read, in order
        self.read: dict[tuple[str, str, str], None] = {}  # every figure read, in order

    def get(self, engine: str, scenario: str, variant: str = "") -> float:
        self.scenarios[scenario] = None
        self.read[(engine, scenario, variant)] = None
        value = self.values.get((engine, scenario, variant))
        if value is None:
            self.missing.append(f"{scenario}{'/' + variant if variant else ''} on {label(engine)}")
            return float("nan")
        return value

    def ratio(self, engine: str, scenario: str, baseline: str, variant: str = "", base_variant: str = "") -> float:
        return self.get(engine, scenario, variant) / self.get(engine, baseline, base_variant)

    def spread(self, engine: str, scenario: str, variant: str = "") -> float | None:
        """(max - min) / median of that figure over its repeats; with one run, this machine's spread for its
        kind of step as the run measured it (noise.py); None when neither is known."""
        return self.noise.of(self.figures.get((engine, scenario, variant)))

    def gain_spread(self, engine: str, scenario: str, baseline: str) -> float | None:
        """The spread of the ratio of two of an engine's figures (a gain, x baseline): the sum of their spreads,
        each relative, as a ratio's worst case; None unless both are known."""
        spreads = (self.spread(engine, scenario), self.spread(engine, baseline))
        return None if None in spreads else sum(s for s in spreads if s is not None)

    def band_note(self, engines: tuple[str, ...], scenario: str, variant: str = "") -> str:
        """Which of these figures were one run judged by their kind's measured spread, as a clause ('' if none)."""
        one_run = [e for e in engines if (f := self.figures.get((e, scenario, variant))) and self.noise.band_of(f)]
        if not one_run:
            return ""
        figure = self.figures[(one_run[0], scenario, variant)]
        band = self.noise.band_of(figure)
        assert band is not None
        return (
            f"; {', '.join(label(e) for e in one_run)} one run, judged by this machine's run-to-run spread for a "
            f"{band.kind} step, {_percent(band.spread)} ({band.source()})"
        )

    def close(self, engine: str, scenario: str, variant: str = "") -> CloseStats | None:
        """The engine's statistics at close of that figure's step; None when it printed none."""
        figure = self.figures.get((engine, scenario, variant))
        return figure.close if figure else None

    def check(self) -> None:
        if self.missing:
            raise MissingFigures(list(dict.fromkeys(self.missing)))


def label(engine: str) -> str:
    return ENGINE_LABELS.get(engine, engine)


def too_close(margin: float, spreads: list[float | None]) -> float | None:
    """The spread that a margin (relative, signed) lies inside, or None when the margin decides:
    both figures were repeated and the margin is no larger than the wider of their spreads (pure)."""
    if len(spreads) < 2 or any(s is None for s in spreads):
        return None
    spread = max(s for s in spreads if s is not None)
    return spread if abs(margin) <= spread else None


def _percent(fraction: float) -> str:
    return f"{fraction * 100:.1f} %"


def _fastest(n: Numbers, scenario: str, engine: str, rivals: tuple[str, ...], unit: str) -> Verdict:
    mine = n.get(engine, scenario)
    others = {r: n.get(r, scenario) for r in rivals}
    n.check()
    holds = all(mine > v for v in others.values())
    rival_text = ", ".join(f"{label(r)} {format_number(v)}" for r, v in others.items())
    relation = ">" if holds else "is not above all of"
    evidence = f"{scenario}: {label(engine)} {format_number(mine)} {relation} {rival_text} {unit}"
    closest = max(others, key=others.__getitem__)
    margin = (mine - others[closest]) / others[closest] if others[closest] else float("inf")
    spread = too_close(margin, [n.spread(engine, scenario), n.spread(closest, scenario)])
    if spread is not None:
        return Verdict(
            TOO_CLOSE,
            f"too close to call on this machine (margin {_percent(margin)}, spread {_percent(spread)}): {evidence} "
            f"(medians; {label(engine)} against {label(closest)}{n.band_note((engine, closest), scenario)})",
        )
    return Verdict(REPRODUCED if holds else NOT_REPRODUCED, evidence)


def _leveldb_weakest_large_values(n: Numbers) -> Verdict:
    tables = {
        s: {e: n.get(e, s) for e in (n.leveldb, "kyoto", "sqlite")}
        for s in ("largevalue-seqwrite", "largevalue-randwrite")
    }
    n.check()
    parts, holds = [], True
    for scenario, figures in tables.items():
        lowest = min(figures, key=figures.__getitem__)
        holds &= lowest == n.leveldb
        parts.append(
            f"{scenario}: "
            + ", ".join(f"{label(e)} {format_number(v)}" for e, v in figures.items())
            + f" ops/sec (lowest: {label(lowest)})"
        )
    return Verdict(REPRODUCED if holds else NOT_REPRODUCED, "; ".join(parts))


BATCH_ORDERS = (("sequential", "batch-seqwrite", "seqwrite"), ("random", "batch-randwrite", "randwrite"))


def _batching_helps_sqlite_more(n: Numbers) -> Verdict:
    gains = {
        order: (n.ratio("sqlite", batch, plain), n.ratio(n.leveldb, batch, plain))
        for order, batch, plain in BATCH_ORDERS
    }
    n.check()
    parts, against, close = [], [], []
    for order, batch, plain in BATCH_ORDERS:
        sqlite, leveldb = gains[order]
        parts.append(
            f"{order}: SQLite3 {format_ratio(sqlite)}, {label(n.leveldb)} {format_ratio(leveldb)} of unbatched"
        )
        # A gain is the ratio of two figures: the margin between two gains is judged by the wider of their spreads.
        margin = sqlite / leveldb - 1
        spread = too_close(margin, [n.gain_spread("sqlite", batch, plain), n.gain_spread(n.leveldb, batch, plain)])
        if spread is not None:
            close.append(f"{order}: margin {_percent(margin)}, spread {_percent(spread)}")
        elif sqlite <= leveldb:
            against.append(order)
    evidence = "; ".join(parts) + " (criterion: SQLite's gain above LevelDB's in both orders)"
    if against or not close:
        return Verdict(NOT_REPRODUCED if against else REPRODUCED, evidence)
    return Verdict(
        TOO_CLOSE,
        f"too close to call on this machine ({'; '.join(close)}; a gain's spread is the sum of its two figures' "
        f"spreads): {evidence}",
    )


SYNC_ENGINES = ("kyoto", "sqlite")  # and the LevelDB row judged


def _sync_writes_at_flush_rate(n: Numbers) -> Verdict:
    fsync = n.machine.get("fsync_per_sec")
    figures = {
        (e, s): (n.get(e, s), n.ratio(e, s, plain))
        for e in (n.leveldb, *SYNC_ENGINES)
        for s, plain in (("sync-seqwrite", "seqwrite"), ("sync-randwrite", "randwrite"))
    }
    n.check()
    parts, holds = [], True
    for (engine, scenario), (value, ratio) in figures.items():
        holds &= ratio <= 0.1 and (fsync is None or value <= 2 * fsync)
        parts.append(f"{label(engine)} {scenario} {format_number(value)} ops/sec ({format_ratio(ratio)} baseline)")
    disk = f"this disk flushes {format_number(fsync)} times/sec" if fsync else "flush rate not measured"
    return Verdict(
        REPRODUCED if holds else NOT_REPRODUCED,
        "; ".join(parts)
        + f"; {disk} (criterion: every engine at most 0.1x its asynchronous figure"
        + (" and at most 2x the flush rate)" if fsync else ")"),
    )


def _compression_helps_leveldb_hurts_treedb(n: Numbers) -> Verdict:
    ratios = {
        s: (n.ratio(n.leveldb, s, plain), n.ratio("kyoto", s, plain))
        for s, plain in (("nocomp-seqwrite", "seqwrite"), ("nocomp-randwrite", "randwrite"))
    }
    n.check()
    parts, holds = [], True
    for scenario, (leveldb, kyoto) in ratios.items():
        holds &= leveldb < 1 < kyoto
        parts.append(
            f"{scenario}: {label(n.leveldb)} {format_ratio(leveldb)}, Kyoto TreeDB {format_ratio(kyoto)} baseline"
        )
    return Verdict(
        REPRODUCED if holds else NOT_REPRODUCED,
        "; ".join(parts) + " (criterion: LevelDB below 1x and TreeDB above 1x without compression)",
    )


def _more_write_memory(n: Numbers) -> Verdict:
    ratios = {e: n.ratio(e, "bigwrite-randwrite", "randwrite") for e in (n.leveldb, "kyoto", "sqlite")}
    n.check()
    holds = ratios[n.leveldb] >= 2 and ratios["kyoto"] >= 2 and 0.8 <= ratios["sqlite"] <= 1.25
    return Verdict(
        REPRODUCED if holds else NOT_REPRODUCED,
        "bigwrite-randwrite / randwrite: "
        + ", ".join(f"{label(e)} {format_ratio(r)}" for e, r in ratios.items())
        + " (criterion: LevelDB and TreeDB at least 2x, SQLite within 0.8-1.25x)",
    )


def _bigger_cache_triples_treedb(n: Numbers) -> Verdict:
    ratio = n.ratio("kyoto", "bigread-randread", "randread")
    n.check()
    return Verdict(
        REPRODUCED if ratio >= 3 else NOT_REPRODUCED,
        f"bigread-randread / randread for Kyoto TreeDB: {format_ratio(ratio)} (criterion: at least 3x)",
    )


def _level_one_overgrows(close: CloseStats | None, engine: str) -> Verdict:
    """Whether the engine's level 1 ended above its target (files x target file size for RocksDB)."""
    if close is None or close.l1_bytes is None:
        return Verdict(NOT_MEASURED, f"{label(engine)}'s level 1 not measured (no statistics at close in its stderr)")
    ratio = close.l1_ratio
    judged = "" if ratio is None else ", above it" if ratio > 1 else ", not above it"
    stalls = ""
    if close.stall_stops is not None:
        stalls = f"; {format_count(close.stall_stops)} write stops" + (
            f", {format_number(close.stall_seconds)} s stalled" if close.stall_seconds is not None else ""
        )
    level_one = format_level_one(close.l1_bytes, close.l1_target_bytes, close.l1_estimated)
    evidence = (
        f"{label(engine)} at close: {level_one}{judged} (files {format_level_shape(close.files_per_level)}{stalls})"
    )
    if ratio is None:
        return Verdict(NOT_MEASURED, evidence)
    return Verdict(REPRODUCED if ratio > 1 else NOT_REPRODUCED, evidence)


def _both(first: Verdict, second: Verdict, criterion: str) -> Verdict:
    """Two claims of one finding: either failing decides it; otherwise an unmeasured one does."""
    statuses = {first.status, second.status}
    status = next((s for s in (NOT_REPRODUCED, TOO_CLOSE, NOT_MEASURED) if s in statuses), REPRODUCED)
    return Verdict(status, f"{first.evidence}; {second.evidence} (criterion: {criterion})")


def _leveldb_beats_rocksdb_and_l1_overgrows(n: Numbers) -> Verdict:
    faster = _fastest(n, "kv1000", "leveldb", ("rocksdb",), "ops/sec")
    overgrown = _level_one_overgrows(n.close("rocksdb", "kv1000"), "rocksdb")
    leveldb = n.close("leveldb", "kv1000")
    if leveldb is not None and leveldb.l1_bytes is not None:  # for comparison, not judged
        context = (
            f"; LevelDB at close: {format_level_one(leveldb.l1_bytes, leveldb.l1_target_bytes, leveldb.l1_estimated)} "
            f"(files {format_level_shape(leveldb.files_per_level)})"
        )
        overgrown = Verdict(overgrown.status, overgrown.evidence + context)
    return _both(faster, overgrown, "LevelDB faster, and RocksDB's L1 above its target")


def _shared_cache_collapses(n: Numbers) -> Verdict:
    one = n.get("sqlite", "pk-query-threads", "shared-1t")
    pairs = {
        t: (n.get("sqlite", "pk-query-threads", f"shared-{t}t"), n.get("sqlite", "pk-query-threads", f"private-{t}t"))
        for t in (2, 4)
    }
    n.check()
    parts, holds = [], True
    for threads, (shared, private) in pairs.items():
        holds &= shared < private and shared <= one
        parts.append(f"{threads} threads: shared {format_number(shared)}, private {format_number(private)} queries/sec")
    return Verdict(
        REPRODUCED if holds else NOT_REPRODUCED,
        "; ".join(parts) + f"; shared with 1 thread {format_number(one)} (criterion: shared below private "
        "and no higher than its 1-thread figure at 2 and 4 threads)",
    )


def _transaction_per_row_slow(n: Numbers) -> Verdict:
    one = n.get("sqlite", "bulk-import", "one-row-per-txn")
    all_ = n.get("sqlite", "bulk-import", "all-rows-one-txn")
    n.check()
    factor = all_ / one
    return Verdict(
        REPRODUCED if factor >= 30 else NOT_REPRODUCED,
        f"one transaction per row {format_number(one)} rows/sec, all rows in one "
        f"{format_number(all_)} rows/sec: {format_ratio(factor)} (criterion: at least 30x, published about 140x)",
    )


def _delete_all_statement(n: Numbers) -> Verdict:
    all_ = n.get("sqlite", "fastdb-delete", "delete-all-one-statement")
    one = n.get("sqlite", "fastdb-delete", "delete-one-by-one")
    n.check()
    return Verdict(
        REPRODUCED if one / all_ >= 100 else NOT_REPRODUCED,
        f"delete one by one {format_number(one)} ms, all in one statement {format_number(all_)} ms",
    )


CHECKS: Mapping[str, Callable[[Numbers], Verdict]] = {
    "F1": lambda n: _fastest(n, "seqwrite", n.leveldb, ("kyoto", "sqlite"), "ops/sec"),
    "F2": lambda n: _fastest(n, "randwrite", n.leveldb, ("kyoto", "sqlite"), "ops/sec"),
    "F3": lambda n: _fastest(n, "seqread", n.leveldb, ("kyoto", "sqlite"), "entries/sec"),
    "F4": lambda n: _fastest(n, "randread", "kyoto", (n.leveldb, "sqlite"), "ops/sec"),
    "F5": _leveldb_weakest_large_values,
    "F6": _batching_helps_sqlite_more,
    "F7": _sync_writes_at_flush_rate,
    "F8": _compression_helps_leveldb_hurts_treedb,
    "F9": _more_write_memory,
    "F10": _bigger_cache_triples_treedb,
    "F11": lambda n: _fastest(n, "tinykeys", "leveldb", ("rocksdb",), "ops/sec"),
    "F12": _leveldb_beats_rocksdb_and_l1_overgrows,
    "F13": _shared_cache_collapses,
    "F14": _transaction_per_row_slow,
    "F15": _delete_all_statement,
}

# Why a finding cannot be measured here at all, whatever ran.
UNMEASURABLE: Mapping[str, str] = {
    "F15": "YCSB has no operation that deletes every row in one statement; only one-by-one deletes are measured",
}


def evaluate_finding(
    finding: PublishedFinding,
    values: Values,
    machine: Mapping | None = None,
    figures: Figures | None = None,
    leveldb: str = "leveldb",
    noise: Noise = NO_NOISE,
) -> FindingResult:
    """The finding checked against the run's figures, a finding about LevelDB on the `leveldb` row; noise:
    the run's measured spread per kind of step, which one-run figures are judged by."""
    check = CHECKS.get(finding.id)
    if check is None:
        return FindingResult(finding.id, finding.source, finding.finding, NOT_MEASURED, "no check for this finding")
    numbers = Numbers(values, machine, figures, leveldb, noise)
    try:
        verdict = check(numbers)
    except MissingFigures as e:
        reason = UNMEASURABLE.get(finding.id) or f"missing: {', '.join(e.missing)}"
        verdict = Verdict(NOT_MEASURED, reason)
    except ZeroDivisionError:
        verdict = Verdict(NOT_MEASURED, "a figure it divides by is zero")
    return FindingResult(
        finding.id,
        finding.source,
        finding.finding,
        verdict.status,
        verdict.evidence,
        scenarios=tuple(numbers.scenarios),
        figures=tuple(numbers.read),
    )


def ran_any_finding(results: list[FindingResult], scenarios: set[str]) -> bool:
    """Whether any finding reads a figure of one of these scenarios (the run's): a run that has none of them
    (the scale group alone) has no finding to judge, rather than every one "not measured" (pure)."""
    return any(scenarios.intersection(r.scenarios) for r in results)


def leveldb_libraries(values: Values) -> tuple[str, ...]:
    """The LevelDB rows with figures in this run, in catalogue order; leveldbjni's when it has none."""
    ran = {engine for engine, _, _ in values}
    return tuple(e for e in LEVELDB_LIBRARIES if e in ran) or LEVELDB_LIBRARIES[:1]


def evaluate_findings(
    findings: list[PublishedFinding],
    values: Values,
    machine: Mapping | None = None,
    figures: Figures | None = None,
    noise: Noise = NO_NOISE,
) -> list[FindingResult]:
    """Every finding; one about LevelDB once per LevelDB library the run has (labelled when there are two)."""
    libraries = leveldb_libraries(values)
    results = []
    for f in findings:
        if f.id not in LEVELDB_FINDINGS:
            results.append(evaluate_finding(f, values, machine, figures, noise=noise))
            continue
        for library in libraries:
            result = evaluate_finding(f, values, machine, figures, library, noise)
            results.append(replace(result, library=library) if len(libraries) > 1 else result)
    return results


def closer_library(results: list[FindingResult]) -> str | None:
    """Which LevelDB library reproduces more of the 2011 page's LevelDB findings, as a sentence, or None
    when the run judged them on one library only."""
    counts = {lib: [r for r in results if r.library == lib] for lib in LEVELDB_LIBRARIES}
    if not all(counts.values()):
        return None
    tally = {lib: sum(r.status == REPRODUCED for r in rs) for lib, rs in counts.items()}
    parts = ", ".join(f"{LIBRARY_SHORT[lib]} {tally[lib]} of {len(counts[lib])}" for lib in LEVELDB_LIBRARIES)
    best = max(tally.values())
    leaders = [lib for lib in LEVELDB_LIBRARIES if tally[lib] == best]
    if len(leaders) > 1:
        verdict = "the two libraries reproduce as many: neither is closer"
    else:
        verdict = f"the 2011 page's LevelDB behaves more like {label(leaders[0])} here"
    return f"reproduced per LevelDB library ({', '.join(LEVELDB_FINDINGS)}): {parts}; {verdict}"
