"""What a reader of the report sees first: the heat map of every test at a glance (each engine's figure against
the best, the capacity rows of the rate command, the tests of one engine apart) and the Summary (the findings'
verdicts, the noise, the steadiness, failed cells, durability, the scale group, the fastest engine of each test).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from ..catalogue.model import is_peer
from ..catalogue.scenarios import SCENARIOS_BY_ID
from ..results.crash import CrashResults
from ..results.noise import NO_NOISE, Noise
from ..results.results import OPERATIONS_CLOCK, YCSB_CLOCK, Figure, RunData
from ..results.steady import (
    CLIMBING,
    MARK_LEGEND,
    MARKS,
    STEADY,
    STEADY_MIN_INTERVALS,
    STEADY_MIN_RATE,
    STEADY_MIN_SECONDS,
    TOO_SHORT,
)
from ..results.steady import describe as describe_steadiness
from .findings import (
    MARGIN_FINDINGS,
    NOT_MEASURED,
    NOT_REPRODUCED,
    REPRODUCED,
    TOO_CLOSE,
    FindingResult,
    closer_library,
)
from .formatting import format_figure
from .render import Block, BulletList, Heading, HeatMap, Paragraph, Table
from .report_costs import section_scenarios
from .report_rate import CapacityRow
from .report_scale import scale_summary
from .tables import DISPLAY_ORDER, engine_label


def report_tests() -> list[tuple[str, str, str]]:
    """(section, scenario, variant) of every test the report's tables show, in report order."""
    return [
        (section, scenario, variant)
        for section, scenarios in section_scenarios().items()
        for scenario in scenarios
        for variant in SCENARIOS_BY_ID[scenario].variants
    ]


def lower_is_better(figure: Figure) -> bool:
    return figure.metric == "elapsed_ms"


def scores(figures: list[Figure]) -> dict[str, float]:
    """Engine -> its figure relative to the best of these (one test's): 1.0 the best, 0.5 half its speed
    (twice its time, for an elapsed-time test)."""
    done = [f for f in figures if f.value is not None and f.value > 0]
    if not done:
        return {}
    if lower_is_better(done[0]):
        best = min(f.value or 0.0 for f in done)
        return {f.engine: best / (f.value or 1.0) for f in done}
    best = max(f.value or 0.0 for f in done)
    return {f.engine: (f.value or 0.0) / best for f in done}


def in_display_order(engines: Iterable[str]) -> list[str]:
    """The display order first, then the rest (peers) by name."""
    present = set(engines)
    return [e for e in DISPLAY_ORDER if e in present] + sorted(present - set(DISPLAY_ORDER))


def report_engines(run: RunData) -> list[str]:
    """The engines with figures in this run: the display order first, then the rest (peers) by name."""
    return in_display_order(f.engine for f in run.figures)


YCSB_MARK = " †"  # a heat map row on YCSB's clock
ALONE_HEADING = Heading(3, "Tests of one engine")
CAPACITY_NOTE = (
    "Each row 'capacity under' a bound (`python -m analysis rate`: Latency at a rate, below) gives each engine's "
    "capacity on that workload, the highest rate in operations a second (k thousands, M millions) whose "
    "intended-time percentile stayed within the bound, shaded by its ratio to the best engine's; ≥: met at every "
    "rate asked, the capacity is above them; none: no rate met the bound."
)


def short_label(engine: str) -> str:
    """An engine's name in a narrow heat map's header: its label without the library in brackets
    ('LevelDB 1.13', 'LMDB'); a peer's keeps its tree's version, which tells it from ours."""
    return engine_label(engine) if is_peer(engine) else engine_label(engine).split(" (")[0]


def glance_blocks(
    run: RunData,
    compared: list[Figure] | None = None,
    on_ycsb: set[tuple[str, str]] | None = None,
    steadiness: Mapping[tuple[str, str, str], str] | None = None,
    capacities: list[CapacityRow] | None = None,
) -> list[Block]:
    """The report's first view: a heat map of engines by tests, each cell the engine's figure relative to
    the best engine of that test; below it, the tests that ran on one engine of several (an engine's own
    tuning), which have nothing to compare, with their figures. compared, on_ycsb: the figures on the clock
    each test is compared on, and the tests on YCSB's clock (results.like_for_like); default: every test on
    YCSB's. steadiness: each figure's steady-state verdict (steady.py): a figure that is not steady is marked.
    capacities: the rate command's capacity under each bound (report_rate.capacity_map_rows), rows of their own
    after the tests', in the map when it has tests or they have more than one engine."""
    figures = run.figures if compared is None else compared
    ycsb = {(f.scenario, f.variant) for f in figures} if on_ycsb is None else on_ycsb
    several = len(report_engines(run)) > 1
    timed = len(ycsb) < len({(f.scenario, f.variant) for f in figures})  # some test on db_bench's clock
    flags = steadiness or {}
    compared_tests, alone = [], []
    for section, scenario, variant in report_tests():
        ran = [f for f in figures if (f.scenario, f.variant) == (scenario, variant)]
        by_engine = scores(ran)
        if not by_engine:
            continue
        mark = YCSB_MARK if timed and (scenario, variant) in ycsb else ""
        label = f"{scenario}{' ' + variant if variant else ''}{mark}"
        flagged = {e: MARKS.get(flags.get((e, scenario, variant), STEADY), "") for e in by_engine}
        if several and len(ran) == 1:
            alone.append((label, ran[0], flagged[ran[0].engine], section))
        else:
            compared_tests.append((label, by_engine, flagged, {f.engine for f in ran}))
    tested = [e for e in report_engines(run) if any(e in ran for *_, ran in compared_tests)]
    capacity_rows = capacities or []
    rated = {e for row in capacity_rows for e in row.texts}
    if not compared_tests and len(rated) < 2:
        capacity_rows = []
    if not compared_tests and not alone and not capacity_rows:
        return []
    engines = in_display_order({*tested, *(rated if capacity_rows else ())})
    rows = [(label, [by_engine.get(e) for e in engines]) for label, by_engine, _, _ in compared_tests]
    marks = [[flagged.get(e, "") for e in engines] for _, _, flagged, _ in compared_tests]
    texts = [[""] * len(engines) for _ in rows] + [[row.texts.get(e, "") for e in engines] for row in capacity_rows]
    rows += [(row.label, [row.scores.get(e) for e in engines]) for row in capacity_rows]
    shown = {m for row in marks for m in row} | {m for *_, m, _ in alone}
    legend = "".join(f" {mark}: {MARK_LEGEND[verdict]}." for verdict, mark in MARKS.items() if mark in shown)
    clocks = (
        f" Each test with a published figure is compared on db_bench's clock ('{OPERATIONS_CLOCK}': the "
        "operations' own nanoseconds, after the open and before the close), where an engine without that figure "
        f"(a peer) has none; the others (no published figure, an elapsed time) on {YCSB_CLOCK}'s throughput, "
        f"marked{YCSB_MARK}."
        if timed
        else f" Every test on {YCSB_CLOCK}'s throughput (this run has no in-operation times)."
    )
    blocks: list[Block] = [Heading(2, "At a glance")]
    tests_note = (
        "Each test's figure relative to the best engine in it (medians): 1.00 is the best, 0.50 half its "
        "throughput, or twice its time in an elapsed-time test; — no figure (failed or not run). The "
        "shade goes from green (the best) through yellow (a tenth) to orange (a hundredth and below)." + clocks + legend
    )
    if rows:
        blocks += [
            Paragraph(
                (tests_note if compared_tests else "")
                + (" " if compared_tests and capacity_rows else "")
                + (CAPACITY_NOTE if capacity_rows else "")
            ),
            HeatMap(
                "Test",
                [engine_label(e) for e in engines],
                rows,
                marks if any(m for row in marks for m in row) else [],
                [short_label(e) for e in engines],
                texts if capacity_rows else [],
            ),
        ]
    if alone:
        blocks += [
            ALONE_HEADING,
            Paragraph(
                "Tests that only one engine of this run ran (its own tuning, or the others were not asked to), "
                "left out of the map for want of another engine to compare with: each one's figure (the median, "
                "on the clock the map would compare it on, with the same marks) and the section that shows it."
                + ("" if compared_tests else clocks + legend)
            ),
            Table(
                ["Test", "Engine", "Figure", "Section"],
                [
                    [label, engine_label(f.engine), format_figure(f.value, f.unit) + (f" {m}" if m else ""), section]
                    for label, f, m, section in alone
                ],
                align_right_from=2,
                text_columns=frozenset({3}),
            ),
        ]
    return blocks


def fastest_text(figures: list[Figure]) -> str | None:
    """'LevelDB (19 % ahead of Kyoto TreeDB)' for one scenario's figures; None with fewer than two engines."""
    done = [f for f in figures if f.value is not None]
    if len(done) < 2:
        return None
    ranked = sorted(done, key=lambda f: f.value or 0.0, reverse=not lower_is_better(done[0]))
    best, second = ranked[0], ranked[1]
    assert best.value is not None and second.value is not None
    margin = abs(best.value - second.value) / second.value * 100 if second.value else 0.0
    return f"{engine_label(best.engine)} ({margin:.0f} % ahead of {engine_label(second.engine)})"


def steadiness_item(steadiness: Mapping[tuple[str, str, str], str]) -> str:
    """The summary's line on steady state: how many figures were not, and which still climbed."""
    climbing = [k for k, v in steadiness.items() if v == CLIMBING]
    short = sum(1 for v in steadiness.values() if v == TOO_SHORT)
    return (
        f"**Steady state** (each measured step's seconds, checked): of {len(steadiness)} figures, "
        f"{len(climbing)} still climbing at their step's end (marked {MARKS[CLIMBING]} in the heat map"
        + (
            f": {describe_steadiness(steadiness, climbing, engine_label).replace(' ' + CLIMBING, '')}"
            if climbing
            else ""
        )
        + f"), {short} from steps too short to show a steady part (fewer than {STEADY_MIN_INTERVALS} whole 100 ms "
        f"intervals, or {STEADY_MIN_SECONDS} whole seconds where only YCSB's status lines are there, or "
        f"{STEADY_MIN_RATE:.0f} operations a second, marked {MARKS[TOO_SHORT]}). Such a figure holds the "
        "JVM's and the caches' warm-up, not only the engine."
    )


def summary_blocks(
    run: RunData,
    findings: list[FindingResult],
    crash: CrashResults | None,
    full_repeats: bool,
    compared: list[Figure] | None = None,
    noise: Noise = NO_NOISE,
    steadiness: Mapping[tuple[str, str, str], str] | None = None,
) -> list[Block]:
    """What a reader sees first: the verdicts, the fastest engine per scenario, failures, durability.
    compared: the figures on the clock each test is compared on (as the heat map's); default YCSB's;
    noise: this machine's spread per kind of step, as the run measured it."""
    figures = run.figures if compared is None else compared
    by_status: dict[str, list[str]] = {}
    for r in findings:
        by_status.setdefault(r.status, []).append(r.label)
    verdicts = "; ".join(
        f"{len(by_status.get(s, []))} {s}" + (f" ({', '.join(by_status[s])})" if by_status.get(s) else "")
        for s in (REPRODUCED, NOT_REPRODUCED, TOO_CLOSE, NOT_MEASURED)
    )
    items = [
        f"**Published findings**: {verdicts}. The table is under 'Findings', at the end."
        if findings
        else "**Published findings**: none judged: this run had none of the scenarios they are checked on."
    ]
    per_library = closer_library(findings)
    if per_library:
        items.append(f"**LevelDB 1.13 or 1.23**: {per_library}.")
    repeats = run.suite.get("repeats") or {}
    repeated = sorted({n for n in repeats.values()} - {1}) if isinstance(repeats, dict) else []
    if full_repeats:
        items.append(
            f"**Noise**: the cells of {', '.join(MARGIN_FINDINGS)} ran {max(repeated, default=1)} times (`--full` "
            "does so by default); a finding whose margin is inside its figures' min-max spread is 'too close to call'."
        )
    elif run.suite.get("repeat", 1) > 1:
        items.append(
            f"**Noise**: every cell ran {run.suite['repeat']} times; figures are medians with their min-max, and a "
            "finding whose margin is inside that spread is 'too close to call'."
        )
    elif noise.bands:
        items.append(
            "**Noise**: one run per figure, but the run repeated a cell of each kind of step to measure this "
            "machine's run-to-run spread: "
            + "; ".join(b.describe() for b in noise.bands.values())
            + ". A finding whose margin is within that spread is 'too close to call' (how: 'Run-to-run spread')."
        )
    else:
        items.append("**Noise**: one run per cell, so no finding can be judged against its noise (`--repeat 3`).")
    if steadiness:
        items.append(steadiness_item(steadiness))
    failed = [c for c in run.cells if c["status"] != "ok"]
    items.append(
        f"**Failed cells**: {len(failed)} of {len(run.cells)}"
        + (": " + ", ".join(f"{c['engine']}/{c['scenario']}" for c in failed) if failed else "")
        + "."
    )
    if crash is not None:
        durability = ", ".join(
            f"{engine_label(s.engine)} sync={str(s.sync).lower()} {s.verdict}" for s in crash.summaries
        )
        items.append(f"**Durability** (kill -9 while writing): {durability}.")
    else:
        items.append("**Durability**: not checked in this run (`--crash-rounds N`).")
    at_scale = scale_summary(run)
    if at_scale:
        items.append(at_scale)
    fastest: dict[str, list[str]] = {}
    for section, scenario, variant in report_tests():
        text = fastest_text([f for f in figures if (f.scenario, f.variant) == (scenario, variant)])
        if text:
            fastest.setdefault(section, []).append(f"{scenario}{' ' + variant if variant else ''}: {text}")
    rows = [[section, "; ".join(parts)] for section, parts in fastest.items()]
    blocks: list[Block] = [Heading(2, "Summary"), BulletList(items)]
    if rows:
        blocks += [
            Paragraph(
                "Fastest engine of each test (medians, on the clock the heat map compares that test on; "
                "elapsed-time tests: the shortest):"
            ),
            Table(["Section", "Fastest"], rows, align_right_from=2),
        ]
    return blocks
