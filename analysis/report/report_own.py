"""The report's "Your Workloads" part beside each file's table: what a trace replay read (its `[TRACE]` lines) and
how mixgraph's generated stream compares with the model it draws from (its `[MIXGRAPH]` lines). Both lines are
carried in the tidy rows (`workload_line` on a step's OVERALL row); the tables here are pure functions of them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from ..results.workload_lines import (
    MIXGRAPH_PREFIX,
    TRACE_PREFIX,
    MixGraphSummary,
    TraceSummary,
    parse_mixgraph_line,
    parse_trace_line,
)
from .charts import Panel, Series, bar_chart
from .formatting import format_count
from .render import Block, Image, Paragraph, Table
from .tables import engine_label

if TYPE_CHECKING:
    from ..results.results import RunData


def _first_steps(run: RunData, scenario: str, column: str) -> dict[str, dict[str, str | None]]:
    """engine -> phase ("load", "run") -> the column's text on its first step's OVERALL row of the engine's first
    repeat (a thread series' first run), None where it has none (pure over the tidy rows)."""
    tidy = run.tidy
    if tidy.empty or column not in tidy:
        return {}
    rows = tidy[(tidy["scenario"] == scenario) & (tidy["operation"] == "OVERALL")].to_dict("records")
    out: dict[str, dict[str, str | None]] = {}
    for engine in dict.fromkeys(r["engine"] for r in rows):
        mine = [r for r in rows if r["engine"] == engine]
        first = min(r["repeat"] for r in mine)
        texts: dict[str, str | None] = {"load": None, "run": None}
        for r in mine:
            text = r.get(column)
            if r["repeat"] == first and isinstance(text, str) and texts.get(r["phase"], "") is None:
                texts[r["phase"]] = text
        out[engine] = texts
    return out


def phase_lines(run: RunData, scenario: str) -> dict[str, tuple[str | None, str | None]]:
    """engine -> (its load's summary line, its first run step's), from each engine's first repeat (pure over
    the tidy rows)."""
    return {e: (t["load"], t["run"]) for e, t in _first_steps(run, scenario, "workload_line").items()}


def skipped_lines(run: RunData, scenario: str) -> dict[str, str]:
    """engine -> the malformed lines its trace replay named: the load's, which reads the whole trace, else the
    run's (pure over the tidy rows)."""
    return {e: t["load"] or t["run"] or "" for e, t in _first_steps(run, scenario, "trace_skipped").items()}


def _grouped(lines: dict[str, tuple[str | None, str | None]]) -> list[tuple[list[str], tuple[str | None, str | None]]]:
    """Engines whose workload said the same, together (a seeded stream and a trace are the same on every engine)."""
    groups: dict[tuple[str | None, str | None], list[str]] = {}
    for engine, pair in lines.items():
        groups.setdefault(pair, []).append(engine)
    return [(engines, pair) for pair, engines in groups.items()]


def _engines_heading(engines: list[str], everyone: int) -> str:
    if len(engines) == everyone and everyone > 1:
        return f"all {everyone} engines"
    return ", ".join(engine_label(e) for e in engines)


def _counts(counts: dict[str, int]) -> str:
    shown = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{name} {format_count(n)}" for name, n in shown) or "none"


def _sizes(sizes: dict[str, float]) -> str:
    if not sizes:
        return "none"
    parts = [f"{q} {sizes[q]:,.0f}" for q in ("min", "p50", "p90", "p99", "max") if q in sizes]
    if "mean" in sizes:
        parts.append(f"mean {sizes['mean']:,.1f}")
    return ", ".join(parts)


def _skipped(skipped: str) -> str:
    """`NUMBER: text` lines as one cell: each line's number and its text in code."""
    parts = [line.partition(": ") for line in skipped.splitlines() if line]
    return "; ".join(f"line {number}: `{text.replace('`', chr(39))}`" for number, _, text in parts)


def trace_rows(load: TraceSummary | None, run: TraceSummary | None, skipped: str = "") -> list[tuple[str, str]]:
    """What a replayed trace was, as (what, value) rows: the run's line (what was replayed and measured), the keys
    the load inserted and the malformed lines it met (it reads the trace up to its last key to insert, the whole
    trace when uncapped), and the first malformed lines as the replay named them (pure)."""
    rows: list[tuple[str, str]] = []
    if run is not None:
        rows += [
            ("Format", run.format),
            ("Lines replayed", f"{format_count(run.lines)} ({format_count(run.malformed)} malformed, skipped)"),
            ("Distinct keys (HyperLogLog estimate)", f"~{format_count(run.distinct_keys)}"),
            ("Time span of those lines", f"{run.span_s:,.3f} s"),
            ("Mix (what the lines became)", _counts(run.mix)),
            ("The trace's own operations", _counts(run.trace_ops)),
            ("Key size, bytes (key size column)", _sizes(run.keysize)),
            ("Value size, bytes", _sizes(run.valuesize)),
        ]
        if run.updates_inserted:
            rows.append(("Updates sent again as inserts (key deleted since)", format_count(run.updates_inserted)))
    if load is not None:
        rows.append(("Keys the load inserted (read before written)", format_count(load.loaded)))
        if load.lines or load.malformed:
            met = format_count(load.malformed)
            rows.append(("Malformed lines the load met, skipped (it reads up to its last key)", met))
    if skipped:
        rows.append(("First malformed lines skipped", _skipped(skipped)))
    return rows


def _share(x: float | None) -> str:
    return "" if x is None else f"{100 * x:.1f} %"


def _quantiles(q: dict[str, float], n_label: str = "") -> str:
    if not q:
        return "none"
    text = " / ".join(f"{q[k]:,.0f}" for k in ("p10", "p50", "p90", "p99") if k in q)
    return text + (f" ({format_count(int(q['n']))} {n_label})" if "n" in q and n_label else "")


def _top(shares: tuple[float, ...], first: int, last: int) -> float | None:
    return sum(shares[first:last]) if len(shares) >= last else None


def mixgraph_rows(load: MixGraphSummary | None, run: MixGraphSummary | None) -> list[tuple[str, str, str]]:
    """(what, model, generated) rows: the query mix, value sizes and scan lengths (p10 / p50 / p90 / p99) and
    key-range hotness (share of requests in the model's hottest ranges) (pure)."""
    rows: list[tuple[str, str, str]] = []
    model = run or load
    if model is None:
        return rows
    if run is not None:
        rows.append(("Requests", "", format_count(run.ops)))
        for op in ("get", "put", "seek"):
            rows.append((f"Share of {op}", _share(run.model_mix.get(op)), _share(run.mix.get(op))))
    if load is not None:
        rows.append(
            (
                "Value size p10 / p50 / p90 / p99, loaded",
                _quantiles(model.model_valuesize),
                _quantiles(load.valuesize, "values"),
            )
        )
    if run is not None:
        rows += [
            (
                "Value size p10 / p50 / p90 / p99, puts",
                _quantiles(run.model_valuesize),
                _quantiles(run.valuesize, "puts"),
            ),
            (
                "Scan length p10 / p50 / p90 / p99",
                _quantiles(run.model_scanlength),
                _quantiles(run.scanlength, "seeks"),
            ),
        ]
        ranges = len(run.model_keyrange_share)
        for label, first, last in (("hottest key range", 0, 1), ("2nd hottest", 1, 2), ("3rd hottest", 2, 3)):
            rows.append(
                (
                    f"Share of requests, {label}",
                    _share(_top(run.model_keyrange_share, first, last)),
                    _share(_top(run.keyrange_share, first, last)),
                )
            )
        if ranges > 10:
            rows.append(
                (
                    f"Share of requests, the other {ranges - 10} of {ranges} ranges",
                    _share(_top(run.model_keyrange_share, 10, ranges)),
                    _share(_top(run.keyrange_share, 10, ranges)),
                )
            )
    return rows


QUANTILES = ("p10", "p50", "p90", "p99")


def value_size_panel(load: MixGraphSummary | None, run: MixGraphSummary | None, engines: str) -> Panel | None:
    """mixgraph's value-size quantiles, the model's (drawn as published) beside the generated ones (pure)."""
    model = run or load
    if model is None or not model.model_valuesize:
        return None
    series = [Series("model (FAST 2020)", [model.model_valuesize.get(q) for q in QUANTILES], published=True)]
    for summary, what in ((load, "loaded values"), (run, "puts")):
        if summary is not None and summary.valuesize:
            series.append(Series(f"{what}, {engines}", [summary.valuesize.get(q) for q in QUANTILES]))
    return Panel("value size", list(QUANTILES), series)


def own_stream_blocks(run: RunData, scenario: str, report_dir: Path | None = None) -> list[Block]:
    """Under a user's workload file's table: a trace's description, or mixgraph's model beside what it generated
    (and, given report_dir, a chart of its value sizes); nothing for another workload class. Engines that saw the
    same stream share a column."""
    lines = phase_lines(run, scenario)
    if not lines:
        return []
    groups = _grouped(lines)
    everyone = len(lines)
    blocks: list[Block] = []
    traces = [
        (engines, parse_trace_line(load or ""), parse_trace_line(run_ or ""))
        for engines, (load, run_) in groups
        if (load or run_ or "").startswith(TRACE_PREFIX)
    ]
    if traces:
        skipped = skipped_lines(run, scenario)
        tables = [dict(trace_rows(load_s, run_s, skipped.get(engines[0], ""))) for engines, load_s, run_s in traces]
        names = list(dict.fromkeys(name for t in tables for name in t))
        blocks += [
            Paragraph(
                "What the trace was (its `[TRACE]` lines: the run's, what was replayed and measured; the load's keys). "
                "A trace's steps end with the trace: the counts above are what they were allowed, at most."
            ),
            Table(
                ["", *(_engines_heading(engines, everyone) for engines, _, _ in traces)],
                [[name, *(t.get(name, "") for t in tables)] for name in names],
                align_right_from=1,
                text_columns=frozenset(range(1, len(traces) + 1)),
            ),
        ]
    graphs = [
        (engines, parse_mixgraph_line(load or ""), parse_mixgraph_line(run_ or ""))
        for engines, (load, run_) in groups
        if (load or run_ or "").startswith(MIXGRAPH_PREFIX)
    ]
    if graphs:
        tables_mg = [mixgraph_rows(load_m, run_m) for _, load_m, run_m in graphs]
        model = {what: m for t in tables_mg for what, m, _ in t}
        generated = [{what: g for what, _, g in t} for t in tables_mg]
        blocks += [
            Paragraph(
                "The model (Cao et al., FAST 2020, as db_bench's mixgraph) beside the stream the workload generated "
                "(its `[MIXGRAPH]` lines). Sizes and lengths are quantiles p10 / p50 / p90 / p99; key ranges are "
                "ranked by the model's hotness; a draw above mix_max_value_size or mix_max_scan_len is held there:"
            ),
            Table(
                ["", "Model", *(f"Generated, {_engines_heading(engines, everyone)}" for engines, _, _ in graphs)],
                [[what, m, *(g.get(what, "") for g in generated)] for what, m in model.items()],
                align_right_from=1,
                text_columns=frozenset(range(1, len(graphs) + 2)),
            ),
        ]
        engines, load_m, run_m = graphs[0]
        panel = value_size_panel(load_m, run_m, _engines_heading(engines, everyone))
        if report_dir is not None and panel is not None:
            title = f"{scenario}: value size, model and generated"
            svg = bar_chart(title, "bytes", [panel], report_dir / "charts" / f"own-{scenario}-valuesize.svg")
            blocks.append(Image(str(svg.relative_to(report_dir)), title))
    return blocks
