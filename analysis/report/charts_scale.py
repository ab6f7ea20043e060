"""The At-scale section's charts: cost against data size (log axis, the budget marked), amplification,
throughput against client threads, and the sustained run second by second with its stalls.
matplotlib loads inside each function, as in charts.py."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from .charts import FONT_PT, SMALL_MULTIPLE_WIDTH_IN, TODAY_COLOURS, _pyplot, _save_svg

if TYPE_CHECKING:  # for type hints only: matplotlib loads when a chart is drawn
    from matplotlib.axes import Axes as MplAxes


@dataclass(frozen=True)
class Line:
    """One engine's line: x, y, and which points were taken on a busy machine (drawn hollow)."""

    label: str
    x: list[float]
    y: list[float | None]
    noisy: list[bool] = field(default_factory=list)
    colour: int | None = None  # an index into the palette (None: the line's own); two lines of one engine share one
    dashed: bool = False


@dataclass(frozen=True)
class Axes:
    title: str
    ylabel: str
    lines: list[Line]
    log_x: bool = False
    log_y: bool = False
    xlabel: str = ""
    vline: float | None = None  # the data size where the data passes the budget
    vline_label: str = ""
    marks: list[tuple[str, list[float]]] = field(default_factory=list)  # (line label, x of stalls)


def grid_chart(title: str, panels: Sequence[Axes], path: Path, columns: int = 2) -> Path:
    """One SVG of panels in a grid (path's suffix made .svg; saved as charts.py saves every chart, so that the
    HTML page holds it inline, its text as text); hollow markers are figures taken while others used > 30 % of
    a core."""
    plt = _pyplot()
    rows = -(-len(panels) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(6.0 * columns, 3.6 * rows), squeeze=False, layout="constrained")
    for ax, panel in zip(axes.flat, panels, strict=False):
        _draw(plt, ax, panel, legend=True)
    for ax in list(axes.flat)[len(panels) :]:
        ax.set_visible(False)
    fig.suptitle(title, fontsize=11)
    return _save_svg(fig, path)


def panel_charts(panels: Sequence[Axes], directory: Path, stem: str) -> list[Path]:
    """One small SVG per panel (directory/stem-1.svg, ...), without a legend, as wide as charts.py's small
    multiples so that its text stays legible on a phone: the page lays them out as its width allows, under one
    legend (render.ChartGrid)."""
    plt = _pyplot()
    paths = []
    for k, panel in enumerate(panels, start=1):
        fig, ax = plt.subplots(figsize=(SMALL_MULTIPLE_WIDTH_IN, 2.6), layout="constrained")
        _draw(plt, ax, panel, legend=False)
        paths.append(_save_svg(fig, directory / f"{stem}-{k}.svg"))
    return paths


def _draw(plt: ModuleType, ax: MplAxes, panel: Axes, legend: bool) -> None:
    """One panel on its axes: its lines, hollow markers, stall marks and budget line; legend: its lines named in
    it (a grid's), or not (a small chart under the page's legend, whose text is no smaller than FONT_PT)."""
    drawn = 0
    for i, line in enumerate(panel.lines):
        colour = TODAY_COLOURS[(i if line.colour is None else line.colour) % len(TODAY_COLOURS)]
        points = [
            (x, y if y is None or y > 0 or not panel.log_y else None, n)
            for x, y, n in zip(line.x, line.y, line.noisy or [False] * len(line.x), strict=True)
        ]
        xs = [x for x, y, _ in points if y is not None]
        ys = [y for _, y, _ in points if y is not None]
        drawn += len(xs)
        style = "--" if line.dashed else "-"
        marker = "o" if len(xs) < 40 else None
        ax.plot(xs, ys, color=colour, label=line.label, marker=marker, linewidth=1.4, linestyle=style)
        hollow = [(x, y) for x, y, n in points if n and y is not None]
        if hollow:
            hollow_x, hollow_y = zip(*hollow, strict=True)
            ax.scatter(hollow_x, hollow_y, s=60, facecolors="white", edgecolors=colour, zorder=3)
        for label, stalls in panel.marks:
            if label == line.label and stalls:
                at = [y for x, y, _ in points if x in set(stalls) and y is not None]
                ax.scatter(stalls[: len(at)], at, marker="v", color="black", s=70, zorder=4)
    if panel.vline is not None:
        ax.axvline(panel.vline, color="#555555", linestyle="--", linewidth=1)
        ax.annotate(
            panel.vline_label,
            (panel.vline, 1.0),
            xycoords=("data", "axes fraction"),
            fontsize=8,
            ha="left",
            va="top",
            rotation=90,
            color="#555555",
        )
    if panel.log_x and drawn:  # a log axis with nothing on it cannot place its ticks
        ax.set_xscale("log", base=2)
        ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:,.0f}"))
    if panel.log_y and drawn:
        ax.set_yscale("log")
    if not drawn:
        ax.text(0.5, 0.5, "no figures", transform=ax.transAxes, ha="center", color="#888888")
    ax.set_title(panel.title, fontsize=10)
    ax.set_ylabel(panel.ylabel, fontsize=9)
    ax.set_xlabel(panel.xlabel, fontsize=9)
    ax.grid(True, alpha=0.3)
    ax.tick_params(labelsize=FONT_PT)
    if panel.lines and legend:
        ax.legend(fontsize=7)
