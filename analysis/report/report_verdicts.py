"""The report's verdicts: every published finding judged on the run's figures (on the published programs'
clock, with the run's noise, each flagged where a figure of it is not steady) and its Findings section, and
the crash check's Durability section.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import NamedTuple

from ..results.crash import FILE_CHECKS, CrashResults, failures, file_check_name
from ..results.noise import Noise, measure_noise
from ..results.results import OPERATIONS_CLOCK, YCSB_CLOCK, Figure, RunData, like_for_like
from ..results.steady import CLIMBING, TOO_SHORT, figure_steadiness
from ..results.steady import describe as describe_steadiness
from .findings import (
    NOT_MEASURED,
    NOT_REPRODUCED,
    REPRODUCED,
    TOO_CLOSE,
    FindingResult,
    closer_library,
    evaluate_findings,
    ran_any_finding,
)
from .reference import load_findings, load_published
from .render import Block, BulletList, Heading, Paragraph, Table
from .tables import engine_label

QUICK_SCOPE = (
    " Judged at this quick run's scaled-down counts: a finding that turns on how the data compares with an "
    "engine's caches can go the other way at the published counts (docs/performance.md measures how often), so "
    "take a verdict here as provisional until a `--full` run confirms it; `python -m analysis compare THIS FULL "
    "--allow-mixed` sets the two runs' verdicts side by side."
)


def findings_blocks(results: list[FindingResult], timed: bool = False, quick: bool = False) -> list[Block]:
    """timed: the run has in-operation figures, which the findings are judged on (like_for_like); quick: the run
    has scaled-down counts, whose verdicts the section says are provisional."""
    counts = {
        s: sum(1 for r in results if r.status == s) for s in (REPRODUCED, NOT_REPRODUCED, TOO_CLOSE, NOT_MEASURED)
    }
    rows = [[r.label, f"{r.finding} ({r.source})", f"**{r.status}**", r.evidence] for r in results]
    per_library = closer_library(results)
    return [
        Heading(2, "Findings"),
        Paragraph(
            f"Each published finding checked against this run: {counts[REPRODUCED]} reproduced, "
            f"{counts[NOT_REPRODUCED]} not reproduced, {counts[TOO_CLOSE]} too close to call, "
            f"{counts[NOT_MEASURED]} not measured."
            + (
                f" Judged on db_bench's clock ('{OPERATIONS_CLOCK}': the operations' own nanoseconds, after the open "
                f"and before the close) wherever the run timed a test's operations, else on {YCSB_CLOCK}'s "
                "throughput."
                if timed
                else f" Judged on {YCSB_CLOCK}'s throughput (this run has no in-operation times)."
            )
            + (
                " The 2011 page's findings about LevelDB are judged on each LevelDB library of the run: "
                + per_library
                + "."
                if per_library
                else ""
            )
            + (QUICK_SCOPE if quick else "")
        ),
        Table(["", "Published finding", "Here", "What decided it"], rows, align_right_from=4),
    ]


def durability_blocks(crash: CrashResults) -> list[Block]:
    """The crash check of this results directory: per engine and sync mode, what a kill -9 cost."""
    low, high = crash.kill_window_s
    engines = {r.engine for r in crash.rounds}
    checked = "".join(
        f"{engine_label(e)}'s files also go through {file_check_name(e)} (on a copy, before the reopen). "
        for e in sorted(engines & FILE_CHECKS.keys())
    )
    rows = [
        [
            engine_label(s.engine),
            f"sync={str(s.sync).lower()}",
            str(s.rounds),
            f"{s.acknowledged:,}",
            f"{s.lost:,}",
            f"{s.wrong + s.errors:,}",
            str(s.reopen_failures),
            "—" if s.file_check_failures is None else str(s.file_check_failures),
            f"**{s.verdict}**",
        ]
        for s in crash.summaries
    ]
    blocks: list[Block] = [
        Heading(2, "Durability"),
        Paragraph(
            f"`python -m analysis crash`: each round writes records through the binding into a fresh "
            f"directory, records every key the binding acknowledged (`Status.OK`), kills the JVM with SIGKILL "
            f"{low:g}-{high:g} s after the first acknowledgement (uniformly at random, seed {crash.seed}), "
            f"then reopens the directory and reads back every acknowledged key and its exact value. "
            f"{checked}A lost or changed write, a failed reopen or a rejected file is a durability failure "
            f"where the README promises a killed process keeps every acknowledged write (every engine's "
            f"default, in both sync modes); in a mode with no such promise it is reported, not failed."
        ),
        Table(
            [
                "Engine",
                "Sync",
                "Rounds",
                "Acknowledged writes",
                "Lost",
                "Wrong value or unreadable",
                "Reopen failures",
                "File check failures",
                "Verdict",
            ],
            rows,
            align_right_from=2,
            text_columns=frozenset({8}),
        ),
    ]
    problems = failures(crash.rounds)
    if problems:
        blocks.append(BulletList(problems))
    return blocks


def unsteady_text(keys: list[tuple[str, str, str]], steadiness: Mapping[tuple[str, str, str], str], whose: str) -> str:
    """Which of these figures are not steady (steady.py): the ones still climbing by name, the ones too short as
    a count (in a quick run, most); '' when all are steady or unchecked."""
    climbing = describe_steadiness(steadiness, [k for k in keys if steadiness.get(k) == CLIMBING], engine_label)
    short = sum(1 for k in keys if steadiness.get(k) == TOO_SHORT)
    parts = [climbing] if climbing else []
    if short:
        parts.append(f"{short} of {whose} {len(keys)} figures from steps too short to show a steady part")
    return ", ".join(parts)


def steadiness_noted(result: FindingResult, steadiness: Mapping[tuple[str, str, str], str]) -> FindingResult:
    """A judged finding whose figures include one that is not steady says so after its evidence."""
    if result.status == NOT_MEASURED:
        return result
    flagged = unsteady_text(list(result.figures), steadiness, "its")
    return replace(result, evidence=f"{result.evidence}; not steady: {flagged}") if flagged else result


class Judged(NamedTuple):
    """A run's figures on the published programs' clock, its noise, steadiness and findings (judged_findings)."""

    compared: list[Figure]
    on_ycsb: set[tuple[str, str]]  # the tests left on YCSB's clock (like_for_like)
    noise: Noise
    steadiness: Mapping[tuple[str, str, str], str]
    findings: list[FindingResult]


def judged_findings(run: RunData) -> Judged:
    """Every published finding judged on the run's figures, as the report shows them (compare reads it too)."""
    published = load_published()
    # Where a figure meets a published one (the findings, the heat map's published tests), it is taken on
    # the clock the published program kept: db_bench's, after the open and before the close.
    compared, on_ycsb = like_for_like(run.figures, {(s, v) for (s, v, _e) in published})
    compared_map = {(f.engine, f.scenario, f.variant): f for f in compared}
    compared_values = {k: f.value for k, f in compared_map.items() if f.value is not None}
    noise = measure_noise(compared)  # this machine's run-to-run spread per kind of step, on the same clock
    findings = evaluate_findings(load_findings(), compared_values, run.machine, compared_map, noise)
    if not ran_any_finding(findings, {f.scenario for f in run.figures}):
        findings = []  # none of their scenarios ran: the summary says so in one line, and no Findings section
    steadiness = figure_steadiness(run.cells, run.directory)
    findings = [steadiness_noted(r, steadiness) for r in findings]
    return Judged(compared, on_ycsb, noise, steadiness, findings)
