"""A report as a list of blocks, rendered to Markdown or to a self-contained HTML page."""

from __future__ import annotations

import html
from dataclasses import dataclass, field


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
    path: str  # relative to the report
    alt: str


@dataclass(frozen=True)
class BulletList:
    items: list[str] = field(default_factory=list)


Block = Heading | Paragraph | Table | Image | BulletList


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(blocks: list[Block]) -> str:
    parts = []
    for block in blocks:
        if isinstance(block, Heading):
            parts.append("#" * block.level + " " + block.text)
        elif isinstance(block, Paragraph):
            parts.append(block.text)
        elif isinstance(block, BulletList):
            parts.append("\n".join(f"- {item}" for item in block.items))
        elif isinstance(block, Image):
            parts.append(f"![{block.alt}]({block.path})")
        elif isinstance(block, Table):
            align = ["---:" if block.numeric(i) else "---" for i in range(len(block.headers))]
            lines = ["| " + " | ".join(_md_cell(h) for h in block.headers) + " |", "|" + "|".join(align) + "|"]
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in block.rows]
            parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


_CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; max-width: 1100px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 0.8em 0 1.2em; font-size: 0.88em; display: block; max-width: 100%;
        overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.5em; vertical-align: top; overflow-wrap: anywhere; }
th { background: #f0f0f0; overflow-wrap: normal; }
td.num { text-align: right; overflow-wrap: normal; }
img { max-width: 100%; height: auto; border: 1px solid #eee; }
code { background: #f6f6f6; padding: 0 0.2em; overflow-wrap: anywhere; }
"""


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
            i += 1
    return "".join(out)


def _html_cell(text: str, numeric: bool) -> str:
    return f'<td class="num">{_inline_html(text)}</td>' if numeric else f"<td>{_inline_html(text)}</td>"


def to_html(blocks: list[Block], title: str) -> str:
    """A page that fits its window: long words and tables wrap, and a table too wide for any wrapping
    scrolls inside itself, never the page (a test checks it in chromium at 1280 px)."""
    parts = [
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f'<meta name="viewport" content="width=device-width"><title>{html.escape(title)}</title>'
        f"<style>{_CSS}</style></head><body>"
    ]
    for block in blocks:
        if isinstance(block, Heading):
            parts.append(f"<h{block.level}>{_inline_html(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            parts.append(f"<p>{_inline_html(block.text)}</p>")
        elif isinstance(block, BulletList):
            parts.append("<ul>" + "".join(f"<li>{_inline_html(i)}</li>" for i in block.items) + "</ul>")
        elif isinstance(block, Image):
            parts.append(f'<p><img src="{html.escape(block.path)}" alt="{html.escape(block.alt)}"></p>')
        elif isinstance(block, Table):
            head = "".join(f"<th>{_inline_html(h)}</th>" for h in block.headers)
            rows = "".join(
                "<tr>" + "".join(_html_cell(c, block.numeric(i)) for i, c in enumerate(row)) + "</tr>"
                for row in block.rows
            )
            parts.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
