"""The report's "At scale" section: the scale group's cost against data size, amplification,
throughput against threads, the sustained run second by second, and who leads in memory and beyond."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..catalogue.scale_group import SCALE_THREAD_WORKLOADS, SCALE_WORKLOADS
from ..results.results import RunData
from ..results.scale import NOISY_CORES, scale_points, stalls, timeline
from .charts_scale import Axes, Line, grid_chart
from .formatting import format_budget, format_number
from .render import Block, BulletList, Heading, Image, Paragraph, Table
from .scale_readings import (
    NOISY_MARK,
    budget_records,
    context_line,
    engines_of,
    leaders,
    mapped_read_note,
    rankings,
    rising_loads_note,
    split_sizes,
)
from .tables import engine_label

if TYPE_CHECKING:  # pandas loads where a frame is made
    import pandas as pd

HEADING = "At scale"


def _first_repeat(points: list[dict]) -> list[dict]:
    return [p for p in points if p["repeat"] == 1]


_drawn: list[tuple[list[dict], list[dict]]] = []  # (a run's cells, their points): the last run's, once


def _drawn_points(run: RunData) -> list[dict]:
    """The points the section draws (first repeat), read once per run: the summary, the section and
    figures.csv all use them, and reading every step's HdrHistogram logs takes seconds."""
    if not _drawn or _drawn[0][0] is not run.cells:
        _drawn[:] = [(run.cells, _first_repeat(scale_points(run.cells, run.directory)))]
    return _drawn[0][1]


def _series(points: list[dict], engine: str, workload: str, threads: int, x: str, y: str) -> Line:
    mine = sorted(
        (p for p in points if p["engine"] == engine and p["workload"] == workload and p["threads"] == threads),
        key=lambda p: p[x],
    )
    return Line(
        engine_label(engine),
        [p[x] for p in mine],
        [p.get(y) if p["ok"] else None for p in mine],
        [bool(p["noisy"]) for p in mine],
    )


def _mb(value: float | None) -> str:
    return "-" if value is None else f"{value / 2**20:,.0f} MB"


def with_scale_figures(figures: pd.DataFrame, run: RunData) -> pd.DataFrame:
    """figures.csv: the tables' figures, then every figure of the At-scale section, one row per engine, data
    size and step (first repeat, as drawn): `value` is the step's ops/sec as the charts compare it (`rate`),
    beside the section's own columns (percentiles, amplification, the budget's account)."""
    import pandas as pd

    rows = [
        {
            "engine": p["engine"],
            "scenario": p["scenario"],
            "variant": p["variant"],
            "section": "scale",
            "metric": "ops",
            "unit": "ops/sec",
            "value": p["rate"],
            "status": "ok" if p["ok"] else "failed",
            "error": p["problems"] or None,
            **{k: v for k, v in p.items() if k not in ("hdr_logs", "problems")},
        }
        for p in _drawn_points(run)
    ]
    if not rows:
        return figures
    scale = pd.DataFrame(rows)
    return scale if figures.empty else pd.concat([figures, scale], ignore_index=True)


def _single(points: list[dict]) -> list[dict]:
    """The plain steps: not the thread series (its "mix-1t" repeats "mix"), not the sustained run."""
    return [p for p in points if p["variant"] == p["workload"] != "sustained"]


def scale_summary(run: RunData) -> str | None:
    """The summary's line on the At-scale section: its budget and sizes, and who leads in memory and beyond
    it (single-thread steps, first repeat); None when the run has no scale cells."""
    points = _drawn_points(run)
    single = _single(points)
    if not single:
        return None
    budget = run.suite.get("memory_bytes")
    inside, beyond = split_sizes(single, budget)
    ranked = rankings(single, budget)
    sizes = sorted({p["records"] for p in single})

    def firsts(at: int) -> str:
        """'load RocksDB; mix LMDB': each workload's fastest engine in memory (at=0) or beyond the budget (1)."""
        return "; ".join(f"{w} {engine_label(r[at][0][0])}" for w, *r in ranked if r[at]) or "no figures"

    text = (
        f"**At scale** (budget {format_budget(budget) if budget else 'none'}; "
        f"{', '.join(f'{n:,}' for n in sizes)} records; {', '.join(engine_label(e) for e in engines_of(points))}): "
    )
    if beyond is None:
        text += (
            f"no size exceeded the budget; fastest at {inside:,} records: {firsts(0)}"
            if budget
            else f"no memory budget; fastest at {inside:,} records: {firsts(0)}"
        )
    else:
        both = [(a, b) for _, a, b in ranked if a and b]
        changed = sum(1 for a, b in both if [e for e, _, _ in a] != [e for e, _, _ in b])
        text += (
            (f"fastest in memory ({inside:,} records): {firsts(0)}; " if inside else "no size fitted the budget; ")
            + f"beyond it ({beyond:,} records): {firsts(1)}"
            + (f"; the ranking changed on {changed} of {len(both)} workloads" if both else "")
        )
    failed = sum(1 for p in points if not p["ok"])
    if failed:
        text += f"; {failed} of {len(points)} steps failed"
    noisy = sum(1 for p in points if p["noisy"])
    if noisy:
        text += f"; {noisy} of {len(points)} steps ran while other processes kept the machine busy"
    return text + "."


def scale_blocks(run: RunData, report_dir: Path) -> list[Block]:
    """The At-scale section, or nothing when the run has no scale cells."""
    points = _drawn_points(run)
    if not points:
        return []
    budget = run.suite.get("memory_bytes")
    crossing = budget_records(points, budget)
    engines = engines_of(points)
    charts = report_dir / "charts"
    cores = run.machine.get("cores") or os.cpu_count()
    blocks: list[Block] = [
        Heading(2, HEADING),
        Paragraph(
            "Data past the memory budget, client threads and a sustained run (`--scenarios scale`). Each step's JVM "
            "ran inside a memory cgroup of the budget (heap, engine caches and the page cache of its files together), "
            "after its data's pages were evicted, at -Xmx256m whatever N. Hollow markers and "
            f"{NOISY_MARK} mark figures taken while other processes kept more than {NOISY_CORES:.0%} of a core busy "
            f"(the machine has {cores} cores). Throughput of a timed step is its rate over the second half of "
            "its seconds (from the HdrHistogram logs): a step starts with its data evicted, and for data that fits "
            "the budget its first seconds are the caches filling. A load's is over the whole load."
        ),
    ]

    def add_chart(name: str, title: str, panels: list[Axes], context: str, columns: int = 2) -> None:
        path = grid_chart(title, panels, charts / f"{name}.svg", columns)
        blocks.extend([Heading(3, title), Paragraph(context), Image(str(path.relative_to(report_dir)), title)])

    single = _single(points)
    workloads = [w for w in ("load", *SCALE_WORKLOADS) if any(p["workload"] == w for p in single)]
    label = f"data passes {format_budget(budget)}" if budget else ""

    def by_size(title: str, ylabel: str, workload: str, y: str, log_y: bool = False) -> Axes:
        lines = [_series(single, e, workload, 1, "records", y) for e in engines]
        return Axes(title, ylabel, lines, True, log_y, "records (log)", crossing, label)

    cost = [
        by_size(f"{w}: {unit}", unit, w, y, log_y)
        for w in workloads
        for y, unit, log_y in (("rate", "ops/sec (log)", True), ("p99_us", "p99 latency (us)", True))
    ]
    add_chart("scale-cost", "Cost against data size", cost, context_line(single, run, "Every panel"))
    rising = rising_loads_note(single)
    if rising:
        blocks.append(Paragraph(rising))
    written = "bytes written / user bytes written"
    amp = [
        by_size(
            "read amplification (read-uniform)",
            "disk bytes read / user bytes read",
            "read-uniform",
            "read_amplification",
        ),
        by_size("write amplification (overwrite)", written, "overwrite", "write_amplification"),
        by_size("write amplification (load)", written, "load", "write_amplification"),
        by_size("space amplification (after the load)", "bytes on disk / user bytes", "load", "space_amplification"),
    ]
    add_chart("scale-amplification", "Amplification against data size", amp, context_line(single, run, "Every panel"))
    mapped = mapped_read_note(single, run.machine.get("read_ahead_kb"))
    if mapped:
        blocks.append(Paragraph(mapped))

    # The thread series' own steps ("mix-4t"), not the plain single-thread steps of the same workload.
    threaded = [p for p in points if p["workload"] in SCALE_THREAD_WORKLOADS and p["variant"] != p["workload"]]
    sizes = sorted({p["records"] for p in threaded})
    if sizes:
        panels = [
            Axes(
                f"{w}, {n:,} records",
                "ops/sec",
                [_thread_line(threaded, e, w, n) for e in engines],
                log_x=True,
                xlabel=f"client threads ({cores} cores)",
            )
            for n in dict.fromkeys((sizes[0], sizes[-1]))
            for w in SCALE_THREAD_WORKLOADS
        ]
        add_chart(
            "scale-threads",
            f"Throughput against client threads ({cores} cores)",
            panels,
            context_line(threaded, run, "Every panel"),
        )

    sustained = [p for p in points if p["workload"] == "sustained"]
    if sustained:
        lines, p99, marks, rows, chosen = [], [], [], [], []
        for e in engines:
            mine = max((p for p in sustained if p["engine"] == e), key=lambda p: p["records"], default=None)
            if mine is None:
                continue
            seconds = timeline([Path(log) for log in mine["hdr_logs"]])
            if not seconds:
                continue
            slow = stalls(seconds)
            chosen.append(mine)
            lines.append(Line(engine_label(e), [s.at for s in seconds], [s.ops_per_sec for s in seconds]))
            p99.append(Line(engine_label(e), [s.at for s in seconds], [s.p99_us for s in seconds]))
            marks.append((engine_label(e), [s.at for s in slow]))
            rows.append(
                [
                    engine_label(e) + (NOISY_MARK if mine["noisy"] else ""),
                    format_number(mine["ops_per_sec"]),
                    _us(mine.get("p50_us")),
                    _us(mine.get("p99_us")),
                    _us(mine.get("p999_us")),
                    str(len(slow)),
                    ", ".join(f"{s.at:.0f}" for s in slow[:8]) or "-",
                ]
            )
        if lines:
            add_chart(
                "scale-sustained",
                "Sustained mix, second by second",
                [
                    Axes(
                        "ops/sec per second (black ▼: a stall, under half the median after warm-up)",
                        "ops/sec",
                        lines,
                        xlabel="seconds",
                        marks=marks,
                    ),
                    Axes("p99 latency per second", "us", p99, log_y=True, xlabel="seconds"),
                ],
                context_line(chosen, run, "The sustained run (each engine's largest N)")
                + "; from YCSB's HdrHistogram interval logs",
                2,
            )
            blocks.append(
                Table(
                    ["engine", "ops/sec", "p50 us", "p99 us", "p99.9 us", "stalls", "at (s)"],
                    rows,
                    text_columns=frozenset({6}),
                )
            )

    inside, beyond = split_sizes(single, budget)
    headers, where = ["workload", "leader in memory", "leader beyond", "ranking changed?"], ""
    if beyond is None and inside is not None:
        headers = ["workload", f"leader at {inside:,} records"]
        where = (
            f". No N exceeded the budget: the largest, {inside:,} records, fits {format_budget(budget)}"
            if budget
            else ". No memory budget (no --memory): no N was beyond one"
        )
    blocks += [
        Heading(3, "Who leads in memory and beyond"),
        Paragraph(
            context_line(single, run, "Single-thread steps")
            + (
                f"; in memory: the largest N whose user data fits {format_budget(budget)}"
                if budget and not where
                else ""
            )
            + where
            + "."
        ),
        Table(headers, leaders(single, budget), text_columns=frozenset(range(1, len(headers)))),
    ]
    blocks += _budget_table(single, engines)
    short = [p for p in points if p["problems"] or (p["loaded"] is not None and p["loaded"] < p["records"])]
    if short:
        blocks += [Heading(3, "How far each step got"), BulletList([_how_far(p) for p in short])]
    unreadable = sum(1 for p in points if p["hdr_unreadable"])
    if unreadable:
        blocks.append(
            Paragraph(
                f"{unreadable} step(s) left HdrHistogram logs the library cannot decode (V1 encoding, from "
                "HdrHistogram 2.1.4 before the build pinned 2.1.12): their percentiles are missing."
            )
        )
    return blocks


def _thread_line(points: list[dict], engine: str, workload: str, records: int) -> Line:
    mine = sorted(
        (p for p in points if p["engine"] == engine and p["workload"] == workload and p["records"] == records),
        key=lambda p: p["threads"],
    )
    return Line(
        engine_label(engine),
        [p["threads"] for p in mine],
        [p["rate"] if p["ok"] else None for p in mine],
        [bool(p["noisy"]) for p in mine],
    )


def _us(value: float | None) -> str:
    return "-" if value is None else format_number(value)


def _worst(points: list[dict], key: str) -> float | None:
    return max((p[key] for p in points if p.get(key) is not None), default=None)


def _budget_table(points: list[dict], engines: list[str]) -> list[Block]:
    """What each engine's steps used of the budget at each N: peak, page cache at the end, disk reads."""
    if not any(p.get("budget_bytes") for p in points):
        return []
    rows = []
    for e in engines:
        for n in sorted({p["records"] for p in points}):
            mine = [p for p in points if p["engine"] == e and p["records"] == n and p["threads"] == 1]
            if not mine:
                continue
            load = next((p for p in mine if p["workload"] == "load"), None)
            rows.append(
                [
                    engine_label(e),
                    f"{n:,}",
                    _mb(load["db_bytes"] if load else None),
                    _mb(_worst(mine, "cgroup_peak_bytes")),
                    _mb(_worst(mine, "cgroup_cache_bytes")),
                    _mb(_worst(mine, "peak_rss_bytes")),
                    _us(_worst(mine, "cpu_seconds_per_1000_ops")),
                    f"{sum(1 for p in mine if p['noisy'])} of {len(mine)}",
                ]
            )
    return [
        Heading(3, "What the budget held"),
        Paragraph(
            "Per engine and N, the worst single-thread step: the cgroup's peak (heap, native memory and page "
            "cache), the page cache charged at the end, the JVM's resident peak, and CPU seconds per 1,000 "
            "operations (the JVM's whole CPU, the engine's background threads included)."
        ),
        Table(
            [
                "engine",
                "records",
                "on disk after load",
                "cgroup peak",
                "page cache at end",
                "JVM RSS peak",
                "CPU s / 1,000 ops",
                f"steps {NOISY_MARK}",
            ],
            rows,
        ),
    ]


def _how_far(p: dict) -> str:
    got = (
        f"loaded {p['loaded']:,} of {p['records']:,} records in {p['runtime_s']:.0f} s"
        if p["loaded"] is not None and p["runtime_s"]
        else f"{p['operations']:,} operations"
    )
    return f"{engine_label(p['engine'])}, {p['records']:,} records, {p['variant']}: {got}" + (
        f"; {p['problems']}" if p["problems"] else ""
    )
