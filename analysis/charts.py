"""One horizontal bar chart per report table: this host's figures beside the published ones.

matplotlib loads inside bar_chart only: the tables (Panel, Series) and every other module import this
one without paying for it (about 0.4 s and 30 MB), so only drawing does.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .formatting import format_number


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


TODAY_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e"]
PUBLISHED_COLOURS = ["#b0b0b0", "#d8a8a8", "#a8cfa8", "#c9b6dd", "#f3c89c"]


def _use_log_scale(panels: list[Panel]) -> bool:
    values = [v for p in panels for s in p.series for v in s.values if v is not None and v > 0]
    return bool(values) and max(values) / min(values) > 200


def bar_chart(title: str, unit: str, panels: list[Panel], path: Path) -> Path:
    """Writes a PNG with one panel per group (e.g. sequential / random) and returns its path."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    rows = max(len(p.categories) * max(len(p.series), 1) for p in panels)
    legend_columns = 4 if len(panels) > 1 else 2
    legend_rows = -(-sum(len(p.series) for p in panels[:1]) // legend_columns)
    width, height = max(10.0, 5.2 * len(panels) + 1.5), max(2.6, 1.4 + 0.3 * rows + 0.25 * legend_rows)
    fig, axes = plt.subplots(1, len(panels), figsize=(width, height), squeeze=False, layout="constrained")
    log = _use_log_scale(panels)
    for ax, panel in zip(axes[0], panels, strict=True):
        n = max(len(panel.series), 1)
        height = 0.8 / n
        today_i = published_i = 0
        drawn = []
        for k, series in enumerate(panel.series):
            if series.published:
                colour, hatch = PUBLISHED_COLOURS[published_i % len(PUBLISHED_COLOURS)], "//"
                published_i += 1
            else:
                colour, hatch = TODAY_COLOURS[today_i % len(TODAY_COLOURS)], None
                today_i += 1
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
        if log:
            ax.set_xscale("log")
        else:
            ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}"))
        ax.margins(x=0.18)
        left = ax.get_xlim()[0]
        for bars, figures in drawn:
            for bar, value in zip(bars, figures, strict=True):
                # A missing figure gets a word where its bar would start.
                x = bar.get_width() if value else left
                text = format_number(value) if value is not None else "no figure"
                ax.annotate(
                    text,
                    (x, bar.get_y() + bar.get_height() / 2),
                    xytext=(3, 0),
                    textcoords="offset points",
                    va="center",
                    fontsize=7,
                    color="#222222" if value is not None else "#888888",
                )
        ax.set_yticks(range(len(panel.categories)))
        ax.set_yticklabels(panel.categories, fontsize=8)
        ax.invert_yaxis()  # first category on top, as in a table
        if len(panels) > 1:
            ax.set_title(panel.title, fontsize=10)
        ax.set_xlabel(unit + (" (log scale)" if log else ""), fontsize=8)
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(axis="x", alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(
        handles, labels, loc="outside lower center", ncol=min(len(labels), legend_columns), fontsize=8, frameon=False
    )
    fig.suptitle(title, fontsize=11)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    # A text twin (SVG, fonts left to the viewer) that a README or a diff can hold.
    with plt.rc_context({"svg.fonttype": "none", "svg.hashsalt": "ycsb-embedded"}):
        fig.savefig(path.with_suffix(".svg"))
    plt.close(fig)
    return path


@dataclass(frozen=True)
class Timeline:
    """One engine's throughput second by second: YCSB's `-s` status lines."""

    name: str
    seconds: list[float]  # elapsed time at the end of each interval
    ops_per_sec: list[float]  # the interval's throughput
    slowest: tuple[float, float] | None = None  # (seconds, ops/sec) of the slowest full interval


def timeline_chart(title: str, timelines: list[Timeline], path: Path) -> Path:
    """Writes a PNG of ops/sec against time, one line per engine, each slowest second marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    fig, ax = plt.subplots(figsize=(10.0, 3.6), layout="constrained")
    for k, timeline in enumerate(timelines):
        colour = TODAY_COLOURS[k % len(TODAY_COLOURS)]
        ax.plot(timeline.seconds, timeline.ops_per_sec, color=colour, linewidth=1.2, label=timeline.name)
        if timeline.slowest is not None:
            x, y = timeline.slowest
            ax.plot([x], [y], marker="v", color=colour, markersize=8)
            ax.annotate(
                f"slowest second: {format_number(y)}",
                (x, y),
                xytext=(4, -12),
                textcoords="offset points",
                fontsize=7,
                color=colour,
            )
    ax.set_xlabel("seconds since the step started", fontsize=8)
    ax.set_ylabel("ops/sec (each second)", fontsize=8)
    ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:,.0f}"))
    ax.set_ylim(bottom=0)
    ax.tick_params(labelsize=7)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, frameon=False)
    ax.set_title(title, fontsize=11)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
