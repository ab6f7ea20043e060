"""A report as a list of blocks, rendered to Markdown or to a self-contained HTML page."""

from __future__ import annotations

import html
import math
import re
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True)
class Heading:
    level: int
    text: str


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Table:
    headers: list[str]
    rows: list[list[str]]
    align_right_from: int = 1  # columns from this index on hold numbers
    text_columns: frozenset[int] = frozenset()  # ... except these, which hold text (notes)

    def numeric(self, column: int) -> bool:
        return column >= self.align_right_from and column not in self.text_columns


@dataclass(frozen=True)
class Image:
    path: str  # relative to the report; an SVG is drawn inside the HTML page, its text kept as text
    alt: str


@dataclass(frozen=True)
class BulletList:
    items: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Contents:
    """Where the list of the report's sections (its level-2 headings, each a link) goes."""


@dataclass(frozen=True)
class HeatMap:
    """A grid of scores in (0, 1], 1 the best of its row, each printed in its cell and shaded by it."""

    corner: str  # the header above the row labels
    columns: list[str]
    rows: list[tuple[str, list[float | None]]]  # (label, one score or None per column)
    marks: list[list[str]] = field(default_factory=list)  # per row, a mark after each score ("" for none)
    short_columns: list[str] = field(default_factory=list)  # the columns' names on a narrow screen (HTML)
    # per row, a cell's own text in place of its score ("" for none): a capacity row's operations a second
    texts: list[list[str]] = field(default_factory=list)

    def cell(self, row: int, column: int) -> str:
        """A cell's text: its score (or its own text), then its mark if it has one."""
        mark = self.marks[row][column] if row < len(self.marks) else ""
        text = self.texts[row][column] if row < len(self.texts) else ""
        return (text or format_score(self.rows[row][1][column])) + (f" {mark}" if mark else "")


@dataclass(frozen=True)
class LegendEntry:
    label: str
    colour: str
    hatched: bool = False


@dataclass(frozen=True)
class ChartGrid:
    """Small multiples: one chart per panel, laid side by side as the window allows, one legend on top."""

    legend: list[LegendEntry]
    images: list[Image]
    legend_heading: str = "Bars in each chart, top to bottom"  # the Markdown's sentence before the legend's names


Block = Heading | Paragraph | Table | Image | BulletList | Contents | HeatMap | ChartGrid


def anchor(text: str) -> str:
    """A heading's fragment as GitHub derives it: lower case, punctuation dropped, spaces to '-'."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def _anchors(blocks: list[Block]) -> dict[int, str]:
    """Block index -> unique anchor of each heading (a repeated heading gets -1, -2, as on GitHub)."""
    seen: dict[str, int] = {}
    found = {}
    for i, block in enumerate(blocks):
        if isinstance(block, Heading):
            base = anchor(block.text)
            n = seen.get(base, 0)
            seen[base] = n + 1
            found[i] = base if n == 0 else f"{base}-{n}"
    return found


def _contents(blocks: list[Block], anchors: dict[int, str]) -> list[tuple[str, str]]:
    return [(b.text, anchors[i]) for i, b in enumerate(blocks) if isinstance(b, Heading) and b.level == 2]


def format_score(score: float | None) -> str:
    """A heat map cell: two decimals, two significant digits below 0.1 (0.031), '—' for no figure."""
    if score is None:
        return "—"
    return f"{score:.2f}" if score >= 0.095 else f"{score:.2g}"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _md_table(headers: list[str], rows: list[list[str]], numeric: list[bool]) -> str:
    lines = ["| " + " | ".join(_md_cell(h) for h in headers) + " |"]
    lines.append("|" + "|".join("---:" if n else "---" for n in numeric) + "|")
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def to_markdown(blocks: list[Block]) -> str:
    anchors = _anchors(blocks)
    parts = []
    for block in blocks:
        if isinstance(block, Heading):
            parts.append("#" * block.level + " " + block.text)
        elif isinstance(block, Paragraph):
            parts.append(block.text)
        elif isinstance(block, BulletList):
            parts.append("\n".join(f"- {item}" for item in block.items))
        elif isinstance(block, Contents):
            parts.append("\n".join(f"- [{text}](#{a})" for text, a in _contents(blocks, anchors)))
        elif isinstance(block, Image):
            parts.append(f"![{block.alt}]({block.path})")
        elif isinstance(block, ChartGrid):
            order = ", ".join(e.label + (" (hatched)" if e.hatched else "") for e in block.legend)
            parts.append(f"{block.legend_heading}: {order}.")
            parts.append("\n".join(f"![{i.alt}]({i.path})" for i in block.images))
        elif isinstance(block, Table):
            numeric = [block.numeric(i) for i in range(len(block.headers))]
            parts.append(_md_table(block.headers, block.rows, numeric))
        elif isinstance(block, HeatMap):
            rows = [
                [label, *(block.cell(r, c) for c in range(len(scores)))] for r, (label, scores) in enumerate(block.rows)
            ]
            parts.append(_md_table([block.corner, *block.columns], rows, [False] + [True] * len(block.columns)))
    return "\n\n".join(parts) + "\n"


# Words break only between words or after a hyphen, never inside (no overflow-wrap: anywhere, no
# word-break: break-all): a table's columns are as wide as its longest word. Below 700 px a table of four
# or more columns lays each row out as a card, its first cell the title, then "header: value" pairs that
# flow side by side as the width allows, so none scrolls. The heat map keeps its grid: there its headers give
# the engines' short names and its text is smaller, so that six engines fit 390 px; more (peers beside ours)
# scroll inside the map, its first column (the tests) fixed.
_CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 1100px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; overflow-wrap: break-word; }
table { border-collapse: collapse; margin: 0.8em 0 1.2em; font-size: 0.88em; display: block; max-width: 100%;
        overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.5em; vertical-align: top; }
th { background: #f0f0f0; }
td.num { text-align: right; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
svg.chart { display: block; width: 100%; height: auto; margin: 0.6em 0 1em; }
code { background: #f6f6f6; padding: 0 0.2em; }
nav ul { columns: 2 18em; }
table.heat td.num { min-width: 3.2em; }
table.heat tbody th { text-align: left; }
table.heat th:first-child { position: sticky; left: 0; }  /* the tests stay in sight as the map scrolls */
table.heat span.short { display: none; }
.legend { display: flex; flex-wrap: wrap; gap: 0.3em 1.2em; margin: 0.6em 0; font-size: 0.9em; }
.legend span.swatch { display: inline-block; width: 1.6em; height: 0.9em; margin-right: 0.35em;
                      vertical-align: -0.05em; border: 1px solid #555; }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(240px, 1fr)); gap: 0 1em; }
@media (max-width: 700px) {
  body { margin: 1em auto; padding: 0 0.75em; }
  table.cards, table.cards tbody, table.cards tr, table.cards td { display: block; }
  table.cards { overflow-x: visible; border-top: 1px solid #ccc; }
  table.cards thead { display: none; }
  table.cards tr { border: 1px solid #ccc; border-top: none; padding: 0.3em 0.5em; }
  table.cards td { border: none; padding: 0.05em 0; text-align: left; }
  table.cards td:first-child { font-weight: 600; }
  table.cards td:not(:first-child) { display: inline-block; max-width: 100%; margin-right: 1.2em; }
  table.cards td[data-label]:not(:first-child)::before { content: attr(data-label) ": "; color: #666; }
  table.heat { font-size: 0.75em; }
  table.heat th, table.heat td { padding: 0.2em 0.25em; }
  table.heat td.num { min-width: 0; }
  table.heat th { font-size: 0.9em; }
  table.heat span.long { display: none; }
  table.heat span.short { display: inline; }
}
"""

CARDS_FROM_COLUMNS = 4  # narrower tables fit a phone's width by wrapping alone

# A heat map's shades from the best (1.00) to a hundredth of it and below: green, yellow, orange.
_HEAT_STOPS = ((0.0, (166, 219, 160)), (0.5, (254, 224, 139)), (1.0, (244, 165, 130)))


def heat_colour(score: float) -> str:
    """The background of a cell holding this score: its distance from the best on a log scale."""
    t = min(max(-math.log10(score) / 2, 0.0), 1.0) if score > 0 else 1.0
    for (t0, c0), (t1, c1) in zip(_HEAT_STOPS, _HEAT_STOPS[1:], strict=False):
        if t <= t1:
            f = (t - t0) / (t1 - t0)
            return "#" + "".join(f"{round(a + (b - a) * f):02x}" for a, b in zip(c0, c1, strict=True))
    return "#f4a582"


_CODE_BREAKS = "/,=_.:"  # a code span may wrap after a path's or a list's separators, not inside names


def _inline_html(text: str) -> str:
    """Escapes text and turns `code` spans and **bold** into tags (all the Markdown we write)."""
    escaped = html.escape(text)
    out, code, bold = [], False, False
    i = 0
    while i < len(escaped):
        if escaped[i] == "`":
            out.append("</code>" if code else "<code>")
            code = not code
            i += 1
        elif escaped.startswith("**", i) and not code:
            out.append("</strong>" if bold else "<strong>")
            bold = not bold
            i += 2
        else:
            out.append(escaped[i])
            following = escaped[i + 1 : i + 2]
            if code and escaped[i] in _CODE_BREAKS and following and following not in _CODE_BREAKS + "` ":
                out.append("<wbr>")
            i += 1
    return "".join(out)


def _html_cell(text: str, numeric: bool, label: str) -> str:
    attributes = (' class="num"' if numeric else "") + (f' data-label="{html.escape(label)}"' if label else "")
    return f"<td{attributes}>{_inline_html(text)}</td>"


def _table_html(table: Table) -> str:
    head = "".join(f"<th>{_inline_html(h)}</th>" for h in table.headers)
    labels = [re.sub(r"[`*]", "", h) for h in table.headers]
    rows = "".join(
        "<tr>" + "".join(_html_cell(c, table.numeric(i), labels[i]) for i, c in enumerate(row)) + "</tr>"
        for row in table.rows
    )
    cards = ' class="cards"' if len(table.headers) >= CARDS_FROM_COLUMNS else ""
    return f"<table{cards}><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _heat_header(name: str, short: str) -> str:
    """A column's header: its name, or on a narrow screen its short name (the name as its tooltip)."""
    if short in ("", name):
        return f"<th>{_inline_html(name)}</th>"
    return (
        f'<th title="{html.escape(name)}"><span class="long">{_inline_html(name)}</span>'
        f'<span class="short">{_inline_html(short)}</span></th>'
    )


def _heat_html(heat: HeatMap) -> str:
    shorts = heat.short_columns or [""] * len(heat.columns)
    head = _heat_header(heat.corner, "") + "".join(map(_heat_header, heat.columns, shorts))
    rows = []
    for r, (label, scores) in enumerate(heat.rows):
        cells = "".join(
            f'<td class="num" style="background: {heat_colour(s)}">{html.escape(heat.cell(r, c))}</td>'
            if s is not None
            else f'<td class="num">{html.escape(heat.cell(r, c))}</td>'
            for c, s in enumerate(scores)
        )
        rows.append(f"<tr><th>{_inline_html(label)}</th>{cells}</tr>")
    return f'<table class="heat"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


_SVG_ROOT = re.compile(r'<svg\b[^>]*\bwidth="([\d.]+)pt"[^>]*>', re.S)


def inline_svg(svg: str, alt: str, prefix: str, grow: float = 1.25) -> str:
    """A matplotlib SVG as an element of the page: it scales to its container down to a phone's width (at
    most `grow` x its drawn size), its ids made unique in the page, its text left as text."""
    svg = svg[svg.index("<svg") :]
    svg = re.sub(r"<metadata>.*?</metadata>", "", svg, flags=re.S)
    svg = svg.replace('<style type="text/css">*{', '<style type="text/css">svg.chart *{')  # not the page's
    svg = re.sub(r'\bid="([^"]+)"', rf'id="{prefix}\1"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", rf"url(#{prefix}\1)", svg)
    svg = re.sub(r'xlink:href="#([^"]+)"', rf'xlink:href="#{prefix}\1"', svg)
    root = _SVG_ROOT.match(svg)
    if root is None:
        return svg
    width_px = float(root.group(1)) * 4 / 3
    tag = re.sub(r'\s(width|height)="[^"]*"', "", root.group(0))
    tag = tag.replace(
        "<svg",
        f'<svg class="chart" role="img" aria-label="{html.escape(alt)}" style="max-width: {width_px * grow:.0f}px"',
        1,
    )
    return tag + svg[root.end() :]


def _image_html(image: Image, base: Path | None, prefix: str, grow: float = 1.25) -> str:
    file = base / image.path if base is not None else None
    if file is not None and not file.is_file():  # a chart named as a PNG, drawn (now) as SVG
        file = file.with_suffix(".svg")
    if file is not None and file.suffix == ".svg" and file.is_file():
        return inline_svg(file.read_text(), image.alt, prefix, grow)
    return f'<p><img src="{html.escape(image.path)}" alt="{html.escape(image.alt)}"></p>'


def _legend_html(entries: list[LegendEntry]) -> str:
    def swatch(e: LegendEntry) -> str:
        hatch = "; background-image: repeating-linear-gradient(135deg, transparent 0 3px, #555 3px 4px)"
        return f'<span class="swatch" style="background-color: {e.colour}{hatch if e.hatched else ""}"></span>'

    return (
        '<div class="legend">' + "".join(f"<span>{swatch(e)}{html.escape(e.label)}</span>" for e in entries) + "</div>"
    )


def to_html(blocks: list[Block], title: str, base: Path | None = None) -> str:
    """A page that fits its window from 1280 px down to a phone's 390 px (tests check both in chromium);
    base: the directory image paths are relative to, whose SVG charts the page then holds itself."""
    anchors = _anchors(blocks)
    parts = [
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width"><title>{html.escape(title)}</title>'
        f"<style>{_CSS}</style></head><body>"
    ]
    for i, block in enumerate(blocks):
        if isinstance(block, Heading):
            parts.append(f'<h{block.level} id="{anchors[i]}">{_inline_html(block.text)}</h{block.level}>')
        elif isinstance(block, Paragraph):
            parts.append(f"<p>{_inline_html(block.text)}</p>")
        elif isinstance(block, BulletList):
            parts.append("<ul>" + "".join(f"<li>{_inline_html(i)}</li>" for i in block.items) + "</ul>")
        elif isinstance(block, Contents):
            links = "".join(
                f'<li><a href="#{a}">{_inline_html(text)}</a></li>' for text, a in _contents(blocks, anchors)
            )
            parts.append(f'<nav aria-label="Contents"><ul>{links}</ul></nav>')
        elif isinstance(block, Image):
            parts.append(_image_html(block, base, f"c{i}-"))
        elif isinstance(block, ChartGrid):
            # Small multiples keep their drawn size at most, so that more of them share a row.
            images = "".join(_image_html(image, base, f"c{i}-{k}-", 1.0) for k, image in enumerate(block.images))
            parts.append(_legend_html(block.legend) + f'<div class="grid">{images}</div>')
        elif isinstance(block, Table):
            parts.append(_table_html(block))
        elif isinstance(block, HeatMap):
            parts.append(_heat_html(block))
    parts.append("</body></html>\n")
    return "\n".join(parts)
