"""No doc or code comment cites an issue a reader cannot open: "issue 20", "Issue 32, item 2", "(#21)", "the
issue's run". Docs and comments say what the code does now; git keeps the history. An upstream project's issue or
pull request named with its project ("lmdbjava issue 252", "RocksDB PR #5953") can be opened, so it may stay, and so
may a later mention of the same number in the same file."""

from __future__ import annotations

import bisect
import re
import subprocess
from pathlib import Path

TOP = Path(__file__).resolve().parents[2]
# Data, not code or docs: charts, recorded outputs, published tables.
DATA_SUFFIXES = {".svg", ".png", ".csv", ".json", ".txt", ".err", ".jfr", ".gz", ".jar"}
# Projects whose trackers a reader can open: a citation names one right before "issue" or "PR".
UPSTREAM = {
    "go-ycsb",
    "hdrhistogram",
    "jdk",
    "jnr-ffi",
    "kyoto",
    "leveldb",
    "leveldbjni",
    "lmdb",
    "lmdbjava",
    "maven",
    "openjdk",
    "rocksdb",
    "rocksdbjni",
    "sqlite",
    "sqlite-jdbc",
    "ycsb",
    "ycsb-cpp",
}
NUMBERED = re.compile(r"(?i)\b(?:issues?|pr|pull request)\s*#?(?P<number>\d+)")
HASHED = re.compile(r"\(#(?P<number>\d+)\)")
BARE = re.compile(r"(?i)\b(?:the|this|that|our)\s+issue(?:'s)?\b")
# What starts a line of a comment or a Markdown quote: a citation may run across two such lines.
LEAD = re.compile(r"^\s*(?:\*|//|#+|>)?\s*")
WORD_BEFORE = re.compile(r"([A-Za-z][\w.+-]*?)(?:'s)?\s*$")


def _flat(text: str) -> tuple[str, list[int]]:
    """The text's lines without their comment leaders, joined by spaces; where each line starts in it."""
    pieces, starts, at = [], [], 0
    for line in text.splitlines():
        body = LEAD.sub("", line, count=1)
        starts.append(at)
        pieces.append(body)
        at += len(body) + 1
    return " ".join(pieces), starts


def _upstream(flat: str, start: int) -> bool:
    before = WORD_BEFORE.search(flat[max(0, start - 40) : start])
    return before is not None and before.group(1).lower() in UPSTREAM


def citations(text: str) -> list[tuple[int, str]]:
    """(line, phrase) of every citation in `text` that a reader cannot open."""
    flat, starts = _flat(text)
    numbered = [m for pattern in (NUMBERED, HASHED) for m in pattern.finditer(flat)]
    opened = {m.group("number") for m in numbered if _upstream(flat, m.start())}
    found = [m for m in numbered if m.group("number") not in opened] + list(BARE.finditer(flat))
    return sorted((bisect.bisect_right(starts, m.start()), m.group(0)) for m in found)


def code_and_docs() -> list[Path]:
    listed = subprocess.run(["git", "ls-files"], cwd=TOP, capture_output=True, text=True, check=True).stdout.split()
    here = Path(__file__).resolve()
    files = [TOP / name for name in listed if Path(name).suffix not in DATA_SUFFIXES]
    assert len(files) > 100 and TOP / "README.md" in files, len(files)
    return [f for f in files if f.resolve() != here and f.is_file()]  # this file holds the examples


def test_no_code_or_doc_cites_an_issue_a_reader_cannot_open() -> None:
    found = []
    for path in code_and_docs():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        found += [f"{path.relative_to(TOP)}:{line}: {phrase}" for line, phrase in citations(text)]
    assert found == []


def test_the_check_finds_each_form_and_lets_an_upstream_citation_stand() -> None:
    text = (
        "/** Issue 20: a file cut short is refused. */\n"
        "# a destroy (issue 32, item 4) and a run (#21)\n"
        "as in the issue's run; Issues #7 too\n"
        " * a split across comment lines (issue\n"
        " * 24), and one in this issue; it crashed leveldbjni (issue 3)\n"
        "lmdbjava issue 252, YCSB's issue 422 and RocksDB PR #5953; then PR #5953's example\n"
        "colour #1f77b4, Level-0 table #12, [1. Baseline](#1-baseline), it issues a late request\n"
    )
    assert citations(text) == [
        (1, "Issue 20"),
        (2, "(#21)"),
        (2, "issue 32"),
        (3, "Issues #7"),
        (3, "the issue's"),
        (4, "issue 24"),
        (5, "issue 3"),
        (5, "this issue"),
    ]
