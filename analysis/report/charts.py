"""One horizontal bar chart per report table (this host's figures beside the published ones), small
multiples, timelines: SVG files whose text stays text, sized to stay legible on a phone.

matplotlib loads inside the drawing functions only: the tables (Panel, Series) and every other module import this
one without paying for it (about 0.4 s and 30 MB), so only drawing does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from .formatting import format_number
from .render import LegendEntry

if TYPE_CHECKING:  # names for type hints only: matplotlib loads when a chart is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure as MplFigure


@dataclass(frozen=True)
class Series:
    name: str
    values: list[float | None]  # one per category
    published: bool = False


@dataclass(frozen=True)
class Panel:
    title: str
    categories: list[str]
    series: list[Series]


# One colour per engine row (six today), so that no two rows of a chart share one.
TODAY_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#17becf"]
PUBLISHED_COLOURS = ["#b0b0b0", "#d8a8a8", "#a8cfa8", "#c9b6dd", "#f3c89c", "#d2b6ae", "#a6e3ea"]

# Charts are drawn narrow enough that a phone's 390-px window (358 px of page) shrinks them at most to
# 0.78x: their smallest text, 8 pt, is then still 8 px; on a wide window they grow to 1.25x.
CHART_WIDTH_IN = 4.8
SMALL_MULTIPLE_WIDTH_IN = 3.4
FONT_PT = 8


def _use_log_scale(panels: list[Panel]) -> bool:
    values = [v for p in panels for s in p.series for v in s.values if v is not None and v > 0]
    return bool(values) and max(values) / min(values) > 200


def series_styles(series: list[Series]) -> list[tuple[str, str | None]]:
    """(colour, hatch) of each series: today's in strong colours, the published ones pale and hatched."""
    styles: list[tuple[str, str | None]] = []
    today_i = published_i = 0
    for s in series:
        if s.published:
            styles.append((PUBLISHED_COLOURS[published_i % len(PUBLISHED_COLOURS)], "//"))
            published_i += 1
        else:
            styles.append((TODAY_COLOURS[today_i % len(TODAY_COLOURS)], None))
            today_i += 1
    return styles


def axis_number(x: float) -> str:
    """An x-axis tick's label, short enough that five fit a small chart: 500, 20k, 1.5M (the bars carry the
    figures in full)."""
    for scale, suffix in ((1e9, "G"), (1e6, "M"), (1e4, "k")):
        if abs(x) >= scale:
            return f"{x / scale:.3g}{suffix}" if suffix != "k" else f"{x / 1e3:,.3g}k"
    return f"{x:,.0f}" if abs(x) >= 10 else f"{x:g}"


def has_figure(panels: list[Panel]) -> bool:
    """Whether any series of the panels has a figure to draw."""
    return any(v is not None for p in panels for s in p.series for v in s.values)


def _draw_panel(ax: Axes, panel: Panel, unit: str, log: bool, right: float | None) -> None:
    """One panel's horizontal bars, each labelled with its figure; right: a shared end of the x axis. A panel
    without any figure (every cell failed) says so instead of drawing an axis around zero."""
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    n = max(len(panel.series), 1)
    height = 0.8 / n
    drawn = []
    for k, (series, (colour, hatch)) in enumerate(zip(panel.series, series_styles(panel.series), strict=True)):
        positions = [i + (k - (n - 1) / 2) * height for i in range(len(panel.categories))]
        values = [v if v is not None else 0 for v in series.values]  # no bar for a missing figure
        bars = ax.barh(
            positions,
            values,
            height=height * 0.95,
            color=colour,
            hatch=hatch,
            edgecolor="#555555" if series.published else colour,
            linewidth=0.5,
            label=series.name,
        )
        drawn.append((bars, series.values))
    empty = not has_figure([panel])
    if log:
        ax.set_xscale("log")
    else:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: axis_number(x)))
    ax.margins(x=0.22)
    if empty:
        ax.set_xlim(0, 1)
        ax.set_xticks([])
    elif right is not None:
        ax.set_xlim(right=right)
    left = ax.get_xlim()[0]
    for bars, figures in drawn:
        for bar, value in zip(bars, figures, strict=True):
            # A missing figure gets a word where its bar would start.
            x = bar.get_width() if value else left
            ax.annotate(
                format_number(value) if value is not None else "no figure",
                (x, bar.get_y() + bar.get_height() / 2),
                xytext=(2, 0),
                textcoords="offset points",
                va="center",
                fontsize=FONT_PT,
                color="#222222" if value is not None else "#888888",
            )
    ax.set_yticks(range(len(panel.categories)))
    ax.set_yticklabels(panel.categories, fontsize=FONT_PT + 1)
    ax.invert_yaxis()  # first category on top, as in a table
    label = unit + (" (log scale)" if log else "")
    ax.set_xlabel(f"no figure to draw ({unit}): every cell failed or did not run" if empty else label, fontsize=FONT_PT)
    ax.tick_params(axis="x", labelsize=FONT_PT)
    ax.grid(axis="x", alpha=0.3)


def _save_svg(fig: MplFigure, path: Path) -> Path:
    import matplotlib.pyplot as plt

    svg = path.with_suffix(".svg")
    svg.parent.mkdir(parents=True, exist_ok=True)
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "ycsb-embedded"}):  # text as text; stable ids
        fig.savefig(svg, metadata={"Date": None})
    plt.close(fig)
    return svg


def _pyplot() -> ModuleType:
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt

    return plt


def _bar_count(panel: Panel) -> int:
    return len(panel.categories) * max(len(panel.series), 1)


def bar_chart(title: str, unit: str, panels: list[Panel], path: Path) -> Path:
    """Writes an SVG (path's suffix made .svg) with the panels (e.g. sequential / random) one above the
    other under one legend, and returns its path."""
    plt = _pyplot()
    labels = [s.name for s in panels[0].series]
    legend_columns = 2 if max(map(len, labels), default=0) <= 28 else 1
    legend_rows = -(-len(labels) // legend_columns)
    heights = [0.35 + 0.16 * _bar_count(p) + (0.25 if len(panels) > 1 else 0) for p in panels]
    size = (CHART_WIDTH_IN, 0.6 + 0.2 * legend_rows + sum(heights) + 0.35 * len(panels))
    fig, axes = plt.subplots(
        len(panels), 1, figsize=size, squeeze=False, layout="constrained", gridspec_kw={"height_ratios": heights}
    )
    log = _use_log_scale(panels)
    for ax, panel in zip(axes[:, 0], panels, strict=True):
        _draw_panel(ax, panel, unit, log, None)
        if len(panels) > 1:
            ax.set_title(panel.title, fontsize=FONT_PT + 1)
    handles, names = axes[0][0].get_legend_handles_labels()
    # The title heads the legend: a suptitle beside an outside legend overlaps it.
    fig.legend(
        handles,
        names,
        loc="outside upper center",
        ncol=legend_columns,
        fontsize=FONT_PT,
        frameon=False,
        title=title,
        title_fontproperties={"size": FONT_PT + 3},
    )
    return _save_svg(fig, path)


def small_multiples(unit: str, panels: list[Panel], directory: Path, stem: str) -> list[Path]:
    """One small SVG per panel (directory/stem-1.svg, ...), all on one x scale and without a legend: the
    page lays them out as its width allows, under one legend (see `legend_of`)."""
    plt = _pyplot()
    log = _use_log_scale(panels)
    values = [v for p in panels for s in p.series for v in s.values if v is not None and v > 0]
    right = max(values) * (3 if log else 1.3) if values else None
    paths = []
    for k, panel in enumerate(panels, start=1):
        size = (SMALL_MULTIPLE_WIDTH_IN, 0.95 + 0.14 * _bar_count(panel))
        fig, ax = plt.subplots(figsize=size, layout="constrained")
        _draw_panel(ax, panel, unit, log, right)
        ax.set_title(panel.title, fontsize=FONT_PT + 2)
        paths.append(_save_svg(fig, directory / f"{stem}-{k}.svg"))
    return paths


def legend_of(series: list[Series]) -> list[LegendEntry]:
    """The legend of charts of these series, colours and hatching as the charts draw them."""
    styles = series_styles(series)
    return [LegendEntry(s.name, colour, hatch is not None) for s, (colour, hatch) in zip(series, styles, strict=True)]


@dataclass(frozen=True)
class Timeline:
    """One engine's throughput second by second: YCSB's `-s` status lines."""

    name: str
    seconds: list[float]  # elapsed time at the end of each interval
    ops_per_sec: list[float]  # the interval's throughput
    slowest: tuple[float, float] | None = None  # (seconds, ops/sec) of the slowest full interval


def timeline_chart(title: str, timelines: list[Timeline], path: Path) -> Path:
    """Writes an SVG (path's suffix made .svg) of ops/sec against time, one line per engine, each slowest
    second marked, and returns its path."""
    plt = _pyplot()
    from matplotlib.ticker import FuncFormatter

    fig, ax = plt.subplots(figsize=(CHART_WIDTH_IN, 2.8), layout="constrained")
    for k, timeline in enumerate(timelines):
        colour = TODAY_COLOURS[k % len(TODAY_COLOURS)]
        ax.plot(timeline.seconds, timeline.ops_per_sec, color=colour, linewidth=1.2, label=timeline.name)
        if timeline.slowest is not None:
            x, y = timeline.slowest
            ax.plot([x], [y], marker="v", color=colour, markersize=7)
            ax.annotate(
                f"slowest: {format_number(y)}",
                (x, y),
                xytext=(4, -12),
                textcoords="offset points",
                fontsize=FONT_PT,
                color=colour,
            )
    ax.set_xlabel("seconds since the step started", fontsize=FONT_PT)
    ax.set_ylabel("ops/sec (each second)", fontsize=FONT_PT)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:,.0f}"))
    ax.set_ylim(bottom=0)
    ax.tick_params(labelsize=FONT_PT)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=FONT_PT, frameon=False)
    ax.set_title(title, fontsize=FONT_PT + 2)
    return _save_svg(fig, path)
