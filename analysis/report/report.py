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
from dataclasses import dataclass
from pathlib import Path

from ..catalogue.scenarios import SCENARIOS_BY_ID
from ..results.crash import load_crash_results
from ..results.results import RunData, figures_frame, load_runs
from .charts import bar_chart, has_figure
from .formatting import format_number
from .reference import load_published
from .render import Block, BulletList, Contents, Heading, Image, Paragraph, Table, to_html, to_markdown
from .report_context import (
    failed_blocks,
    hosts_blocks,
    how_blocks,
    incomplete_blocks,
    incompleteness,
    machine_blocks,
    peers_blocks,
    run_summary,
)
from .report_costs import COSTS_HEADING, TIMELINE_SCENARIOS, amplification_blocks, costs_blocks, timeline_blocks
from .report_noise import noise_blocks, spread_blocks
from .report_own import own_stream_blocks
from .report_rate import capacities_of, capacity_map_rows, load_rate, rate_blocks, run_rate
from .report_scale import scale_blocks, with_scale_figures
from .report_summary import glance_blocks, summary_blocks
from .report_tables import OWN_HEADING, ReportTable, own_counts_note, report_tables
from .report_verdicts import durability_blocks, findings_blocks, judged_findings, unsteady_text
from .tables import BuiltTable, build_table, engine_label

TITLE = "ycsb-embedded: embedded engines under YCSB"


@dataclass(frozen=True)
class ReportPaths:
    markdown: Path
    html: Path
    tidy_csv: Path
    figures_csv: Path


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


def own_notes_blocks(run: RunData, scenario: str) -> list[Block]:
    """What the engines made of a user's workload file: the properties a binding said it ignored, how a peer's
    cell was adapted (each cell's `notes`)."""
    cells = [c for c in run.cells if c["scenario"] == scenario]
    notes = [f"{engine_label(c['engine'])}: {n}" for c in cells for n in c.get("notes") or []]
    return [Paragraph("Not honoured as written:"), BulletList(notes)] if notes else []


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
