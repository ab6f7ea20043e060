"""The At-scale section's readings of its points (pure functions): a figure's context line, where the data
crosses the memory budget, who leads each workload in memory and beyond it, and the notes on LevelDB's mapped
reads and on loads that ran faster at a larger N.
"""

from __future__ import annotations

from ..catalogue.engines import REGISTERED
from ..catalogue.scale_group import SCALE_WORKLOADS
from ..results.results import RunData
from .formatting import format_budget, format_number
from .tables import DISPLAY_ORDER, engine_label

NOISY_MARK = "†"


def engines_of(points: list[dict]) -> list[str]:
    """The engines of these points: the display order first, then the rest (peers) by name."""
    found = {p["engine"] for p in points}
    return [e for e in DISPLAY_ORDER if e in found] + sorted(found - set(DISPLAY_ORDER))


def context_line(points: list[dict], run: RunData, what: str) -> str:
    """Budget, N, value size and duration of a figure."""
    budget = run.suite.get("memory_bytes")
    sizes = sorted({p["records"] for p in points})
    record = next((p["data_bytes"] / p["records"] for p in points if p.get("data_bytes")), None)
    timed = sorted({round(p["runtime_s"]) for p in points if p.get("runtime_s") and p["workload"] != "load"})
    loads = [round(p["runtime_s"]) for p in points if p.get("runtime_s") and p["workload"] == "load"]
    return (
        f"{what}: budget {format_budget(budget) if budget else 'none (no --memory)'}; "
        f"N = {', '.join(f'{n:,}' for n in sizes)} records of {record:,.0f} bytes (key + value)"
        + (f"; timed steps of {timed[0]}-{timed[-1]} s" if timed else "")
        + (f"; loads of {min(loads)}-{max(loads)} s" if loads else "")
        if record
        else f"{what}: budget {format_budget(budget) if budget else 'none'}; N = {', '.join(map(str, sizes))}"
    )


def budget_records(points: list[dict], budget: int | None) -> float | None:
    """The record count at which the user data equals the budget (where the chart marks the crossing)."""
    record = next((p["data_bytes"] / p["records"] for p in points if p.get("data_bytes")), None)
    return budget / record if budget and record else None


Ranked = list[tuple[str, float, bool]]  # (engine, ops/s, noisy), fastest first


def split_sizes(points: list[dict], budget: int | None) -> tuple[int | None, int | None]:
    """(the largest N whose user data fits the budget, the largest N when its data exceeds the budget) (pure);
    the second is None when no N exceeded it (or there was no budget)."""
    sizes = sorted({p["records"] for p in points})
    fits = [
        n
        for n in sizes
        if budget is None
        or next((p["data_bytes"] <= budget for p in points if p["records"] == n and p.get("data_bytes")), True)
    ]
    return (fits[-1] if fits else None), (sizes[-1] if sizes and sizes[-1] not in fits else None)


def rankings(points: list[dict], budget: int | None) -> list[tuple[str, Ranked, Ranked]]:
    """Per workload: the engines fastest first at the largest N that fits the budget and at the largest N
    beyond it (single-thread steps; empty where no N is there)."""
    inside, beyond = split_sizes(points, budget)

    def order(n: int | None, workload: str) -> Ranked:
        mine = [
            p
            for p in points
            if n is not None
            and p["records"] == n
            and p["workload"] == workload
            and p["threads"] == 1
            and p["ok"]
            and p["rate"]
        ]
        return [(p["engine"], p["rate"], p["noisy"]) for p in sorted(mine, key=lambda p: -p["rate"])]

    found = [(w, order(inside, w), order(beyond, w)) for w in ("load", *SCALE_WORKLOADS)]
    return [(w, a, b) for w, a, b in found if a or b]


def _leader(ranked: Ranked) -> str:
    if not ranked:
        return "-"
    engine, value, noisy = ranked[0]
    return f"{engine_label(engine)} ({format_number(value)} ops/s){NOISY_MARK if noisy else ''}"


def leaders(points: list[dict], budget: int | None) -> list[list[str]]:
    """Per workload: the leader at the largest N that fits the budget and, when an N exceeded it, the leader
    at the largest N and whether the engines' order changed between them (single-thread steps, first repeat)."""
    if split_sizes(points, budget)[1] is None:
        return [[w, _leader(a)] for w, a, _ in rankings(points, budget)]
    rows = []
    for workload, a, b in rankings(points, budget):
        changed = "-" if not a or not b else ("yes" if [e for e, _, _ in a] != [e for e, _, _ in b] else "no")
        rows.append([workload, _leader(a), _leader(b), changed])
    return rows


# A point read that costs the disk this many times the bytes it returns is explained where it is LevelDB's.
MAPPED_READ_AMPLIFICATION = 100


def mapped_read_note(points: list[dict], read_ahead_kb: int | None) -> str:
    """Why LevelDB's point reads beyond the budget read so much more than the others' (pure): both of its
    libraries read table files through a memory map (the registry's `reads.mapped`), and a fault reads the
    disk's read-ahead window."""
    worst: dict[str, tuple[float, int]] = {}
    for p in points:
        amplification = p.get("read_amplification")
        mapped = REGISTERED.by_name.get(p["engine"])
        if p["workload"] == "read-uniform" and mapped and mapped.mapped_reads and amplification:
            if amplification > worst.get(p["engine"], (0.0, 0))[0]:
                worst[p["engine"]] = (amplification, p["records"])
    high = {e: v for e, v in worst.items() if v[0] > MAPPED_READ_AMPLIFICATION}
    if not high:
        return ""
    figures = "; ".join(f"{engine_label(e)}: {format_number(a)} at {n:,} records" for e, (a, n) in high.items())
    window = f"{read_ahead_kb:,} KB on this machine's disk" if read_ahead_kb else "the disk's read-ahead window"
    return (
        f"LevelDB's read amplification on uniform point reads ({figures}) comes from how it reads: both "
        "libraries map their table files into memory (up to 1,000 files), and a page fault on a mapped file "
        f"makes the kernel read the read-ahead window around it ({window}), not one block. With 2 MB tables, "
        "a read that misses the cache reads most of a table. RocksDB reads its blocks with pread and the "
        "B-trees read pages, so theirs stays low. analysis/README.md has the run that varies the window."
    )


# A load's throughput this much higher at the largest N than at the smallest is not the engine getting faster.
RISING_LOAD_SHARE = 0.10


def rising_loads_note(points: list[dict]) -> str:
    """The engines whose load ran faster at a larger N (pure): a load of a few seconds holds the JVM's
    start-up and the JIT's warm-up, which a longer load hides, so its small-N points are not steady rates."""
    rising = []
    for engine in engines_of(points):
        loads = sorted(
            (p for p in points if p["engine"] == engine and p["workload"] == "load" and p["ok"] and p["rate"]),
            key=lambda p: p["records"],
        )
        if len(loads) >= 2 and loads[-1]["rate"] > (1 + RISING_LOAD_SHARE) * loads[0]["rate"]:
            first, last = loads[0], loads[-1]
            seconds = f", a load of {first['runtime_s']:.0f} s" if first.get("runtime_s") else ""
            rising.append(
                f"{engine_label(engine)} {format_number(first['rate'])} -> {format_number(last['rate'])} ops/s "
                f"from {first['records']:,} to {last['records']:,} records{seconds}"
            )
    if not rising:
        return ""
    return (
        "The loads' throughput rose with N: " + "; ".join(rising) + ". A bigger database does not load faster: "
        "a load of a few seconds holds the JVM's start-up and the JIT compiling the hot path, which a longer load "
        "hides, so the small-N loads are not steady rates."
    )
