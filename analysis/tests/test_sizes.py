"""The size grammar of the bindings, read by the report with the same cases as common's Java test."""

from __future__ import annotations

from pathlib import Path

from analysis.results.engine_lines import parse_size

CASES = Path(__file__).resolve().parents[2] / "common" / "src" / "test" / "resources" / "size-cases.txt"


def _cases() -> list[tuple[str, int | None]]:
    cases = []
    for line in CASES.read_text(encoding="utf-8").split("\n"):
        if line.startswith("#") or not line.strip():
            continue
        text, expected = line.split("|")
        cases.append((text, None if expected.strip() == "invalid" else int(expected)))
    return cases


def test_sizes_follow_the_grammar_the_bindings_share():
    cases = _cases()
    assert len(cases) >= 40
    wrong = [(text, expected, parse_size(text)) for text, expected in cases if parse_size(text) != expected]
    assert wrong == []


def test_a_workload_with_mib_keeps_its_level_one_target():
    assert parse_size("4MiB") == 4 * 2**20 and parse_size("2.5m") == 5 * 2**19
