"""The report's "Latency at a rate" section, from <results>/rate/rate.json (`python -m analysis rate`): per
workload one chart of latency percentiles against the achieved rate (a line per engine, intended time solid and
service time dashed), the sweep's table, and the capacity under each bound beside the flat-out rate."""

from __future__ import annotations

import json
from pathlib import Path

from .charts_scale import Axes, Line, grid_chart
from .formatting import format_number
from .rate import (
    HOLD_SHARE,
    STALL_FACTOR,
    STALL_FLOOR_US,
    RateStep,
    StallRun,
    Sweep,
    fraction_text,
    stall_run_of,
    stall_spans,
    sweep_of,
)
from .render import Block, Heading, Image, Paragraph, Table
from .scale import NOISY_CORES
from .tables import engine_label

HEADING = "Latency at a rate"
RATE_FILE = Path("rate") / "rate.json"  # rate_run.RATE_DIR / RATE_FILE, without importing the runner
CHART_KEYS = (("p50", "p50"), ("p99", "p99"), ("p99.9", "p99.9"), ("max", "max"))
NOT_HELD = "✗"
BUSY = "†"  # taken while other processes kept more than NOISY_CORES busy, as the At-scale section marks them


def busy(step: RateStep) -> bool:
    return step.other_cores is not None and step.other_cores > NOISY_CORES


def load_rate(directory: Path) -> dict | None:
    """The rate command's record of a results directory, or None when it has none."""
    path = directory / RATE_FILE
    return json.loads(path.read_text()) if path.is_file() else None


def _us(value: float | None) -> str:
    return "—" if value is None else f"{format_number(value)} us"


def chart_lines(sweeps: list[Sweep], key: str) -> list[Line]:
    """Per engine two lines of one percentile against the achieved rate: intended (solid), service (dashed);
    a step that did not hold its rate is drawn hollow."""
    lines = []
    for i, sweep in enumerate(sweeps):
        steps = sorted((s for s in sweep.steps if s.achieved), key=lambda s: s.achieved or 0.0)
        x = [s.achieved or 0.0 for s in steps]
        held = [not s.held for s in steps]
        label = engine_label(sweep.engine)
        lines.append(Line(f"{label} intended", x, [s.latency(key) for s in steps], held, colour=i))
        lines.append(Line(f"{label} service", x, [s.latency(key, False) for s in steps], held, colour=i, dashed=True))
    return lines


def _step_row(sweep: Sweep, step: RateStep) -> list[str]:
    asked = "flat out" if step.asked is None else f"{format_number(step.asked)} ({fraction_text(step.fraction)})"
    notes = [step.problem or ("" if step.held else f"{NOT_HELD} not held")]
    if busy(step):
        notes.append(f"{BUSY} others used {step.other_cores:.1f} cores")
    note = "; ".join(n for n in notes if n)
    return [
        engine_label(sweep.engine),
        step.kind,
        asked,
        format_number(step.achieved),
        _us(step.latency("p50")),
        _us(step.latency("p99")),
        _us(step.latency("p99.9")),
        _us(step.latency("max")),
        _us(step.latency("p99", intended=False)),
        note,
    ]


def capacity_rows(sweeps: list[Sweep]) -> list[list[str]]:
    rows = []
    for sweep in sweeps:
        if sweep.error:
            rows.append([engine_label(sweep.engine), sweep.workload, "—", "—", "—", "—", "—", "—", sweep.error])
            continue
        for c in sweep.capacities:
            share = f"{c.share:.0%}" if c.share is not None else "—"
            note = ""
            if c.rate is None:
                note = "no rate met the bound"
            elif c.failed is None:
                note = "met at every rate asked: the capacity is above the sweep"
            rows.append(
                [
                    engine_label(sweep.engine),
                    sweep.workload,
                    c.sla.text,
                    format_number(c.rate),
                    share,
                    format_number(c.flat_out),
                    format_number(c.passed),
                    format_number(c.failed),
                    note,
                ]
            )
    return rows


def capacity_sentences(sweeps: list[Sweep]) -> list[str]:
    """'LMDB (lmdbjava) holds 180,000 ops/s of workloadc under p99 2 ms, 71 % of its flat-out rate.'"""
    said = []
    for sweep in sweeps:
        for c in sweep.capacities:
            if c.rate is not None and c.share is not None:
                said.append(
                    f"{engine_label(sweep.engine)} holds {format_number(c.rate)} ops/s of {sweep.workload} under "
                    f"{c.sla.text}, {c.share:.0%} of its flat-out rate."
                )
    return said


def rate_blocks(directory: Path, report_dir: Path) -> list[Block]:
    """The section, or nothing when the directory has no rate results."""
    record = load_rate(directory)
    if not record:
        return []
    sweeps = [sweep_of(s) for s in record.get("sweeps", [])]
    stalls = [stall_run_of(s) for s in record.get("stalls", [])]
    blocks: list[Block] = [Heading(2, HEADING)]
    if sweeps:
        blocks += sweep_blocks(record, sweeps, report_dir)
    if stalls:
        blocks += stall_blocks(record, stalls, report_dir)
    return blocks


def sweep_blocks(record: dict, sweeps: list[Sweep], report_dir: Path) -> list[Block]:
    """The sweeps' paragraph, capacity table, and per workload its chart and table."""
    workloads = list(dict.fromkeys(s.workload for s in sweeps))
    ceilings = record.get("ceilings") or {}
    said_ceilings = ", ".join(f"{w} {format_number(c)}/s" for w, c in ceilings.items() if c)
    blocks: list[Block] = [
        Paragraph(
            f"`python -m analysis rate`: per engine and workload a flat-out step, then steps held at "
            f"{', '.join(f'{f:.0%}' for f in record.get('fractions', []))} of that rate (`-target`), "
            f"{record.get('step_seconds')} s each at {record.get('threads')} client thread(s), then a search by "
            f"bisection for the highest rate under each bound ({', '.join(record.get('slas', [])) or 'none'}). "
            "Latency from each request's scheduled start (intended: solid lines) counts the wait a late request "
            "had, which a flat-out run never sees (coordinated omission); from its actual start (service time: "
            f"dashed) it does not. A step that achieved less than {HOLD_SHARE:.0%} of its asked rate did not hold "
            f"it ({NOT_HELD}, hollow markers) and meets no bound. A bound without an operation is the slowest "
            "operation's percentile, which bounds the percentile of all requests from above. The harness's own "
            f"ceiling (a do-nothing DB, the same driver and threads): {said_ceilings or 'not measured'}; a rate "
            "asked above it was refused."
        ),
    ]
    taken = [step for sweep in sweeps for step in sweep.steps if step.achieved]
    noisy = [step for step in taken if busy(step)]
    if noisy:
        blocks.append(
            Paragraph(
                f"**{len(noisy)} of {len(taken)} steps ran while other processes kept more than {NOISY_CORES:.0%} "
                f"of a core busy** ({BUSY}): a request scheduled while its thread waited for a core starts late, so "
                "their intended-time percentiles measure the machine as much as the engine."
            )
        )
    sentences = capacity_sentences(sweeps)
    if sentences:
        blocks.append(Paragraph(" ".join(sentences)))
    blocks += [
        Heading(3, "Capacity under a latency bound"),
        Table(
            [
                "engine",
                "workload",
                "bound",
                "capacity ops/s",
                "of flat out",
                "flat out ops/s",
                "passed",
                "failed",
                "note",
            ],
            capacity_rows(sweeps),
            align_right_from=3,
            text_columns=frozenset({8}),
        ),
    ]
    for workload in workloads:
        these = [s for s in sweeps if s.workload == workload and s.steps]
        if not these:
            continue
        panels = [
            Axes(f"{title} latency", f"{title} (us, log)", chart_lines(these, key), log_y=True, xlabel="achieved ops/s")
            for key, title in CHART_KEYS
        ]
        title = f"{workload}: latency against the achieved rate"
        path = grid_chart(title, panels, report_dir / "charts" / f"rate-{workload}.svg")
        rows = [_step_row(s, step) for s in these for step in s.steps if step.kind != "search"]
        blocks += [
            Heading(3, f"{workload}: latency at each rate"),
            Image(str(path.relative_to(report_dir)), title),
            Table(
                [
                    "engine",
                    "step",
                    "asked ops/s",
                    "achieved ops/s",
                    "p50",
                    "p99",
                    "p99.9",
                    "max",
                    "service p99",
                    "note",
                ],
                rows,
                align_right_from=2,
                text_columns=frozenset({9}),
            ),
        ]
    return blocks


def _at(seconds: list[float], most: int = 8) -> str:
    said = ", ".join(f"{at:.0f}" for at in seconds[:most])
    return said + (" ..." if len(seconds) > most else "") if said else "—"


def stall_sentence(run: StallRun) -> str:
    """'RocksDB on kv1000 at 40,000 writes/s (50% of flat out): 3 of 12 seconds stalled, in 2 stalls, the longest
    2 s; the worst second's p99 1,200,000 us against the median second's 900 us.'"""
    label = f"{engine_label(run.engine)} on {run.workload}"
    if run.error:
        return f"{label}: {run.error}."
    spans = stall_spans(run.stalled)
    asked = f"at {format_number(run.asked)} writes/s ({fraction_text(run.fraction)} of flat out)"
    if not spans:
        return f"{label} {asked}: no stalled second in {len(run.timeline)}."
    worst = max(s.p99_us for s in run.stalled)
    return (
        f"{label} {asked}: {len(run.stalled)} of {len(run.timeline)} seconds stalled, in {len(spans)} stall(s), "
        f"the longest {max(n for _, n in spans)} s; the worst second's p99 {_us(worst)} against the median "
        f"second's {_us(run.median_p99)}."
    )


def stall_row(run: StallRun) -> list[str]:
    if run.error:
        return [engine_label(run.engine), run.workload, "—", "—", "—", "—", "—", "—", "—", run.error]
    spans = stall_spans(run.stalled)
    note = "" if run.held else f"{NOT_HELD} not held"
    return [
        engine_label(run.engine),
        run.workload,
        f"{format_number(run.asked)} ({fraction_text(run.fraction)})",
        format_number(run.achieved),
        str(len(run.timeline)),
        _us(run.median_p99),
        str(len(run.stalled)),
        str(len(spans)),
        str(max((n for _, n in spans), default=0)),
        "; ".join(x for x in (note, f"at {_at([s.at for s in run.stalled])} s" if spans else "") if x),
    ]


def stall_blocks(record: dict, runs: list[StallRun], report_dir: Path) -> list[Block]:
    """Stalls at a fixed rate: what the runs did, a sentence and a row per engine and file, a timeline per engine."""
    blocks: list[Block] = [
        Heading(3, "Stalls at a fixed rate"),
        Paragraph(
            "`python -m analysis rate --stalls`: each write file (with its memtable and level-0 settings) flat out, "
            f"then again on a fresh database held at {record.get('stall_fraction', 0):.0%} of that rate, a rate the "
            "engine sustains on average. Its latency from each request's scheduled start, second by second "
            "(YCSB's HdrHistogram interval logs), shows a write stall as a spike: a second is stalled when its p99 "
            f"is above {STALL_FACTOR:g} times the median second's and above {_us(STALL_FLOOR_US)}, or when no "
            "request finished in it; consecutive stalled seconds are one stall. The first, partial, second is the "
            "client starting and is not counted."
        ),
        Paragraph(" ".join(stall_sentence(r) for r in runs)),
        Table(
            [
                "engine",
                "file",
                "asked writes/s",
                "achieved writes/s",
                "seconds",
                "median p99",
                "stalled seconds",
                "stalls",
                "longest s",
                "note",
            ],
            [stall_row(r) for r in runs],
            align_right_from=2,
            text_columns=frozenset({9}),
        ),
    ]
    for engine in dict.fromkeys(r.engine for r in runs):
        mine = [r for r in runs if r.engine == engine and r.timeline]
        if not mine:
            continue
        panels = [
            Axes(
                f"{r.workload} at {format_number(r.asked)}/s (▼: a stalled second)",
                "intended latency (us, log)",
                [
                    Line(key, [s.at for s in r.timeline], [getattr(s, f"{key}_us") for s in r.timeline], colour=i)
                    for i, key in enumerate(("p50", "p99", "p999"))
                ],
                log_y=True,
                xlabel="seconds",
                marks=[("p99", [s.at for s in r.stalled])],
            )
            for r in mine
        ]
        title = f"{engine_label(engine)}: intended-time latency per second at a fixed write rate"
        path = grid_chart(title, panels, report_dir / "charts" / f"rate-stalls-{engine}.svg")
        blocks.append(Image(str(path.relative_to(report_dir)), title))
    return blocks
