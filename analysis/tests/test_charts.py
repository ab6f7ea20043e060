"""The bar charts' x axes: labels that fit side by side, and a panel without any figure that says so."""

from __future__ import annotations

import re
from pathlib import Path

from analysis.report.charts import Panel, Series, axis_number, bar_chart, small_multiples

ENGINES = ["LevelDB 1.13", "RocksDB", "SQLite3", "Kyoto Cabinet", "LMDB (lmdbjava)"]


def x_tick_labels(svg: Path) -> list[str]:
    text = svg.read_text()
    return re.findall(r'<g id="xtick_\d+">.*?<text[^>]*>([^<]*)</text>', text, re.S)


def test_a_sequential_reads_axis_of_millions_has_labels_that_fit_side_by_side(tmp_path: Path) -> None:
    """Entries/sec of full passes run to millions: the labels were 1,000,000, 2,000,000 ... one a million, run
    together on a phone-sized chart ("1,000,0002,000,000...")."""
    panel = Panel(
        "sequential reads",
        ENGINES,
        [
            Series("today, this host", [6_400_000, 2_100_000, 1_300_000, 4_800_000, 7_900_000]),
            Series("published", [4_000_000, None, 1_000_000, None, None], published=True),
        ],
    )
    for svg in (
        bar_chart("Sequential reads", "entries/sec", [panel], tmp_path / "seqread.svg"),
        *small_multiples("entries/sec", [panel], tmp_path, "seqread"),
    ):
        labels = x_tick_labels(svg)
        assert 2 <= len(labels) <= 6, labels
        assert all(len(label) <= 4 for label in labels), labels
        assert all(label == "0" or label.endswith("M") for label in labels), labels
    assert [axis_number(x) for x in (0, 5, 750, 20_000, 2_500_000)] == ["0", "5", "750", "20k", "2.5M"]


def test_a_panel_whose_cells_all_failed_says_so_instead_of_an_axis_around_zero(tmp_path: Path) -> None:
    panel = Panel("run", ["SQLite3", "LMDB (lmdbjava)"], [Series("today, this host", [None, None])])
    svg = bar_chart("mine", "ops/sec", [panel], tmp_path / "failed.svg")
    labels = x_tick_labels(svg)
    assert labels == [], labels  # it was −0.06 ... 0.06
    text = svg.read_text()
    assert "no figure to draw (ops/sec): every cell failed or did not run" in text
    assert text.count(">no figure</text>") == 2
