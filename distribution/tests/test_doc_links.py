"""Every relative link of the shipped Markdown files resolves: the file exists and, for `file#anchor`
or `#anchor`, the file has a heading with that anchor (GitHub's rule: lower case, punctuation dropped,
spaces to hyphens, `-1`, `-2` for repeats). Links to other sites are not fetched. And every binding's
README has the same sections in the same order, so a reader who knows one knows where to look in all."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")
HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")
BINDING_SECTIONS = [
    "What it is",
    "Quick start",
    "Properties",
    "Durability and crashes",
    "Limits",
    "How it works",
    "How it was measured",
]


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading (without the -N suffix of repeats)."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return "".join(c for c in text if c.isalnum() or c in " -_").replace(" ", "-")


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks, with inline code spans removed."""
    lines: list[str] = []
    fenced = False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(re.sub(r"`[^`]*`", "", line))
    return lines


def anchors(markdown: Path) -> set[str]:
    seen: dict[str, int] = {}
    found = set()
    fenced = False
    for line in markdown.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        m = None if fenced else HEADING.match(line)
        if m:
            base = slug(m.group(1))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def broken_links(markdown: Path) -> list[str]:
    """`file: target (why)` for every relative link of `markdown` that does not resolve."""
    broken = []
    for line in prose_lines(markdown.read_text(encoding="utf-8")):
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ...
                continue
            path, _, anchor = target.partition("#")
            dest = (markdown.parent / path).resolve() if path else markdown
            if not dest.exists():
                broken.append(f"{markdown}: {target} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(f"{markdown}: {target} (no heading with that anchor)")
    return broken


def shipped_markdown() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "*.md"], cwd=TOP, capture_output=True, text=True, check=True
    ).stdout.split()
    assert "README.md" in listed, listed
    return [TOP / name for name in listed]


def test_every_relative_link_and_anchor_resolves() -> None:
    broken = [b for md in shipped_markdown() for b in broken_links(md)]
    assert broken == []


def test_the_check_finds_a_missing_file_and_a_missing_anchor(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## Which library to choose\n\n## Speed\n\n## Speed\n")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n## `python -m x run`: fast\n\n"
        "[ok](other.md#which-library-to-choose) [ok](other.md#speed-1) [ok](#python--m-x-run-fast)\n"
        "[gone](missing.md) [bad](other.md#speed-2) [bad](#nowhere) [web](https://example.org/x#y)\n"
        "`[in code](missing-too.md)`\n```\n[in a fence](missing-three.md)\n```\n"
    )
    assert broken_links(page) == [
        f"{page}: missing.md (no such file)",
        f"{page}: other.md#speed-2 (no heading with that anchor)",
        f"{page}: #nowhere (no heading with that anchor)",
    ]


def sections(markdown: Path) -> list[str]:
    """The second-level headings, in order, outside fenced code."""
    return [line[3:].strip() for line in prose_lines(markdown.read_text(encoding="utf-8")) if line.startswith("## ")]


def test_every_binding_readme_has_the_same_sections_in_the_same_order() -> None:
    readmes = sorted(TOP.glob("*-binding/README.md"))
    assert len(readmes) >= 4, readmes
    shapes = {md.parent.name: sections(md) for md in readmes}
    assert shapes == {name: BINDING_SECTIONS for name in shapes}
    for md in readmes:
        assert "### Upstream YCSB's property names" in md.read_text(encoding="utf-8"), md


PERFORMANCE = TOP / "docs" / "performance.md"
MAX_PERFORMANCE_LINES = 400


def test_the_performance_page_is_short() -> None:
    # the latest run of each measurement; history in docs/performance-archive.md, an engine's figures in its README
    lines = PERFORMANCE.read_text(encoding="utf-8").count("\n")
    assert lines < MAX_PERFORMANCE_LINES, f"docs/performance.md has {lines} lines"


def test_no_performance_heading_names_an_issue() -> None:
    # a section says what it measures, not which issue asked for it
    text = PERFORMANCE.read_text(encoding="utf-8")
    headings = [m.group(1) for line in prose_lines(text) if (m := HEADING.match(line))]
    assert headings and [h for h in headings if re.search(r"\bissues?\b", h, re.I)] == []
