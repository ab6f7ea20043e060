"""A results directory as data: tidy rows (one per operation of every step run) and figures
(one per engine x scenario x variant: the median over repeats of the scenario's metric)."""

from __future__ import annotations

import json
import statistics
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pandas as pd

from .parse import YcsbOutput, parse_engine_banner, parse_status_lines, parse_ycsb_output, slowest_interval
from .scenarios import ENGINES, SCENARIOS, SCENARIOS_BY_ID, Scenario

TIDY_COLUMNS = [
    "engine", "scenario", "variant", "repeat", "step", "phase", "measured", "workloads", "operation",
    "count", "throughput_ops_per_sec", "entries", "entries_per_sec", "avg_latency_us", "p95_latency_us",
    "p99_latency_us", "ok", "not_found", "errors", "runtime_ms", "slowest_interval_ops_per_sec", "step_ok",
]


def output_rows(output: YcsbOutput, slowest: float | None) -> list[dict]:
    """Tidy rows of one step's output: OVERALL, each operation, and READSEQ (pure)."""
    runtime_s = output.runtime_ms / 1000.0 if output.runtime_ms else None
    rows = [{
        "operation": "OVERALL", "count": output.operations_done, "throughput_ops_per_sec": output.throughput,
        "entries": output.operations_done, "entries_per_sec": output.throughput,
        "ok": sum(s.ok for s in output.operations.values()),
        "not_found": sum(s.not_found for s in output.operations.values()),
        "errors": sum(s.errors for s in output.operations.values()),
        "runtime_ms": output.runtime_ms, "slowest_interval_ops_per_sec": slowest,
    }]
    for stats in output.operations.values():
        per_sec = stats.count / runtime_s if stats.count is not None and runtime_s else None
        rows.append({
            "operation": stats.operation, "count": stats.count, "throughput_ops_per_sec": per_sec,
            # A batched insert is still one entry; YCSB counts it when it is queued.
            "entries": stats.count if stats.operation == "INSERT" else None,
            "entries_per_sec": per_sec if stats.operation == "INSERT" else None,
            "avg_latency_us": stats.avg_us, "p95_latency_us": stats.p95_us, "p99_latency_us": stats.p99_us,
            "ok": stats.ok, "not_found": stats.not_found, "errors": stats.errors, "runtime_ms": output.runtime_ms,
        })
    if output.readseq:
        rows.append({
            "operation": "READSEQ", "count": output.readseq.passes, "entries": output.readseq.entries,
            "entries_per_sec": output.readseq.entries_per_sec, "runtime_ms": output.runtime_ms,
        })
    return rows


def figure_of(scenario: Scenario, rows: list[dict]) -> float | None:
    """The scenario's figure from the tidy rows of its measured step."""
    by_op = {r["operation"]: r for r in rows}
    if scenario.metric == "entries":
        return by_op.get("READSEQ", {}).get("entries_per_sec")
    if scenario.metric == "elapsed_ms":
        return by_op.get("OVERALL", {}).get("runtime_ms")
    return by_op.get("OVERALL", {}).get("throughput_ops_per_sec")


@dataclass
class Figure:
    engine: str
    scenario: str
    variant: str
    section: str
    metric: str
    unit: str
    value: float | None = None          # median over the repeats whose measured step worked
    repeats: int = 0
    values: list[float] = field(default_factory=list)
    mb_per_sec: float | None = None
    slowest_interval_ops_per_sec: float | None = None
    status: str = "not run"             # "ok", "failed" or "not run"
    error: str | None = None


@dataclass
class RunData:
    directory: Path
    suite: dict
    machine: dict
    cells: list[dict]
    tidy: pd.DataFrame
    figures: list[Figure]
    engine_versions: dict[str, str]

    def figure(self, engine: str, scenario: str, variant: str = "") -> Figure | None:
        for f in self.figures:
            if (f.engine, f.scenario, f.variant) == (engine, scenario, variant):
                return f
        return None

    def values(self) -> dict[tuple[str, str, str], float]:
        """(engine, scenario, variant) -> figure, for what worked."""
        return {(f.engine, f.scenario, f.variant): f.value for f in self.figures if f.value is not None}


def _read_json(path: Path) -> dict:
    return json.loads(path.read_text()) if path.is_file() else {}


def _read_text(path: Path) -> str:
    return path.read_text(errors="replace") if path.is_file() else ""


def load_cells(directory: Path) -> list[dict]:
    """Every cell.json under directory, in catalogue order."""
    cells = []
    for engine in ENGINES:
        for scenario in SCENARIOS:
            path = directory / engine / scenario.id / "cell.json"
            if path.is_file():
                cells.append(json.loads(path.read_text()))
    return cells


def step_rows(directory: Path, cell: dict, repeat: int, step: dict) -> list[dict]:
    stdout = _read_text(directory / step["stdout"])
    stderr = _read_text(directory / step["stderr"])
    json_text = _read_text(directory / step["json"]) or None
    try:
        output = parse_ycsb_output(stdout, json_text)
    except ValueError:
        output = parse_ycsb_output(stdout)
    context = {"engine": cell["engine"], "scenario": cell["scenario"], "variant": step["variant"],
               "repeat": repeat, "step": step["name"], "phase": step["phase"], "measured": step["measured"],
               "workloads": "+".join(step["workloads"]), "step_ok": not step["problems"]}
    return [{**context, **row} for row in output_rows(output, slowest_interval(parse_status_lines(stderr)))]


def load_run(directory: Path) -> RunData:
    directory = Path(directory)
    cells = load_cells(directory)
    rows: list[dict] = []
    versions: dict[str, str] = dict(_read_json(directory / "machine.json").get("engines", {}))
    for cell in cells:
        for repeat, steps in enumerate(cell["repeats"], start=1):
            for step in steps:
                rows += step_rows(directory, cell, repeat, step)
                if cell["engine"] not in versions:
                    version = parse_engine_banner(_read_text(directory / step["stderr"]), cell["engine"]).version
                    if version:
                        versions[cell["engine"]] = version
    tidy = pd.DataFrame(rows, columns=TIDY_COLUMNS)
    return RunData(directory, _read_json(directory / "suite.json"), _read_json(directory / "machine.json"),
                   cells, tidy, figures_of(cells, rows), versions)


def figures_of(cells: list[dict], rows: list[dict]) -> list[Figure]:
    """One Figure per (engine, scenario, variant) of every cell that was run (pure)."""
    figures = []
    for cell in cells:
        scenario = SCENARIOS_BY_ID.get(cell["scenario"])
        if scenario is None:
            continue
        for variant in scenario.variants:
            figure = Figure(cell["engine"], scenario.id, variant, scenario.section, scenario.metric, scenario.unit)
            mine = [r for r in rows if r["engine"] == cell["engine"] and r["scenario"] == scenario.id
                    and r["variant"] == variant and r["measured"] and r["step_ok"]]
            values, slowest = [], []
            for repeat in sorted({r["repeat"] for r in mine}):
                step_rows_ = [r for r in mine if r["repeat"] == repeat]
                value = figure_of(scenario, step_rows_)
                if value is not None:
                    values.append(value)
                overall = [r for r in step_rows_ if r["operation"] == "OVERALL"]
                if overall and overall[0].get("slowest_interval_ops_per_sec") is not None:
                    slowest.append(overall[0]["slowest_interval_ops_per_sec"])
            if values:
                figure.values = values
                figure.repeats = len(values)
                figure.value = statistics.median(values)
                figure.status = "ok"
                if scenario.bytes_per_operation:
                    figure.mb_per_sec = figure.value * scenario.bytes_per_operation / 1e6
                figure.slowest_interval_ops_per_sec = statistics.median(slowest) if slowest else None
            else:
                figure.status = "failed" if cell["status"] != "ok" else "not run"
                figure.error = cell.get("error")
            figures.append(figure)
    return figures


def figures_frame(figures: list[Figure]) -> pd.DataFrame:
    frame = pd.DataFrame([asdict(f) for f in figures])
    if not frame.empty:
        frame["values"] = frame["values"].map(lambda v: " ".join(f"{x:.6g}" for x in v))
    return frame
