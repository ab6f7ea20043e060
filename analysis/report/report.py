"""Renders the report of a results directory: report.md, report.html, charts/*.svg, tidy.csv,
figures.csv. Prints the Markdown report's path.

    python -m analysis report results/20261122-014500-quick
    python -m analysis report results/host-a results/host-b --out results/merged    several runs as one

Several directories (the shards of `run --shard I/N`, runs on several hosts) make one report, each
cell named with its host; runs whose machines or counts differ are refused unless --allow-mixed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from ..catalogue.scenarios import SCENARIOS_BY_ID
from ..results.crash import FILE_CHECKS, CrashResults, failures, file_check_name, load_crash_results
from ..results.noise import Noise, measure_noise
from ..results.results import OPERATIONS_CLOCK, YCSB_CLOCK, Figure, RunData, figures_frame, like_for_like, load_runs
from ..results.steady import CLIMBING, TOO_SHORT, figure_steadiness
from ..results.steady import describe as describe_steadiness
from .charts import bar_chart, has_figure
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
from .formatting import format_number
from .reference import load_findings, load_published
from .render import Block, BulletList, Contents, Heading, Image, Paragraph, Table, to_html, to_markdown
from .report_costs import (
    COSTS_HEADING,
    TIMELINE_SCENARIOS,
    amplification_blocks,
    costs_blocks,
    glance_blocks,
    summary_blocks,
    timeline_blocks,
)
from .report_noise import noise_blocks, spread_blocks
from .report_own import own_stream_blocks
from .report_rate import capacities_of, capacity_map_rows, load_rate, rate_blocks, run_rate
from .report_scale import scale_blocks, with_scale_figures
from .report_tables import OWN_HEADING, ReportTable, own_counts_note, report_tables
from .tables import BuiltTable, build_table, engine_label

TITLE = "ycsb-embedded: embedded engines under YCSB"


@dataclass(frozen=True)
class ReportPaths:
    markdown: Path
    html: Path
    tidy_csv: Path
    figures_csv: Path


def machine_blocks(run: RunData) -> list[Block]:
    m = run.machine
    memory = m.get("memory_bytes")
    fsync = m.get("fsync_per_sec")
    rows = [
        ["CPU", f"{m.get('cpu', 'unknown')} ({m.get('cores', '?')} cores)"],
        ["Memory", f"{memory / 2**30:.1f} GiB" if memory else "unknown"],
        ["OS, kernel", f"{m.get('os', 'unknown')}, {m.get('kernel', 'unknown')}"],
        [
            "Data directory",
            f"`{m.get('data_dir', '?')}`: {m.get('filesystem', '?')} on {m.get('device', '?')}, "
            f"disk {m.get('disk', 'unknown')}",
        ],
        *(
            [["Results directory", f"`{m['results_dir']}`: {m.get('results_filesystem', '?')}"]]
            if m.get("results_dir") and not m.get("data_dir", "").startswith(m["results_dir"])
            else []
        ),
        ["Disk flush rate", f"{format_number(fsync)} fsyncs/sec (100-byte appends)" if fsync else "not measured"],
        *(
            [["Disk read-ahead", f"{m['read_ahead_kb']:,} KB (what a page fault on a memory-mapped file reads)"]]
            if m.get("read_ahead_kb")
            else []
        ),
        ["JDK", m.get("jdk", "unknown")],
        ["Host", ", ".join(m.get("hostnames") or [m.get("hostname", "unknown")])],
    ]
    rows += [[f"Engine: {engine_label(e)}", v] for e, v in sorted(run.engine_versions.items())]
    return [Heading(2, "This machine"), Table(["", ""], rows, align_right_from=2)]


def run_summary(run: RunData) -> str:
    suite = run.suite
    mode = suite.get("mode", "?")
    counts = "the published counts (--full)"
    if mode == "quick":
        seconds = suite.get("quick_seconds")
        counts = (
            f"scaled-down counts, each measured step run for {seconds:g} s (--quick)"
            if seconds
            else "scaled-down counts (--quick)"
        )
    repeat = suite.get("repeat", 1)
    by_scenario = suite.get("repeats") or {}
    if repeat > 1 and len(set(by_scenario.values())) > 1:
        several = sorted(s for s, n in by_scenario.items() if n > 1)
        repeats = f"median (and min-max) of {repeat} runs for {', '.join(several)}, one run for the rest"
    else:
        repeats = f"median (and min-max) of {repeat} runs per figure" if repeat > 1 else "one run per figure"
    noise_cells = suite.get("noise_cells") or []
    if noise_cells:
        repeats += (
            "; " + ", ".join(f"{c['engine']}/{c['scenario']}" for c in noise_cells) + " "
            f"{noise_cells[0]['repeat']} times, to measure the run-to-run spread"
        )
    ok = sum(1 for c in run.cells if c["status"] == "ok")
    cap = f", every count capped at {suite['cap']:,}" if suite.get("cap") else ""
    parts = suite.get("merged_from") or []
    if parts:
        hosts = sorted({str(p.get("host")) for p in parts})
        merged = (
            f"Merged from {len(parts)} results directories ({', '.join(Path(p['directory']).name for p in parts)}) "
            f"on {len(hosts)} host{'s' if len(hosts) > 1 else ''} ({', '.join(hosts)}), first started "
            f"{suite.get('started', '?')}: "
        )
        if run.machine.get("merge_problems"):
            merged += "**merged although " + "; ".join(run.machine["merge_problems"]) + "**; "
        return (
            f"{merged}{counts}{cap}, {repeats}; {ok} of {len(run.cells)} cells ran cleanly. "
            f"Each figure of **today, this host** sits beside the published one; ratios are to the same "
            f"engine's baseline on the same machine."
        )
    return (
        f"Run `{run.directory.name}` ({suite.get('started', '?')}, revision {suite.get('revision', '?')}): "
        f"{counts}{cap}, {repeats}; {ok} of {len(run.cells)} cells ran cleanly. "
        f"Each figure of **today, this host** sits beside the published one; ratios are to the same "
        f"engine's baseline on the same machine."
    )


def measured_counts(cells: list[dict], scenario: str, variant: str) -> str | None:
    """The counts a column's measured step ran with, e.g. '100,000 records, 100,000 operations'."""
    for cell in cells:
        if cell["scenario"] != scenario:
            continue
        for steps in cell["repeats"]:
            for step in steps:
                if step["measured"] and step["variant"] == variant:
                    ops = f", {step['operationcount']:,} operations" if step["phase"] == "run" else ""
                    return f"{step['recordcount']:,} records{ops}"
    return None


def counts_note(run: RunData, definition: ReportTable) -> str | None:
    """What this run's counts were: the published ones only with --full."""
    parts = []
    for column in definition.columns:
        counts = measured_counts(run.cells, column.scenario, column.variant)
        if counts:
            parts.append(f"{column.label.lower()} {counts}")
    return "This run: " + "; ".join(parts) + "." if parts else None


def describe_shape(fields: int, field_bytes: int) -> str:
    return f"{fields} field{'s' if fields != 1 else ''} of {field_bytes:,} bytes"


def shape_note(run: RunData, definition: ReportTable) -> str | None:
    """The record shape this run's measured steps used (cell.json's resources), beside the published one."""
    if definition.published_shape is None:
        return None
    scenarios = {c.scenario for c in definition.columns}
    used = {
        (step["resources"]["fields"], step["resources"]["field_bytes"])
        for cell in run.cells
        if cell["scenario"] in scenarios
        for steps in cell["repeats"]
        for step in steps
        if step["measured"] and "fields" in (step.get("resources") or {})
    }
    if not used:
        return None
    shapes = ", ".join(describe_shape(*s) for s in sorted(used))
    if used == {definition.published_shape}:
        return f"This run's records: {shapes}, as published."
    return f"This run's records: **{shapes}**, not the published {describe_shape(*definition.published_shape)}."


def drawn_keys_note(run: RunData, definition: ReportTable) -> str | None:
    """That the table's fills drew their keys with replacement, and the share of this run's measured
    reads (YCSB's READ returns, every engine) that found theirs."""
    ids = {c.scenario for c in definition.columns if c.scenario in SCENARIOS_BY_ID}
    if not any(SCENARIOS_BY_ID[i].keys_drawn for i in ids):
        return None
    note = "Keys drawn with replacement as db_bench does: about 63 % distinct"
    t = run.tidy
    if not t.empty:
        reads = t[t["scenario"].isin(ids) & t["measured"].astype(bool) & (t["operation"] == "READ")]
        total = reads["ok"].sum() + reads["not_found"].sum()
        if total > 0:
            note += f"; {100 * reads['ok'].sum() / total:.1f} % of reads found"
    return note + "."


def table_blocks(
    built: BuiltTable,
    chart_path: Path,
    report_dir: Path,
    run: RunData,
    steadiness: Mapping[tuple[str, str, str], str] | None = None,
) -> list[Block]:
    """steadiness: each figure's steady-state verdict; the figures of the table that are not steady are named."""
    d = built.definition
    blocks: list[Block] = [Heading(3, d.title)]
    own = own_counts_note(run.suite.get("mode"), run.suite.get("cap")) if d.section == OWN_HEADING else None
    parts = (d.note, own, drawn_keys_note(run, d), counts_note(run, d), shape_note(run, d))
    note = " ".join(part for part in parts if part)
    if note:
        blocks.append(Paragraph(note))
    blocks.append(built.table)
    for note in built.notes:
        blocks.append(Paragraph(note))
    columns = {(c.scenario, c.variant) for c in d.columns}
    keys = [(f.engine, f.scenario, f.variant) for f in run.figures if (f.scenario, f.variant) in columns and f.value]
    unsteady = unsteady_text(keys, steadiness or {}, "the table's")
    if unsteady:
        blocks.append(Paragraph(f"Not steady (checked from each measured step's seconds): {unsteady}."))
    if has_figure(built.panels):
        svg = bar_chart(d.title, built.unit, built.panels, chart_path)
        blocks.append(Image(str(svg.relative_to(report_dir)), d.title))
    else:  # an axis around zero with nothing on it reads as a measurement
        blocks.append(Paragraph("No chart: no cell of this table gave a figure (see 'Failed cells')."))
    return blocks


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


def failed_blocks(run: RunData) -> list[Block]:
    failed = [c for c in run.cells if c["status"] != "ok"]
    blocks: list[Block] = [Heading(2, "Failed cells")]
    if not failed:
        return blocks + [Paragraph("None: every cell ran without errors, misses or missing operations.")]
    rows = [[engine_label(c["engine"]), c["scenario"], c.get("error") or "?"] for c in failed]  # "skipped: ..."
    return blocks + [
        Table(["Engine", "Scenario", "Error"], rows, align_right_from=3),
        Paragraph("Raw outputs of every step: `<engine>/<scenario>/r<repeat>/` in the results directory."),
    ]


def latency_blocks(run: RunData) -> list[Block]:
    """Per-operation latencies of the YCSB core mixes (the figure the mixes are usually read for)."""
    tidy = run.tidy
    if tidy.empty:
        return []
    rows = tidy[
        (tidy["measured"])
        & (tidy["step_ok"])
        & tidy["scenario"].str.startswith("workload")
        & ~tidy["operation"].isin(["OVERALL", "READSEQ"])
    ]
    if rows.empty:
        return []
    grouped = (
        rows.groupby(["scenario", "engine", "operation"], sort=False)[
            ["avg_latency_us", "p95_latency_us", "p99_latency_us"]
        ]
        .median()
        .reset_index()
    )
    table_rows = [
        [
            r["scenario"],
            engine_label(r["engine"]),
            r["operation"],
            format_number(r["avg_latency_us"]),
            format_number(r["p95_latency_us"]),
            format_number(r["p99_latency_us"]),
        ]
        for r in grouped.to_dict("records")
    ]
    return [
        Heading(3, "Latencies of the core mixes"),
        Table(
            ["Workload", "Engine", "Operation", "average (us)", "p95 (us)", "p99 (us)"], table_rows, align_right_from=3
        ),
    ]


def counts_blocks(run: RunData) -> list[Block]:
    seen: dict[tuple[str, str], str] = {}
    for cell in run.cells:
        for steps in cell["repeats"][:1]:
            for step in steps:
                key = (cell["scenario"], step["name"])
                if key not in seen:
                    ops = f", {step['operationcount']:,} operations" if step["phase"] == "run" else ""
                    seen[key] = f"{step['recordcount']:,} records{ops}"
    rows = [[scenario, step, text] for (scenario, step), text in seen.items()]
    if not rows:
        return []
    return [
        Paragraph("Counts each step ran with (YCSB's recordcount / operationcount):"),
        Table(["Scenario", "Step", "Counts"], rows, align_right_from=3),
    ]


def own_notes_blocks(run: RunData, scenario: str) -> list[Block]:
    """What the engines made of a user's workload file: the properties a binding said it ignored, how a peer's
    cell was adapted (each cell's `notes`)."""
    cells = [c for c in run.cells if c["scenario"] == scenario]
    notes = [f"{engine_label(c['engine'])}: {n}" for c in cells for n in c.get("notes") or []]
    return [Paragraph("Not honoured as written:"), BulletList(notes)] if notes else []


def peers_blocks(run: RunData) -> list[Block]:
    """The upstream YCSB bindings that ran beside ours: where from, with what, and what of our workload
    files they used (our workload class's properties) or could not (our bindings' properties)."""
    peers = run.suite.get("peers") or []
    if not peers:
        return []
    items = []
    for peer in peers:
        cells = [c for c in run.cells if c["engine"] == peer["engine"]]
        given = ", ".join(f"`{k}={v}`" for k, v in peer.get("properties", {}).items()) or "none"
        used: dict[str, str] = {}
        ignored: dict[str, str] = {}
        for cell in cells:
            used.update(cell.get("workload_class_properties") or {})
            ignored.update(cell.get("ignored_properties") or {})
        where = (
            "in core, `lib/`" if peer["binding"] == "basic" else f"`{peer['binding'].split('-', 1)[0]}-binding/lib/`"
        )
        text = (
            f"**{engine_label(peer['engine'])}**: `{peer['class']}` ({where}) of `{peer['ycsb_home']}`; "
            f"properties as given: {given}. Its durability and cache are these and the binding's own defaults."
        )
        if used:
            text += (
                f" Our workload class ran on its classpath (`{Path(peer.get('common_jar') or '?').name}` beside core), "
                f"with {', '.join(f'`{k}={v}`' for k, v in sorted(used.items()))}."
            )
        neutral = sorted(k for k in ignored if "." not in k)
        prefixes = sorted({k.split(".", 1)[0] + ".*" for k in ignored if "." in k})
        if ignored:
            text += (
                " Not for it: our bindings' properties in the workload files ("
                + ", ".join([f"`{k}`" for k in neutral] + [f"`{k}`" for k in prefixes])
                + ")."
            )
        adapted = [f"{c['scenario']}, {note}" for c in cells for note in c.get("notes") or []]
        if adapted:
            text += " Adapted to it: " + "; ".join(adapted) + "."
        skipped = [c for c in cells if c["status"] == "skipped"]
        if skipped:
            text += f" Skipped {len(skipped)} cell(s): {skipped[0].get('error')}."
        items.append(text)
    return [
        Heading(2, "Upstream YCSB bindings beside ours"),
        Paragraph(
            "Each peer ran the same workload files through its YCSB release's own classpath, every cell in a "
            "fresh data directory where the binding keeps one (a server's namespace is what its properties give)."
        ),
        BulletList(items),
    ]


def hosts_blocks(run: RunData) -> list[Block]:
    """Where each cell ran, when the report merges several runs."""
    if not run.suite.get("merged_from"):
        return []
    rows = [
        [engine_label(c["engine"]), c["scenario"], c.get("host", "?"), f"`{c.get('results_dir', '?')}`", c["status"]]
        for c in run.cells
    ]
    return [
        Heading(2, "Where each cell ran"),
        Table(["Engine", "Scenario", "Host", "Results directory", "Status"], rows, align_right_from=5),
    ]


def how_blocks(run: RunData) -> list[Block]:
    parts = run.suite.get("merged_from") or [{"command": run.suite.get("command")}]
    commands = [" ".join(p.get("command") or ["python", "-m", "analysis", "run"]) for p in parts]
    return [
        Heading(2, "How this was run"),
        BulletList(
            [
                ("Command: " if len(commands) == 1 else "Commands: ") + ", ".join(f"`{c}`" for c in commands) + ".",
                "Each cell (engine x scenario) ran in a fresh data directory; each step was one `bin/ycsb` JVM "
                + ("(a peer's: `java -cp <its tree's classpath> site.ycsb.Client`) " if run.suite.get("peers") else "")
                + "with `-s` status lines (one a second) and "
                + ("YCSB's JSON exporter" if run.suite.get("exporter", "json") == "json" else "YCSB's text output")
                + ". YCSB's run time includes opening and closing the database and the client's work between "
                "operations; beside each published figure, and in the 'inside ops/sec' of each 'What it cost' table, "
                "this host's figure is also given on db_bench's clock ('in operations'): `bin/ycsb -p "
                "nanotimed.file=...` puts the binding inside a timing layer (`NanoTimedDB`) that sums each "
                "operation's nanoseconds after the open and before the close and times the open and close apart "
                "(`<NN>-<step>.timing.json`).",
                "Sequential reads are one ordered iterator pass per operation, reported in entries/sec as db_bench "
                "did; batched writes are entries/sec (YCSB counts each queued entry as one operation, and its "
                "latencies put a whole batch on its last entry).",
                "Quick mode scales counts down so the whole matrix runs in minutes; databases that fit in cache "
                "make some ratios (more memory, larger cache) differ from the published ones. `--full` runs the "
                "published counts.",
                "Files: `tidy.csv` (one row per operation of every step), `figures.csv` (the figures in the tables), "
                "`machine.json`, `suite.json`, and every raw output under `<engine>/<scenario>/`.",
            ]
        ),
        *counts_blocks(run),
    ]


def incompleteness(missing: list[str]) -> str:
    """What a report of some parts of a sharded matrix lacks, in one sentence."""
    return (
        f"INCOMPLETE: {', '.join(missing)} of the sharded matrix {'is' if len(missing) == 1 else 'are'} missing "
        "from these results: their cells are in no table and no finding; merge every part with "
        "`python -m analysis report DIR... --out DIR`"
    )


def incomplete_blocks(run: RunData) -> list[Block]:
    missing = run.suite.get("missing_parts") or []
    return [Paragraph(f"**{incompleteness(missing)}.**")] if missing else []


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


def build_report(run: RunData, report_dir: Path, timelines: tuple[str, ...] = TIMELINE_SCENARIOS) -> list[Block]:
    published = load_published()
    figure_map = {(f.engine, f.scenario, f.variant): f for f in run.figures}
    compared, on_ycsb, noise, steadiness, findings = judged_findings(run)
    timed = any(f.inside_values for f in run.figures)
    crash = load_crash_results(run.directory)
    full_repeats = run.suite.get("mode") == "full" and len(set((run.suite.get("repeats") or {}).values())) > 1
    summary = summary_blocks(run, findings, crash, full_repeats, compared, noise, steadiness)
    rate = run_rate(run, allow_mixed=True)  # write_report refused a mixed merge unless it was allowed
    capacities = capacity_map_rows(capacities_of(rate))
    blocks: list[Block] = [
        Heading(1, TITLE),
        *incomplete_blocks(run),
        *glance_blocks(run, compared, on_ycsb, steadiness, capacities),
        summary[0],
        Paragraph(run_summary(run)),
        *summary[1:],
        Contents(),
        *machine_blocks(run),
        *peers_blocks(run),
    ]
    current_section = None
    for definition in report_tables():
        built = build_table(definition, figure_map, published)
        if built is None:
            continue
        if definition.section != current_section:
            if current_section is not None:
                blocks += costs_blocks(run, current_section, explain=not any(b == COSTS_HEADING for b in blocks))
            blocks.append(Heading(2, definition.section))
            current_section = definition.section
        blocks += table_blocks(built, report_dir / "charts" / f"{definition.id}.svg", report_dir, run, steadiness)
        if definition.id == "ycsb":
            blocks += latency_blocks(run)
        if definition.section == OWN_HEADING:
            blocks += own_stream_blocks(run, definition.columns[0].scenario, report_dir)
            blocks += own_notes_blocks(run, definition.columns[0].scenario)
    if current_section is not None:
        blocks += costs_blocks(run, current_section, explain=not any(b == COSTS_HEADING for b in blocks))
    blocks += scale_blocks(run, report_dir)
    blocks += rate_blocks(rate, report_dir)
    blocks += amplification_blocks(run, report_dir)
    own = tuple(w["id"] for w in run.suite.get("workload_files") or [])  # run --workload: each file's run
    blocks += timeline_blocks(run, report_dir, tuple(dict.fromkeys([*timelines, *own])))
    if crash is not None:
        blocks += durability_blocks(crash)
    if findings:
        blocks += findings_blocks(findings, timed, quick=run.suite.get("mode") == "quick")
    blocks += failed_blocks(run)
    blocks += spread_blocks(noise, bool(findings))
    blocks += noise_blocks(run)
    blocks += hosts_blocks(run)
    blocks += how_blocks(run)
    return blocks


def write_report(
    results_dir: Path | list[Path],
    out: Path | None = None,
    allow_mixed: bool = False,
    timelines: tuple[str, ...] = TIMELINE_SCENARIOS,
    partial: bool = False,
) -> ReportPaths:
    """The report of one results directory (into it), or of several merged into one (into `out`);
    timelines: the scenarios whose throughput is drawn second by second. ValueError when parts of a
    sharded matrix are missing, unless partial (the report then says so at the top)."""
    directories = [Path(d).resolve() for d in (results_dir if isinstance(results_dir, list) else [results_dir])]
    report_dir = (out or directories[0]).resolve()
    run = load_runs(directories, allow_mixed=allow_mixed, into=report_dir)
    missing = run.suite.get("missing_parts")
    if missing and not partial:
        raise ValueError(
            f"{', '.join(missing)} of the sharded matrix missing: give every part's directory, "
            "or --partial for a report of these parts marked incomplete"
        )
    run_rate(run, allow_mixed)  # the parts' rate results: refused as their cells are, before anything is written
    report_dir.mkdir(parents=True, exist_ok=True)  # only once nothing refuses the merge: no empty --out left
    if missing:
        print(f"report: WARNING: {incompleteness(missing)}", file=sys.stderr)
    blocks = build_report(run, report_dir, timelines)
    paths = ReportPaths(
        report_dir / "report.md", report_dir / "report.html", report_dir / "tidy.csv", report_dir / "figures.csv"
    )
    if len(directories) > 1:  # so that `compare MERGED ...` finds the parts this report merged
        (report_dir / MERGED_FILE).write_text(json.dumps({"directories": [str(d) for d in directories]}, indent=2))
    paths.markdown.write_text(to_markdown(blocks))
    paths.html.write_text(to_html(blocks, TITLE, report_dir))
    run.tidy.to_csv(paths.tidy_csv, index=False)
    with_scale_figures(figures_frame(run.figures), run).to_csv(paths.figures_csv, index=False)
    return paths


# A merged report's directory names the results directories it merged (it holds no cell of its own).
MERGED_FILE = "merged.json"


def merged_parts(directory: Path) -> list[Path] | None:
    """The results directories a merged report's directory was made from; None for any other directory."""
    path = directory / MERGED_FILE
    if not path.is_file():
        return None
    return [Path(d) for d in json.loads(path.read_text())["directories"]]


def holds_results(directory: Path) -> bool:
    return (
        (directory / "suite.json").is_file()
        or any(directory.glob("*/*/cell.json"))
        or load_crash_results(directory) is not None
        or load_rate(directory) is not None
    )


def main(argv: list[str]) -> int:
    """`python -m analysis report`."""
    p = argparse.ArgumentParser(
        prog="python -m analysis report", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("results_dir", type=Path, nargs="+", help="one results directory, or several to merge")
    p.add_argument("--out", type=Path, help="where the merged report goes (needed with several directories)")
    p.add_argument(
        "--allow-mixed",
        action="store_true",
        help="merge runs whose machines or counts differ (the report says so at the top)",
    )
    p.add_argument(
        "--partial",
        action="store_true",
        help="report some parts of a sharded matrix (run --shard I/N) without the others, marked incomplete "
        "at the top; without it a missing part is refused",
    )
    p.add_argument(
        "--timeline",
        nargs="+",
        metavar="SCENARIO",
        default=[],
        help=f"also draw these scenarios' ops/sec second by second (always: {', '.join(TIMELINE_SCENARIOS)})",
    )
    args = p.parse_args(argv)
    for directory in args.results_dir:
        if not holds_results(directory):
            print(f"report: {directory} holds no suite results", file=sys.stderr)
            return 2
    if len(args.results_dir) > 1 and args.out is None:
        print("report: several results directories need --out DIR for the merged report", file=sys.stderr)
        return 2
    timelines = tuple(dict.fromkeys([*TIMELINE_SCENARIOS, *(n for v in args.timeline for n in v.split(","))]))
    try:
        print(write_report(args.results_dir, args.out, args.allow_mixed, timelines, args.partial).markdown)
    except ValueError as e:
        print(f"report: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # the old entry point: say where the command went rather than do nothing
    sys.exit(f"python -m analysis.report is now: python -m analysis report {' '.join(sys.argv[1:])}".rstrip())
