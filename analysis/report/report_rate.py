"""The report's "Latency at a rate" section, from <results>/rate/rate.json (`python -m analysis rate`): per
workload one chart of latency percentiles against the achieved rate (a line per engine, intended time solid and
service time dashed), the sweep's table, and the capacity under each bound beside the flat-out rate. Also the
reading of those records that the heat map's capacity rows and `compare` share: a run's record, its parts' merged
(run_rate), and the capacities in it (capacities_of)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..results.rate import (
    HOLD_SHARE,
    STALL_FACTOR,
    STALL_FLOOR_US,
    Capacity,
    RateStep,
    StallRun,
    Sweep,
    fraction_text,
    stall_run_of,
    stall_spans,
    sweep_of,
)
from ..results.results import RunData
from ..results.scale import NOISY_CORES
from .charts import TODAY_COLOURS
from .charts_scale import Axes, Line, panel_charts
from .formatting import format_compact, format_number
from .render import Block, ChartGrid, Heading, Image, LegendEntry, Paragraph, Table
from .tables import engine_label

HEADING = "Latency at a rate"
RATE_FILE = Path("rate") / "rate.json"  # rate_run.RATE_DIR / RATE_FILE, without importing the runner
CHART_KEYS = (("p50", "p50"), ("p99", "p99"), ("p99.9", "p99.9"), ("max", "max"))
STALL_LINES = ("p50", "p99", "p999")  # a Second's fields, drawn in this order
NOT_HELD = "✗"
BUSY = "†"  # taken while other processes kept more than NOISY_CORES busy, as the At-scale section marks them


def busy(step: RateStep) -> bool:
    return step.other_cores is not None and step.other_cores > NOISY_CORES


def load_rate(directory: Path) -> dict | None:
    """The rate command's record of a results directory, or None when it has none."""
    path = directory / RATE_FILE
    return json.loads(path.read_text()) if path.is_file() else None


# The settings two records must share to be one section; stall runs read only the last two of them.
SWEEP_SETTINGS = ("threads", "step_seconds", "fractions", "slas", "resolution")
STALL_SETTINGS = ("threads", "stall_fraction")


def merge_rates(parts: list[tuple[Path, dict]], allow_mixed: bool = False) -> dict | None:
    """The rate records of several results directories (the parts a merged report reads) as one: every part's
    sweeps and stall runs, each workload's harness ceilings (one per part that measured it), the first part's
    settings, and `merge_problems`, the settings that differ. ValueError when two parts hold the same engine on the
    same workload (which one counts?), or, unless allow_mixed, when their settings differ."""
    if len(parts) <= 1:
        return parts[0][1] if parts else None
    seen: dict[tuple[str, str, str], Path] = {}
    for directory, record in parts:
        for kind in ("sweeps", "stalls"):
            for run in record.get(kind) or []:
                key = (kind, run["engine"], run["workload"])
                if key in seen:
                    raise ValueError(
                        f"rate {'sweep' if kind == 'sweeps' else 'stall run'} {key[1]}/{key[2]} is in both "
                        f"{seen[key]} and {directory}: which one counts?"
                    )
                seen[key] = directory
    problems = []
    for kind, names in (("sweeps", SWEEP_SETTINGS), ("stalls", STALL_SETTINGS)):
        holding = [(d, r) for d, r in parts if r.get(kind)]
        for name in names:
            for directory, record in holding[1:]:
                if record.get(name) != holding[0][1].get(name):
                    problems.append(
                        f"rate settings differ: {name} is {holding[0][1].get(name)} in {holding[0][0]} but "
                        f"{record.get(name)} in {directory}"
                    )
    problems = list(dict.fromkeys(problems))
    if problems and not allow_mixed:
        raise ValueError("; ".join(problems) + " (--allow-mixed merges them all the same)")
    ceilings: dict[str, list[float]] = {}
    for _, record in parts:
        for workload, ceiling in (record.get("ceilings") or {}).items():
            if ceiling and ceiling not in ceilings.setdefault(workload, []):
                ceilings[workload].append(ceiling)
    first = next((r for _, r in parts if r.get("sweeps")), parts[0][1])
    return {
        **{k: v for k, v in first.items() if k not in ("sweeps", "stalls", "ceilings")},
        "stall_fraction": next((r.get("stall_fraction") for _, r in parts if r.get("stalls")), None),
        "ceilings": ceilings,
        "sweeps": [s for _, r in parts for s in r.get("sweeps") or []],
        "stalls": [s for _, r in parts for s in r.get("stalls") or []],
        "merged_from": [str(d) for d, _ in parts],
        "merge_problems": problems,
    }


def run_rate(run: RunData, allow_mixed: bool = False) -> dict | None:
    """The rate record of a run: its results directory's, or the parts' of a merged run (merge_rates)."""
    directories = [Path(p["directory"]) for p in run.suite.get("merged_from") or []] or [run.directory]
    return merge_rates([(d, r) for d in directories if (r := load_rate(d))], allow_mixed)


def capacities_of(record: Mapping | None) -> dict[tuple[str, str, str], Capacity]:
    """(engine, workload, bound) -> the capacity found, for each bound searched on each sweep of a rate record."""
    if not record:
        return {}
    return {
        (s.engine, s.workload, c.sla.text): c for s in map(sweep_of, record.get("sweeps", [])) for c in s.capacities
    }


@dataclass(frozen=True)
class CapacityRow:
    """A heat map row: one workload's capacities under one bound, by engine."""

    label: str
    scores: dict[str, float]  # the capacity relative to the best engine's; 0: no rate met the bound
    texts: dict[str, str]  # '180k'; '≥180k': met at every rate asked; 'none'


def capacity_map_rows(capacities: Mapping[tuple[str, str, str], Capacity]) -> list[CapacityRow]:
    """A row per workload and bound, in the record's order, of the engines that searched it (pure)."""
    grouped: dict[tuple[str, str], dict[str, Capacity]] = {}
    for (engine, workload, bound), c in capacities.items():
        grouped.setdefault((workload, bound), {})[engine] = c
    rows = []
    for (workload, bound), by_engine in grouped.items():
        best = max((c.rate for c in by_engine.values() if c.rate), default=None)
        scores: dict[str, float] = {}
        texts: dict[str, str] = {}
        for engine, c in by_engine.items():
            if c.rate is None or not best:
                scores[engine], texts[engine] = 0.0, "none"
            else:
                scores[engine] = c.rate / best
                texts[engine] = ("≥" if c.failed is None else "") + format_compact(c.rate)
        rows.append(CapacityRow(f"{workload} capacity under {bound}", scores, texts))
    return rows


def _us(value: float | None) -> str:
    return "—" if value is None else f"{format_number(value)} us"


def chart_lines(sweeps: list[Sweep], key: str) -> list[Line]:
    """Per engine two lines of one percentile against the achieved rate: intended (solid), service (dashed), in
    the engine's colour (engine_legend); a step that did not hold its rate is drawn hollow."""
    lines = []
    for i, sweep in enumerate(sweeps):
        steps = sorted((s for s in sweep.steps if s.achieved), key=lambda s: s.achieved or 0.0)
        x = [s.achieved or 0.0 for s in steps]
        held = [not s.held for s in steps]
        label = engine_label(sweep.engine)
        lines.append(Line(f"{label} intended", x, [s.latency(key) for s in steps], held, colour=i))
        lines.append(Line(f"{label} service", x, [s.latency(key, False) for s in steps], held, colour=i, dashed=True))
    return lines


def engine_legend(sweeps: list[Sweep]) -> list[LegendEntry]:
    """The engines' colours in chart_lines' charts."""
    return [LegendEntry(engine_label(s.engine), TODAY_COLOURS[i % len(TODAY_COLOURS)]) for i, s in enumerate(sweeps)]


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


def rate_blocks(record: dict | None, report_dir: Path) -> list[Block]:
    """The section of a run's rate record (run_rate), or nothing when it has none."""
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
    said_ceilings = ", ".join(f"{w} {_ceilings_text(c)}" for w, c in ceilings.items() if c)
    unmerged = [step for sweep in sweeps for step in sweep.steps if step.achieved and not step.merged]
    overall = (
        "A bound without an operation is on all operations together: the step's HdrHistogram logs of each "
        "operation merged (a read-modify-write counts as its read and its update, which YCSB measures apart)"
        + (
            f"; {len(unmerged)} steps without readable logs give the slowest operation's percentile instead, "
            "which bounds that of all operations from above"
            if unmerged
            else ""
        )
        + "; the table's percentiles are of all operations together too."
    )
    blocks: list[Block] = [
        Paragraph(
            f"`python -m analysis rate`: per engine and workload a flat-out step, then steps held at "
            f"{', '.join(f'{f:.0%}' for f in record.get('fractions', []))} of that rate (`-target`), "
            f"{record.get('step_seconds')} s each at {record.get('threads')} client thread(s), then a search by "
            f"bisection for the highest rate under each bound ({', '.join(record.get('slas', [])) or 'none'}). "
            "Latency from each request's scheduled start (intended: solid lines) counts the wait a late request "
            "had, which a flat-out run never sees (coordinated omission); from its actual start (service time: "
            f"dashed) it does not. A step that achieved less than {HOLD_SHARE:.0%} of its asked rate did not hold "
            f"it ({NOT_HELD}, hollow markers) and meets no bound. {overall} The harness's own "
            f"ceiling (a do-nothing DB, the same driver and threads): {said_ceilings or 'not measured'}; a rate "
            "asked above it was refused."
        ),
    ]
    merged = record.get("merged_from") or []
    if merged:
        problems = record.get("merge_problems") or []
        blocks.append(
            Paragraph(
                f"Merged from the rate results of {len(merged)} results directories ("
                + ", ".join(f"`{d}`" for d in merged)
                + ")"
                + (f", **although {'; '.join(problems)}**" if problems else "")
                + "."
            )
        )
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
            Axes(
                f"{workload}: {title} latency",
                f"{title} (us, log)",
                chart_lines(these, key),
                log_y=True,
                xlabel="achieved ops/s",
            )
            for key, title in CHART_KEYS
        ]
        paths = panel_charts(panels, report_dir / "charts", f"rate-{workload}")
        rows = [_step_row(s, step) for s in these for step in s.steps if step.kind != "search"]
        blocks += [
            Heading(3, f"{workload}: latency at each rate"),
            ChartGrid(
                engine_legend(these),
                [
                    Image(str(p.relative_to(report_dir)), f"{panel.title} against the achieved rate")
                    for p, panel in zip(paths, panels, strict=True)
                ],
                "Lines in each chart (intended time solid, service time dashed; hollow: not held)",
            ),
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


def _ceilings_text(ceiling: float | list[float]) -> str:
    """'3,000,000/s'; a merged record's, one per part that measured it: '2,900,000/s and 3,000,000/s'."""
    values = ceiling if isinstance(ceiling, list) else [ceiling]
    return " and ".join(f"{format_number(c)}/s" for c in values)


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
    images = []
    for engine in dict.fromkeys(r.engine for r in runs):
        mine = [r for r in runs if r.engine == engine and r.timeline]
        panels = [
            Axes(
                f"{engine_label(engine)}, {r.workload} at {format_number(r.asked)}/s",
                "intended latency (us, log)",
                [
                    Line(key, [s.at for s in r.timeline], [getattr(s, f"{key}_us") for s in r.timeline], colour=i)
                    for i, key in enumerate(STALL_LINES)
                ],
                log_y=True,
                xlabel="seconds",
                marks=[("p99", [s.at for s in r.stalled])],
            )
            for r in mine
        ]
        paths = panel_charts(panels, report_dir / "charts", f"rate-stalls-{engine}")
        images += [
            Image(str(p.relative_to(report_dir)), f"{panel.title}: intended-time latency per second")
            for p, panel in zip(paths, panels, strict=True)
        ]
    if images:
        legend = [LegendEntry(name, TODAY_COLOURS[i]) for i, name in enumerate(("p50", "p99", "p99.9"))]
        blocks.append(ChartGrid(legend, images, "Lines in each chart, second by second (▼: a stalled second)"))
    return blocks
