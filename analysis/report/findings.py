"""Each published finding (reference/findings.csv) checked against this run's figures.

A check is written over roles, not engines: the finding's row in findings.csv names its engines in the order
of the check's roles (for "X is the fastest", X first), and a binding it names in `each_row_of` is judged on
each of that binding's rows the run has, one verdict per row.

A check names the figures it needs; if any is missing the finding is "not measured" (a partial
comparison would read as a verdict it is not). Otherwise it is "reproduced" or "not reproduced",
with the numbers and the criterion that decided it. A finding of two claims (F12: LevelDB is faster,
and RocksDB's level 1 overgrows) is reproduced when both hold, not reproduced when either fails,
and not measured when one holds and the other could not be measured.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from ..catalogue.model import ENGINE_LABELS, rows_of
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
    library: str = ""  # the row of its `each_row_of` binding it was judged on, when the run has several
    scenarios: tuple[str, ...] = ()  # the scenarios its check reads figures of
    figures: tuple[tuple[str, str, str], ...] = ()  # the (engine, scenario, variant) figures it read

    @property
    def label(self) -> str:
        """The id as the report shows it: 'F1', or 'F1 (LevelDB 1.23)' when judged per row."""
        return f"{self.id} ({short_label(self.library)})" if self.library else self.id


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
        engines: tuple[str, ...] = (),
        noise: Noise = NO_NOISE,
    ):
        self.values = values
        self.noise = noise
        self.engines = engines  # the finding's engines in its check's roles, each the row it is judged on
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


def short_label(engine: str) -> str:
    """An engine's label without its parenthesis: 'LevelDB 1.23 (system library)' -> 'LevelDB 1.23'."""
    return label(engine).split(" (", 1)[0]


def too_close(margin: float, spreads: list[float | None]) -> float | None:
    """The spread that a margin (relative, signed) lies inside, or None when the margin decides:
    both figures were repeated and the margin is no larger than the wider of their spreads (pure)."""
    if len(spreads) < 2 or any(s is None for s in spreads):
        return None
    spread = max(s for s in spreads if s is not None)
    return spread if abs(margin) <= spread else None


def _percent(fraction: float) -> str:
    return f"{fraction * 100:.1f} %"


def _fastest(n: Numbers, scenario: str, unit: str) -> Verdict:
    """The first engine's figure above each of the others'."""
    engine, *rivals = n.engines
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


def _weakest_at_large_values(n: Numbers) -> Verdict:
    """The first engine's figure the lowest of all in both orders."""
    tables = {s: {e: n.get(e, s) for e in n.engines} for s in ("largevalue-seqwrite", "largevalue-randwrite")}
    n.check()
    parts, holds = [], True
    for scenario, figures in tables.items():
        lowest = min(figures, key=figures.__getitem__)
        holds &= lowest == n.engines[0]
        parts.append(
            f"{scenario}: "
            + ", ".join(f"{label(e)} {format_number(v)}" for e, v in figures.items())
            + f" ops/sec (lowest: {label(lowest)})"
        )
    return Verdict(REPRODUCED if holds else NOT_REPRODUCED, "; ".join(parts))


BATCH_ORDERS = (("sequential", "batch-seqwrite", "seqwrite"), ("random", "batch-randwrite", "randwrite"))


def _batching_helps_first_more(n: Numbers) -> Verdict:
    """The first engine's gain from batching above the second's in both orders."""
    helped, other = n.engines
    gains = {
        order: (n.ratio(helped, batch, plain), n.ratio(other, batch, plain)) for order, batch, plain in BATCH_ORDERS
    }
    n.check()
    parts, against, close = [], [], []
    for order, batch, plain in BATCH_ORDERS:
        gain, other_gain = gains[order]
        parts.append(
            f"{order}: {label(helped)} {format_ratio(gain)}, {label(other)} {format_ratio(other_gain)} of unbatched"
        )
        # A gain is the ratio of two figures: the margin between two gains is judged by the wider of their spreads.
        margin = gain / other_gain - 1
        spread = too_close(margin, [n.gain_spread(helped, batch, plain), n.gain_spread(other, batch, plain)])
        if spread is not None:
            close.append(f"{order}: margin {_percent(margin)}, spread {_percent(spread)}")
        elif gain <= other_gain:
            against.append(order)
    evidence = "; ".join(parts) + " (criterion: SQLite's gain above LevelDB's in both orders)"
    if against or not close:
        return Verdict(NOT_REPRODUCED if against else REPRODUCED, evidence)
    return Verdict(
        TOO_CLOSE,
        f"too close to call on this machine ({'; '.join(close)}; a gain's spread is the sum of its two figures' "
        f"spreads): {evidence}",
    )


def _sync_writes_at_flush_rate(n: Numbers) -> Verdict:
    """Every engine's synchronous writes at most 0.1x its asynchronous ones and near the disk's flush rate."""
    fsync = n.machine.get("fsync_per_sec")
    figures = {
        (e, s): (n.get(e, s), n.ratio(e, s, plain))
        for e in n.engines
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


def _compression_helps_first_hurts_second(n: Numbers) -> Verdict:
    """Without compression, the first engine's writes slower than its baseline and the second's faster."""
    helped, hurt = n.engines
    ratios = {
        s: (n.ratio(helped, s, plain), n.ratio(hurt, s, plain))
        for s, plain in (("nocomp-seqwrite", "seqwrite"), ("nocomp-randwrite", "randwrite"))
    }
    n.check()
    parts, holds = [], True
    for scenario, (slower, faster) in ratios.items():
        holds &= slower < 1 < faster
        parts.append(
            f"{scenario}: {label(helped)} {format_ratio(slower)}, {label(hurt)} {format_ratio(faster)} baseline"
        )
    return Verdict(
        REPRODUCED if holds else NOT_REPRODUCED,
        "; ".join(parts) + " (criterion: LevelDB below 1x and TreeDB above 1x without compression)",
    )


def _more_write_memory(n: Numbers) -> Verdict:
    """Every engine but the last at least 2x faster with more write memory, the last about as fast."""
    *doubled, flat = n.engines
    ratios = {e: n.ratio(e, "bigwrite-randwrite", "randwrite") for e in n.engines}
    n.check()
    holds = all(ratios[e] >= 2 for e in doubled) and 0.8 <= ratios[flat] <= 1.25
    return Verdict(
        REPRODUCED if holds else NOT_REPRODUCED,
        "bigwrite-randwrite / randwrite: "
        + ", ".join(f"{label(e)} {format_ratio(r)}" for e, r in ratios.items())
        + " (criterion: LevelDB and TreeDB at least 2x, SQLite within 0.8-1.25x)",
    )


def _bigger_cache_triples(n: Numbers) -> Verdict:
    (engine,) = n.engines
    ratio = n.ratio(engine, "bigread-randread", "randread")
    n.check()
    return Verdict(
        REPRODUCED if ratio >= 3 else NOT_REPRODUCED,
        f"bigread-randread / randread for {label(engine)}: {format_ratio(ratio)} (criterion: at least 3x)",
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


def _first_faster_and_second_l1_overgrows(n: Numbers) -> Verdict:
    """The first engine faster than the second, and the second's level 1 above its target at close."""
    first, second = n.engines
    faster = _fastest(n, "kv1000", "ops/sec")
    overgrown = _level_one_overgrows(n.close(second, "kv1000"), second)
    own = n.close(first, "kv1000")
    if own is not None and own.l1_bytes is not None:  # for comparison, not judged
        context = (
            f"; LevelDB at close: {format_level_one(own.l1_bytes, own.l1_target_bytes, own.l1_estimated)} "
            f"(files {format_level_shape(own.files_per_level)})"
        )
        overgrown = Verdict(overgrown.status, overgrown.evidence + context)
    return _both(faster, overgrown, "LevelDB faster, and RocksDB's L1 above its target")


def _shared_cache_collapses(n: Numbers) -> Verdict:
    (engine,) = n.engines
    one = n.get(engine, "pk-query-threads", "shared-1t")
    pairs = {
        t: (n.get(engine, "pk-query-threads", f"shared-{t}t"), n.get(engine, "pk-query-threads", f"private-{t}t"))
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
    (engine,) = n.engines
    one = n.get(engine, "bulk-import", "one-row-per-txn")
    all_ = n.get(engine, "bulk-import", "all-rows-one-txn")
    n.check()
    factor = all_ / one
    return Verdict(
        REPRODUCED if factor >= 30 else NOT_REPRODUCED,
        f"one transaction per row {format_number(one)} rows/sec, all rows in one "
        f"{format_number(all_)} rows/sec: {format_ratio(factor)} (criterion: at least 30x, published about 140x)",
    )


def _delete_all_statement(n: Numbers) -> Verdict:
    (engine,) = n.engines
    all_ = n.get(engine, "fastdb-delete", "delete-all-one-statement")
    one = n.get(engine, "fastdb-delete", "delete-one-by-one")
    n.check()
    return Verdict(
        REPRODUCED if one / all_ >= 100 else NOT_REPRODUCED,
        f"delete one by one {format_number(one)} ms, all in one statement {format_number(all_)} ms",
    )


# Each finding's check, over the roles its engines (findings.csv) fill.
CHECKS: Mapping[str, Callable[[Numbers], Verdict]] = {
    "F1": lambda n: _fastest(n, "seqwrite", "ops/sec"),
    "F2": lambda n: _fastest(n, "randwrite", "ops/sec"),
    "F3": lambda n: _fastest(n, "seqread", "entries/sec"),
    "F4": lambda n: _fastest(n, "randread", "ops/sec"),
    "F5": _weakest_at_large_values,
    "F6": _batching_helps_first_more,
    "F7": _sync_writes_at_flush_rate,
    "F8": _compression_helps_first_hurts_second,
    "F9": _more_write_memory,
    "F10": _bigger_cache_triples,
    "F11": lambda n: _fastest(n, "tinykeys", "ops/sec"),
    "F12": _first_faster_and_second_l1_overgrows,
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
    row: str = "",
    noise: Noise = NO_NOISE,
) -> FindingResult:
    """The finding checked against the run's figures, its `each_row_of` binding on `row` (default: that
    binding's first row); noise: the run's measured spread per kind of step, which one-run figures are judged by."""
    check = CHECKS.get(finding.id)
    if check is None:
        return FindingResult(finding.id, finding.source, finding.finding, NOT_MEASURED, "no check for this finding")
    row = row or next(iter(rows_of(finding.each_row_of)), finding.each_row_of)
    engines = tuple(row if e == finding.each_row_of else e for e in finding.engines)
    numbers = Numbers(values, machine, figures, engines, noise)
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


def judged_rows(finding: PublishedFinding, values: Values) -> tuple[str, ...]:
    """The rows of the finding's `each_row_of` binding with figures in this run, in the registry's order, or
    its first row when none has; () for a finding judged once (pure)."""
    if not finding.each_row_of:
        return ()
    rows = rows_of(finding.each_row_of)
    ran = {engine for engine, _, _ in values}
    return tuple(e for e in rows if e in ran) or rows[:1]


def evaluate_findings(
    findings: list[PublishedFinding],
    values: Values,
    machine: Mapping | None = None,
    figures: Figures | None = None,
    noise: Noise = NO_NOISE,
) -> list[FindingResult]:
    """Every finding; one with an `each_row_of` binding once per row of it the run has (labelled when there
    are several: the 2011 page's findings about LevelDB, once per LevelDB library)."""
    results = []
    for f in findings:
        rows = judged_rows(f, values)
        if not rows:
            results.append(evaluate_finding(f, values, machine, figures, noise=noise))
            continue
        for row in rows:
            result = evaluate_finding(f, values, machine, figures, row, noise)
            results.append(replace(result, library=row) if len(rows) > 1 else result)
    return results


def closer_library(results: list[FindingResult]) -> str | None:
    """Which LevelDB library reproduces more of the 2011 page's LevelDB findings (those judged per row), as a
    sentence, or None when the run judged them on one library only."""
    libraries = tuple(dict.fromkeys(r.library for r in results if r.library))
    if len(libraries) < 2:
        return None
    counts = {lib: [r for r in results if r.library == lib] for lib in libraries}
    tally = {lib: sum(r.status == REPRODUCED for r in rs) for lib, rs in counts.items()}
    parts = ", ".join(f"{short_label(lib)} {tally[lib]} of {len(counts[lib])}" for lib in libraries)
    best = max(tally.values())
    leaders = [lib for lib in libraries if tally[lib] == best]
    if len(leaders) > 1:
        verdict = "the two libraries reproduce as many: neither is closer"
    else:
        verdict = f"the 2011 page's LevelDB behaves more like {label(leaders[0])} here"
    per_row = dict.fromkeys(r.id for r in results if r.library)
    return f"reproduced per LevelDB library ({', '.join(per_row)}): {parts}; {verdict}"
