"""The report's parts about what the engines cost: a resource table per section, a chart of write and space
amplification, throughput second by second. Each is a function of the run that returns blocks; report.py
places them (the summary at the top is report_summary.py's).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from ..catalogue.scenarios import catalogue
from ..results.parse import parse_status_lines
from ..results.results import Figure, RunData, in_operations
from .charts import Panel, Series, Timeline, legend_of, small_multiples, timeline_chart
from .formatting import format_figure, format_number, format_open_close, format_seconds
from .render import Block, ChartGrid, Heading, Image, Paragraph, Table
from .report_tables import report_tables
from .tables import DISPLAY_ORDER, engine_label

# The write-heavy cells whose throughput is drawn second by second (more with `report --timeline`).
TIMELINE_SCENARIOS: tuple[str, ...] = ("tinykeys", "kv1000")

COSTS_NOTE = (
    "Measured by the runner from outside the JVM, the same way for every engine (`os.wait4` on the JVM, "
    "`/proc/<pid>/io`, the data directory after the step); medians over repeats. "
    "**Inside ops**: operations (a full pass: entries) per second of the time inside the binding's calls, each "
    "timed in nanoseconds by the timing layer after the open and before the close, as db_bench, which produced "
    "the 2011 page and the RocksDB vs LevelDB figures, keeps its clock; YCSB's figure also counts the open, the "
    "close and the client's work between operations. **Open / close**: seconds from the first client thread's "
    "open to the last one's, and the same for the close (LevelDB's and RocksDB's flush of the memtable, a "
    "batch's last entries). **CPU**: user + system seconds of the whole JVM per 1,000 operations "
    "(entries, for a full scan): client threads, the engine's background flush and compaction threads, the JIT "
    "and the garbage collector. **Peak RSS**: the JVM's peak resident memory: its heap as far as touched, the "
    "engine's caches and memtables; not the page cache. **Written**: bytes the JVM sent towards the disk "
    "(`ru_oublock`: every file page dirtied, counted once per dirtying, whether the kernel wrote it during or "
    "after the step; also files deleted before they reached the disk, and YCSB's own output files, a few KB). "
    "**Write amp.**: written / user data written (keys plus fieldcount x fieldlength values, the bytes YCSB "
    "asked to store). **On disk**: the data directory's allocated size after the step; **space amp.**: on disk "
    "/ user data the database holds."
)

MB = 1e6
COSTS_HEADING = Heading(3, "What it cost")


def section_scenarios() -> dict[str, list[str]]:
    """Report section heading -> its scenarios, in report order."""
    sections: dict[str, list[str]] = {}
    for table in report_tables():
        for column in table.columns:
            scenarios = sections.setdefault(table.section, [])
            if column.scenario not in scenarios:
                scenarios.append(column.scenario)
    return sections


def _ordered_figures(run: RunData, scenarios: Iterable[str]) -> list[Figure]:
    order = {s: i for i, s in enumerate(scenarios)}
    chosen = [f for f in run.figures if f.scenario in order and f.value is not None]
    rank = {e: i for i, e in enumerate(DISPLAY_ORDER)}
    return sorted(chosen, key=lambda f: (order[f.scenario], f.variant, rank.get(f.engine, len(rank))))


def _mb(value: float | None) -> str:
    return "—" if value is None else f"{value / MB:,.1f}" if value < 100 * MB else f"{value / MB:,.0f}"


def _times(value: float | None) -> str:
    return "—" if value is None else f"{value:.2f}x" if value < 10 else f"{value:,.0f}x"


def costs_table(run: RunData, scenarios: Iterable[str]) -> Table | None:
    """A row per figure of these scenarios: YCSB's figure, inside ops and the resource profile."""
    rows = []
    for f in _ordered_figures(run, scenarios):
        c = f.costs
        inside = in_operations(f)
        rows.append(
            [
                f.scenario + (f" {f.variant}" if f.variant else ""),
                engine_label(f.engine),
                format_figure(f.value, f.unit),
                format_number(inside.value) if inside is not None else "—",
                format_open_close(c.get("open_seconds"), c.get("close_seconds")),
                format_seconds(c.get("cpu_seconds_per_1000_ops")),
                _mb(c.get("peak_rss_bytes")),
                _mb(c.get("written_bytes")),
                _times(c.get("write_amplification")),
                _mb(c.get("db_bytes")),
                _times(c.get("space_amplification")),
            ]
        )
    if not rows:
        return None
    headers = [
        "Test",
        "Engine",
        "YCSB",
        "inside ops/sec",
        "open / close (s)",
        "CPU s / 1,000 ops",
        "peak RSS (MB)",
        "written (MB)",
        "write amp.",
        "on disk (MB)",
        "space amp.",
    ]
    return Table(headers, rows, align_right_from=2)


def costs_blocks(run: RunData, section: str, explain: bool) -> list[Block]:
    """The resource table of one report section (nothing when none of its figures has one); explain:
    say what each number includes (the first table does, the others point to it)."""
    table = costs_table(run, section_scenarios().get(section, []))
    if table is None:
        return []
    note = COSTS_NOTE if explain else "What each column includes: under the first 'What it cost' table."
    return [COSTS_HEADING, table, Paragraph(note)]


def write_scenarios(run: RunData) -> list[str]:
    """Scenarios whose measured step writes (a load, or a run with updates), in catalogue order."""
    return [
        s.id
        for s in catalogue()
        if any(f.scenario == s.id and f.costs.get("write_amplification") is not None for f in run.figures)
    ]


def amplification_blocks(run: RunData, report_dir: Path) -> list[Block]:
    """Small multiples: a chart per write scenario, each engine's write and space amplification, all on one
    scale under one legend."""
    scenarios = write_scenarios(run)
    engines = [e for e in DISPLAY_ORDER if any(f.engine == e for f in run.figures)]
    if not scenarios or not engines:
        return []
    by_key = {(f.engine, f.scenario): f for f in run.figures if not f.variant}
    scenarios = [s for s in scenarios if any((e, s) in by_key for e in engines)]
    if not scenarios:  # only variants wrote (bulk-import, a --workload file's load beside its thread series)
        return []
    measures = (("write amp.", "write_amplification"), ("space amp.", "space_amplification"))
    panels = [
        Panel(
            scenario,
            [label for label, _ in measures],
            [
                Series(
                    engine_label(e),
                    [
                        (by_key[(e, scenario)].costs.get(column) if (e, scenario) in by_key else None)
                        for _, column in measures
                    ],
                )
                for e in engines
            ],
        )
        for scenario in scenarios
    ]
    paths = small_multiples("x user data", panels, report_dir / "charts", "amplification")
    return [
        Heading(2, "Write and space amplification"),
        Paragraph(
            "Every write scenario's measured step, a chart each, one scale for all: bytes written to disk "
            "(write amp.) and the database's size on disk (space amp.) against the user data (keys and values) "
            "it was given. What the numbers include is under the first 'What it cost' table."
        ),
        ChartGrid(
            legend_of(panels[0].series),
            [
                Image(str(p.relative_to(report_dir)), f"{s}: write and space amplification")
                for p, s in zip(paths, scenarios, strict=True)
            ],
        ),
    ]


def timeline_of(run: RunData, engine: str, scenario: str, variant: str = "") -> Timeline | None:
    """The first repeat's measured step of a cell, second by second, from its `-s` status lines."""
    for cell in run.cells:
        if (cell["engine"], cell["scenario"]) != (engine, scenario) or not cell["repeats"]:
            continue
        for step in cell["repeats"][0]:
            if not (step["measured"] and step["variant"] == variant):
                continue
            path = run.directory / step["stderr"]
            status = parse_status_lines(path.read_text(errors="replace")) if path.is_file() else []
            # One point a second: YCSB's closing status line repeats the last second with a partial interval.
            by_second = {
                s.seconds: s.current_ops_per_sec for s in reversed(status) if s.current_ops_per_sec is not None
            }
            points = sorted(by_second.items())
            if not points:
                return None
            full = [s for s in status[1:-1] if s.current_ops_per_sec is not None]  # as slowest_interval
            slowest = min(full, key=lambda s: s.current_ops_per_sec or 0.0) if full else None
            return Timeline(
                engine_label(engine),
                [p[0] for p in points],
                [p[1] for p in points],
                (slowest.seconds, slowest.current_ops_per_sec or 0.0) if slowest else None,
            )
    return None


# A timeline needs this many one-second status lines to show a shape rather than a few points.
TIMELINE_MIN_SECONDS = 10


def timeline_blocks(run: RunData, report_dir: Path, scenarios: Iterable[str] = TIMELINE_SCENARIOS) -> list[Block]:
    blocks: list[Block] = []
    too_short = []
    for scenario in scenarios:
        found = [t for e in DISPLAY_ORDER if (t := timeline_of(run, e, scenario)) is not None]
        timelines = [t for t in found if len(t.seconds) >= TIMELINE_MIN_SECONDS]
        too_short += [f"{scenario} on {t.name} ({len(t.seconds)} s)" for t in found if t not in timelines]
        if not timelines:
            continue
        title = f"{scenario}: ops/sec second by second"
        path = timeline_chart(title, timelines, report_dir / "charts" / f"timeline-{scenario}.svg")
        blocks += [Heading(3, title), Image(str(path.relative_to(report_dir)), title)]
    if not blocks and not too_short:
        return []
    short = (
        f" No timeline for steps shorter than {TIMELINE_MIN_SECONDS} one-second status lines, too few to show "
        f"a shape: {', '.join(too_short)}."
        if too_short
        else ""
    )
    return [
        Heading(2, "Throughput over time"),
        Paragraph(
            "YCSB's `-s` status line of each second of the measured step (first repeat), one line per engine: "
            "write stalls and compaction debt show as dips; the marker is the slowest full second." + short
        ),
        *blocks,
    ]
