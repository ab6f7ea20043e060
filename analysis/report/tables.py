"""Report tables built from figures and published figures (pure: no files, no plotting).

Layout "engines": a row per engine, for each column this host's figure and the published one.
Layout "variants": a row per test, a column per engine (this host's, then the published ones).
Layout "tests": a row per test and engine, this host's figure beside what the engine said about its
background work at close (write stalls, files per level, L1 against its target), then the published
figure and its notes: the shape of the RocksDB vs LevelDB comparison.
Every figure carries its "x baseline" ratio where the table defines a baseline.
Beside a published figure, this host's is given on two clocks: "in operations", db_bench's (the binding's
calls timed in nanoseconds after the open and before the close), which the ratio and the chart use, and
YCSB's throughput, which also counts the open, the close and the client's work between operations; the
open and close times are stated under the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import NamedTuple

from ..catalogue.engines import REGISTERED
from ..catalogue.model import ENGINE_LABELS, is_peer, peer_label
from ..catalogue.scenarios import SCENARIOS_BY_ID
from ..results.results import OPERATIONS_CLOCK, YCSB_CLOCK, CloseStats, Figure, in_operations
from .charts import Panel, Series
from .formatting import (
    format_count,
    format_figure,
    format_level_one,
    format_level_shape,
    format_mb,
    format_number,
    format_open_close,
    format_ratio,
)
from .reference import PUBLISHED_ONLY_ENGINES, Key, Published
from .render import Table
from .report_tables import Column, ReportTable

# The registry's report order (the 2011 page's first), then the engines known only from a published page.
DISPLAY_ORDER = (*REGISTERED.report_order, *PUBLISHED_ONLY_ENGINES)
TODAY = "today, this host"

FigureMap = Mapping[tuple[str, str, str], Figure]  # (engine, scenario, variant) -> Figure


def engine_label(engine: str) -> str:
    if is_peer(engine):
        return peer_label(engine)
    return ENGINE_LABELS.get(engine) or PUBLISHED_ONLY_ENGINES.get(engine, engine)


def measured_here(engine: str) -> bool:
    """An engine this suite runs (ours, a peer), not one known only from a published page."""
    return engine not in PUBLISHED_ONLY_ENGINES


@dataclass
class BuiltTable:
    definition: ReportTable
    table: Table
    panels: list[Panel]
    unit: str
    notes: list[str]


def baseline_of(column: Column) -> tuple[str, str] | None:
    """The (scenario, variant) this column is a ratio to; None when it is its own baseline."""
    base = column.baseline
    if base is None:
        scenario = SCENARIOS_BY_ID[column.scenario]
        base = (scenario.baseline, "") if scenario.baseline else None
    if base is None or base == (column.scenario, column.variant):
        return None
    return base


def today_ratio(figures: FigureMap, engine: str, column: Column) -> float | None:
    base = baseline_of(column)
    mine = figures.get((engine, column.scenario, column.variant))
    if base is None or mine is None or mine.value is None:
        return None
    other = figures.get((engine, *base))
    return mine.value / other.value if other and other.value else None


def published_ratio(published: Mapping[Key, Published], engine: str, column: Column) -> float | None:
    entry = published.get((column.scenario, column.variant, engine))
    base = baseline_of(column)
    if entry is None or base is None:
        return None
    if entry.x_baseline is not None:
        return entry.x_baseline
    other = published.get((*base, engine))
    return entry.value / other.value if other and other.value else None


def today_text(figures: FigureMap, engine: str, column: Column, slowest: bool = False) -> str:
    """The figure of this run; slowest: with its slowest second (the tests layout, whose note says why)."""
    scenario = SCENARIOS_BY_ID[column.scenario]
    if not scenario.runs_on(engine):
        return "n/a"
    figure = figures.get((engine, column.scenario, column.variant))
    if figure is None:
        return "not run"
    if figure.value is None:
        return figure.status
    text = format_figure(figure.value, figure.unit)
    if len(figure.values) > 1:  # the median's min-max over the repeats: the noise of this machine
        text += f" [{format_number(figure.value_min)}–{format_number(figure.value_max)}]"
    if figure.mb_per_sec is not None:
        text += f", {figure.mb_per_sec:.2f} MB/s"
    if figure.slowest_interval_ops_per_sec is not None and slowest:
        text += f"; slowest second {format_number(figure.slowest_interval_ops_per_sec)} ops/sec"
    ratio = today_ratio(figures, engine, column)
    return text + (f" ({format_ratio(ratio)} baseline)" if ratio is not None else "")


def published_text(published: Mapping[Key, Published], engine: str, column: Column) -> str:
    entry = published.get((column.scenario, column.variant, engine))
    if entry is None:
        return "—"
    text = format_figure(entry.value, entry.unit)
    if entry.mb_per_sec is not None:
        text += f", {entry.mb_per_sec:.2f} MB/s"
    ratio = published_ratio(published, engine, column)
    return text + (f" ({format_ratio(ratio)} baseline)" if ratio is not None else "")


def ycsb_text(figures: FigureMap, engine: str, column: Column) -> str:
    """YCSB's own figure, short: it stands beside the in-operation one, which carries the ratio and spread."""
    figure = figures.get((engine, column.scenario, column.variant))
    if figure is None or figure.value is None or not measured_here(engine):
        return "—"
    return format_figure(figure.value, figure.unit)


def on_operations_clock(figures: FigureMap) -> FigureMap:
    """The figures on db_bench's clock; one that worked but has none (a peer's) shows as '—'."""
    return {
        key: in_operations(f) or (replace(f, value=None, values=[], mb_per_sec=None, status="—") if f.value else f)
        for key, f in figures.items()
    }


def clocked(definition: ReportTable, figures: FigureMap, label: str | None) -> bool:
    """Whether the table gives this host's figures on both clocks: it has published figures and the run
    timed some of its operations."""
    return label is not None and any(
        f.inside_values for (_, s, v), f in figures.items() if (s, v) in _column_keys(definition)
    )


def _column_keys(definition: ReportTable) -> set[tuple[str, str]]:
    return {(c.scenario, c.variant) for c in definition.columns}


def clock_note(definition: ReportTable, figures: FigureMap, engines: list[str]) -> str:
    """What the two clocks count, and each engine's open and close (medians, seconds) per column."""
    parts = []
    for engine in engines:
        times = []
        for column in definition.columns:
            f = figures.get((engine, column.scenario, column.variant))
            if f is None or f.value is None or f.costs.get("open_seconds") is None:
                continue
            pair = format_open_close(f.costs.get("open_seconds"), f.costs.get("close_seconds"))
            times.append(f"{column.label.lower()} {pair}" if len(definition.columns) > 1 else pair)
        if times:
            parts.append(f"{engine_label(engine)} {', '.join(times)}")
    return (
        f"**{OPERATIONS_CLOCK}**: db_bench's clock, the binding's calls timed in nanoseconds after the open and "
        f"before the close (the ratios and the chart use it); **{YCSB_CLOCK}**: YCSB's throughput, which also "
        "counts the open, the close (LevelDB's and RocksDB's flush) and the client's work between operations."
        + (" Open / close (s, medians): " + "; ".join(parts) + "." if parts else "")
    )


def _ordered(engines: set[str]) -> list[str]:
    return sorted(engines, key=lambda e: (DISPLAY_ORDER.index(e) if e in DISPLAY_ORDER else len(DISPLAY_ORDER), e))


def table_engines(definition: ReportTable, figures: FigureMap) -> list[str]:
    """Engines run for any column of the table."""
    return _ordered({e for (e, s, v) in figures if any(c.scenario == s for c in definition.columns)})


def published_engines(definition: ReportTable, published: Mapping[Key, Published]) -> list[str]:
    return _ordered(
        {e for (s, v, e) in published if any((c.scenario, c.variant) == (s, v) for c in definition.columns)}
    )


def published_label(definition: ReportTable, published: Mapping[Key, Published]) -> str | None:
    for column in definition.columns:
        for (s, v, _engine), entry in published.items():
            if (s, v) == (column.scenario, column.variant):
                return entry.label
    return None


def _value(figures: FigureMap, engine: str, column: Column) -> float | None:
    figure = figures.get((engine, column.scenario, column.variant))
    return figure.value if figure else None


def _published_value(published: Mapping[Key, Published], engine: str, column: Column) -> float | None:
    entry = published.get((column.scenario, column.variant, engine))
    return entry.value if entry else None


def engine_notes(definition: ReportTable, engines: list[str]) -> list[str]:
    notes = {}
    for column in definition.columns:
        for engine, note in SCENARIOS_BY_ID[column.scenario].engine_notes.items():
            if engine in engines:
                notes[engine] = f"{engine_label(engine)}: {note}."
    return list(notes.values())


def engine_panels(
    definition: ReportTable,
    figures: FigureMap,
    published: Mapping[Key, Published],
    engines: list[str],
    label: str | None,
    today: str = TODAY,
) -> list[Panel]:
    """Sequential / random side by side, engines down each (the 2011 page's charts); a table of
    many columns (the YCSB mixes) becomes one panel of columns with a bar per engine."""
    if len(definition.columns) > 2:
        series = [
            Series(engine_label(e), [_value(figures, e, c) for c in definition.columns])
            for e in engines
            if measured_here(e)
        ]
        return [Panel(definition.title, [c.label for c in definition.columns], series)]
    panels = []
    for column in definition.columns:
        series = [Series(today, [_value(figures, e, column) for e in engines])]
        if label:
            series.append(Series(label, [_published_value(published, e, column) for e in engines], published=True))
        panels.append(Panel(column.label, [engine_label(e) for e in engines], series))
    return panels


class TableFrame(NamedTuple):
    """What every layout starts from: the published figures' label (None without them), the engines run, whether
    this host's figures are given on both clocks, and the figures on the clock the table leads with."""

    label: str | None
    run: list[str]
    two: bool
    shown: FigureMap


def table_frame(definition: ReportTable, figures: FigureMap, published: Mapping[Key, Published]) -> TableFrame:
    label = published_label(definition, published)
    two = clocked(definition, figures, label)
    return TableFrame(label, table_engines(definition, figures), two, on_operations_clock(figures) if two else figures)


def build_engine_table(definition: ReportTable, figures: FigureMap, published: Mapping[Key, Published]) -> BuiltTable:
    label, run, two, shown = table_frame(definition, figures, published)
    engines = _ordered(set(run) | set(published_engines(definition, published)))
    today = f"{TODAY}, {OPERATIONS_CLOCK}" if two else TODAY
    headers = ["Engine"]
    for column in definition.columns:
        headers.append(f"{column.label}: {today}")
        if two:
            headers.append(f"{column.label}: {YCSB_CLOCK}")
        if label:
            headers.append(f"{column.label}: {label}")
    rows = []
    for engine in engines:
        row = [engine_label(engine)]
        for column in definition.columns:
            row.append(today_text(shown, engine, column) if measured_here(engine) else "n/a")
            if two:
                row.append(ycsb_text(figures, engine, column))
            if label:
                row.append(published_text(published, engine, column))
        rows.append(row)
    panels = engine_panels(definition, shown, published, engines, label, today)
    unit = SCENARIOS_BY_ID[definition.columns[0].scenario].unit
    notes = engine_notes(definition, run) + ([clock_note(definition, figures, run)] if two else [])
    return BuiltTable(definition, Table(headers, rows), panels, unit, notes)


def build_variant_table(definition: ReportTable, figures: FigureMap, published: Mapping[Key, Published]) -> BuiltTable:
    label, run, two, timed = table_frame(definition, figures, published)
    shown = _ordered(set(run))
    from_source = published_engines(definition, published)
    today = f"{TODAY}, {OPERATIONS_CLOCK}" if two else TODAY
    headers = ["Test"]
    for e in shown:
        headers += [f"{engine_label(e)}: {today}"] + ([f"{engine_label(e)}: {YCSB_CLOCK}"] if two else [])
    headers += [f"{engine_label(e)}: {label}" for e in from_source]
    rows = []
    for column in definition.columns:
        row = [column.label]
        for e in shown:
            row += [today_text(timed, e, column)] + ([ycsb_text(figures, e, column)] if two else [])
        rows.append(row + [published_text(published, e, column) for e in from_source])
    series = [Series(f"{engine_label(e)}, {today}", [_value(timed, e, c) for c in definition.columns]) for e in shown]
    series += [
        Series(
            f"{engine_label(e)}, {label}",
            [_published_value(published, e, c) for c in definition.columns],
            published=True,
        )
        for e in from_source
    ]
    panels = [Panel(definition.title, [c.label for c in definition.columns], series)]
    unit = SCENARIOS_BY_ID[definition.columns[0].scenario].unit
    notes = engine_notes(definition, run) + ([clock_note(definition, figures, run)] if two else [])
    return BuiltTable(definition, Table(headers, rows), panels, unit, notes)


def _tests_layout_note() -> str:
    """How the write-stall and level-shape columns are read: each engine's words from the registry, the engines
    that print a stats line before those that print a table of levels."""
    engines = sorted((e for e in REGISTERED.engines if e.close_stats_levels), key=lambda e: e.close_stats)
    writes = "; ".join(e.close_stats_writes for e in engines if e.close_stats_writes)
    return (
        "Write stalls: RocksDB's write stops and slowdowns and the time writes waited in them (LevelDB keeps no "
        "count: it delays writes by 1 ms from 8 level-0 files and stops them at 12 or while a full memtable waits "
        "for its flush, silently: the slowest second beside its throughput is the nearest sign). "
        "Level shape: table files per level when the database closed, and level 1 against its target: "
        + ", ".join(e.close_stats_levels for e in engines)
        + ". Background writes: what flushes and compactions wrote"
        + (f" ({writes})" if writes else "")
        + ". Medians over repeats."
    )


TESTS_LAYOUT_NOTE = _tests_layout_note()


def stalls_text(close: CloseStats | None) -> str:
    """'45 stops, 0 slowdowns, 6.8 s stalled'; LevelDB counts none."""
    if close is None:
        return "—"
    if close.stall_stops is None:
        return "— (no stall counter)"
    if close.stall_stops == 0 and not close.stall_slowdowns and not close.stall_seconds:
        return "none"
    text = f"{format_count(close.stall_stops)} stops, {format_count(close.stall_slowdowns)} slowdowns"
    if close.stall_seconds is not None:
        text += f", {format_number(close.stall_seconds)} s stalled"
    return text


def level_shape_text(close: CloseStats | None) -> str:
    """'L0 4 · L1 17 · L2 39; L1 ~34 MB vs 10 MB target (3.40x)'."""
    if close is None:
        return "—"
    text = format_level_shape(close.files_per_level)
    if close.l1_bytes is not None:
        text += "; " + format_level_one(close.l1_bytes, close.l1_target_bytes, close.l1_estimated)
    return text


def background_writes_text(close: CloseStats | None) -> str:
    if close is None:
        return "—"
    if close.flush_bytes is not None:
        return f"flush {format_mb(close.flush_bytes)} + compaction {format_mb(close.compaction_write_bytes)}"
    if close.compaction_write_bytes is not None:
        return f"{format_mb(close.compaction_write_bytes)}, flushes included"
    return "—"


def build_tests_table(definition: ReportTable, figures: FigureMap, published: Mapping[Key, Published]) -> BuiltTable:
    label, run, two, shown = table_frame(definition, figures, published)
    engines = _ordered(set(run) | set(published_engines(definition, published)))
    today = [f"{TODAY}, {OPERATIONS_CLOCK}", YCSB_CLOCK] if two else [TODAY]
    headers = ["Test", "Engine", *today, "write stalls", "level shape at close", "background writes"]
    if label:
        headers += [label, "published notes"]
    rows = []
    for column in definition.columns:
        for engine in engines:
            figure = figures.get((engine, column.scenario, column.variant))
            close = figure.close if figure else None
            row = [
                column.label,
                engine_label(engine),
                today_text(shown, engine, column, slowest=True) if measured_here(engine) else "n/a",
                *([ycsb_text(figures, engine, column)] if two else []),
                stalls_text(close),
                level_shape_text(close),
                background_writes_text(close),
            ]
            if label:
                entry = published.get((column.scenario, column.variant, engine))
                row += [published_text(published, engine, column), entry.note if entry and entry.note else "—"]
            rows.append(row)
    shape = headers.index("level shape at close")
    text_columns = frozenset({shape, shape + 3} if label else {shape})  # the level shape and the published notes
    panels = engine_panels(definition, shown, published, engines, label, today[0])
    unit = SCENARIOS_BY_ID[definition.columns[0].scenario].unit
    return BuiltTable(
        definition,
        Table(headers, rows, align_right_from=2, text_columns=text_columns),
        panels,
        unit,
        engine_notes(definition, run) + [TESTS_LAYOUT_NOTE] + ([clock_note(definition, figures, run)] if two else []),
    )


def build_table(definition: ReportTable, figures: FigureMap, published: Mapping[Key, Published]) -> BuiltTable | None:
    """The table, or None when none of its scenarios ran."""
    if not table_engines(definition, figures):
        return None
    if definition.layout == "variants":
        return build_variant_table(definition, figures, published)
    if definition.layout == "tests":
        return build_tests_table(definition, figures, published)
    return build_engine_table(definition, figures, published)
