"""No source file is over 500 lines, or it says why among its first 15 lines, in a sentence that starts
"Longer than 500 lines:". Source here is the Python of analysis/ and distribution/, the Java under every
module's src/main, and every C file and shell script; tests and their fixtures are exempt. A file that long
is usually two jobs in one: split it along the seams it has, and write the sentence only where one job
really needs the length."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path, PurePosixPath

import pytest

TOP = Path(__file__).resolve().parents[2]
LIMIT = 500
HEAD = 15
MARKER = "Longer than 500 lines:"
# The marker and, on its line, the start of a reason: three words at least (it may go on over the next lines).
REASON = re.compile(re.escape(MARKER) + r"\s*\S+\s+\S+\s+\S+")
# Files over the limit whose split is still to come; an entry goes once its split lands
# (test_an_allowed_file_is_still_over_the_limit fails then).
ALLOWED: dict[str, str] = {}


def is_source(name: str) -> bool:
    """Whether a path (relative to the top, with /) is a source file the limit holds for."""
    path = PurePosixPath(name)
    parts = path.parts
    if "tests" in parts or "src/test" in name or path.name.startswith("test_") or path.name == "conftest.py":
        return False
    if path.suffix == ".py":
        return parts[0] in ("analysis", "distribution")
    if path.suffix == ".java":
        return "src/main/" in name
    return path.suffix in (".c", ".sh")


def source_files() -> list[str]:
    """The source files of the tree, tracked or new (not ignored), relative to the top."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=TOP,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return sorted(name for name in set(listed) if is_source(name) and (TOP / name).is_file())


def says_why(text: str) -> bool:
    """Whether one of the first HEAD lines holds the marker sentence with a reason."""
    return any(REASON.search(line) for line in text.splitlines()[:HEAD])


def size_problem(text: str) -> str | None:
    """Why this file breaks the rule, or None."""
    lines = len(text.splitlines())
    if lines <= LIMIT or says_why(text):
        return None
    return f"{lines} lines, and no '{MARKER} <why>' sentence among its first {HEAD} lines"


def test_no_source_file_is_over_the_limit_without_saying_why() -> None:
    found = []
    for name in source_files():
        problem = size_problem((TOP / name).read_text(encoding="utf-8", errors="replace"))
        if problem and name not in ALLOWED:
            found.append(f"{name}: {problem}")
    assert found == [], "split these along their seams, or say why in their first lines:\n" + "\n".join(found)


def test_the_check_reads_every_kind_of_source_and_no_test() -> None:
    files = set(source_files())
    sources = [
        "analysis/results/parse.py",
        "distribution/build.sh",
        "common/src/main/java/site/ycsb/embedded/KeyValueDB.java",
        "benchmarks/src/main/java/site/ycsb/embedded/bench/Bench.java",
        "kyoto-binding/src/main/c/kyotojni.c",
        "scripts/setup.sh",
    ]
    tests = [
        "analysis/tests/test_report.py",
        "analysis/tests/fixtures/capture.sh",
        "distribution/tests/conftest.py",
        "common/src/test/java/site/ycsb/embedded/KeyValueDbContract.java",
        "kyoto-binding/src/test/c/setloop.c",
    ]
    assert all((TOP / name).is_file() for name in sources + tests)
    assert [name for name in sources if name not in files] == []
    assert [name for name in tests if name in files] == []
    assert len([f for f in files if f.endswith(".java")]) > 50


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("x = 1\n" * LIMIT, False),
        ("x = 1\n" * (LIMIT + 1), True),
        ('"""A module.\n\nLonger than 500 lines: one parser, one grammar.\n"""\n' + "x = 1\n" * LIMIT, False),
        (
            "/*\n * A layer.\n * Longer than 500 lines: every native of one class\n * in one file.\n */\n"
            + "int x;\n" * 600,
            False,
        ),
        ("// Longer than 500 lines: the class a binding\n// extends.\n" + "int x;\n" * 600, False),
        ("# Longer than 500 lines:\n" + "x = 1\n" * 600, True),  # no reason given
        ("# a script\n" * HEAD + "# Longer than 500 lines: said too late to be seen\n" + "x = 1\n" * 600, True),
        ("# Over 500 lines on purpose: another wording\n" + "x = 1\n" * 600, True),
    ],
)
def test_the_check_takes_only_a_reason_in_the_first_lines(text: str, problem: bool) -> None:
    assert (size_problem(text) is not None) == problem


def test_an_allowed_file_is_still_over_the_limit() -> None:
    for name, reason in ALLOWED.items():
        text = (TOP / name).read_text(encoding="utf-8")
        assert reason and size_problem(text) is not None, f"{name} no longer needs its entry in ALLOWED: remove it"
