"""The documentation holds together: docs/performance.md stays a short page of the latest figures (the
history is in docs/performance-archive.md), names no issue in a heading, and every relative link and
anchor in README.md, docs/*.md and the modules' READMEs leads somewhere, with anchors made as GitHub
makes them from headings."""

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PERFORMANCE = ROOT / "docs" / "performance.md"
MAX_PERFORMANCE_LINES = 400

FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_ID = re.compile(r"""<a\s+(?:name|id)\s*=\s*["']([^"']+)["']""")


def documents() -> list[Path]:
    modules = [p for p in ROOT.glob("*/README.md") if not p.parent.name.startswith(".")]  # not .pytest_cache
    return sorted({ROOT / "README.md", *ROOT.glob("docs/*.md"), *modules})


def prose_lines(text: str) -> list[str]:
    """The lines outside fenced code blocks (a `# comment` in a shell example is no heading)."""
    lines, fence = [], ""
    for line in text.splitlines():
        opening = FENCE.match(line)
        if fence:
            if opening and opening.group(1)[0] == fence[0] and len(opening.group(1)) >= len(fence):
                fence = ""
            continue
        if opening:
            fence = opening.group(1)
            continue
        lines.append(line)
    return lines


def headings(text: str) -> list[str]:
    return [m.group(2) for m in map(HEADING.match, prose_lines(text)) if m]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: the rendered text in lower case, without punctuation but hyphens and
    underscores, each space a hyphen."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link or image shows its text
    text = re.sub(r"<[^>]+>", "", text).lower()
    kept = [c for c in text if c in " -_" or unicodedata.category(c)[0] in "LMN"]
    return "".join(kept).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every anchor of a page, a repeated heading's with GitHub's -1, -2, ... suffix."""
    found: set[str] = set(HTML_ID.findall(text))
    seen: dict[str, int] = {}
    for heading in headings(text):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(text: str) -> list[str]:
    targets = []
    for line in prose_lines(text):
        line = re.sub(r"`[^`]*`", "", line)  # an example in inline code is not a link
        targets.extend(LINK.findall(line))
    return targets


def shown(file: Path) -> str:
    return str(file.relative_to(ROOT)) if file.is_relative_to(ROOT) else str(file)


def broken_links(document: Path) -> list[str]:
    broken = []
    for target in links(document.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target):  # https:, mailto:: not checked here
            continue
        path, _, anchor = target.partition("#")
        file = (document.parent / path).resolve() if path else document
        if not file.exists():
            broken.append(f"{target}: no file {shown(file)}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file.read_text(encoding="utf-8")):
            broken.append(f"{target}: no heading makes #{anchor} in {shown(file)}")
    return broken


def test_the_slug_is_githubs() -> None:
    assert slug("The run of 2026-11-24, 00:10-00:34 UTC: alone, 3 rounds") == (
        "the-run-of-2026-11-24-0010-0034-utc-alone-3-rounds"
    )
    assert slug("`python -m analysis run`") == "python--m-analysis-run"
    assert slug("Into an existing YCSB 0.17") == "into-an-existing-ycsb-017"
    assert slug("LevelDB 1.23 against [YCSB-cpp](https://x)") == "leveldb-123-against-ycsb-cpp"
    assert anchors("# A\n## A\n```\n# not a heading\n```\n## A\n") == {"a", "a-1", "a-2"}


def test_a_link_that_leads_nowhere_is_found(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("# Top\n\n[ok](#top) [gone](#bottom) [file](missing.md) `[code](x.md)`\n")
    assert [b.split(":")[0] for b in broken_links(page)] == ["#bottom", "missing.md"]


def test_performance_page_is_short() -> None:
    lines = PERFORMANCE.read_text(encoding="utf-8").count("\n")
    assert lines < MAX_PERFORMANCE_LINES, (
        f"docs/performance.md has {lines} lines: keep the latest run of each measurement there, move its "
        "history to docs/performance-archive.md and what an engine's figures mean to its README"
    )


def test_no_performance_heading_names_an_issue() -> None:
    named = [h for h in headings(PERFORMANCE.read_text(encoding="utf-8")) if re.search(r"\bissues?\b", h, re.I)]
    assert named == [], "a section says what it measures, not which issue asked for it"


@pytest.mark.parametrize("document", documents(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(document: Path) -> None:
    assert broken_links(document) == []
