"""A results directory as data: tidy rows (one per operation of every step run, tidy.py) and figures
(one per engine x scenario x variant: the median over repeats of the scenario's metric); several
directories as one run (merge.py says when they may be)."""

from __future__ import annotations

import json
import statistics
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..catalogue.model import ENGINES, Scenario
from ..catalogue.scale_group import SCALE_PREFIX
from ..catalogue.scenarios import SCENARIOS_BY_ID, catalogue, register_own
from ..catalogue.workloadfile import scenarios_of_results
from .costs import COST_COLUMNS
from .engine_lines import parse_engine_banner
from .merge import merge_problems, merged_suite, missing_parts
from .tidy import CLOSE_COLUMNS, TIDY_COLUMNS, read_text, step_rows

if TYPE_CHECKING:  # pandas loads when a run is loaded: the figures and the tables do without it
    import pandas as pd


def inside_of(scenario: Scenario, overall: dict) -> float | None:
    """The scenario's figure on db_bench's clock from its measured step's OVERALL row; None for an elapsed
    time (the published FastDB figures are whole runs) or a step without the timing layer."""
    if scenario.metric == "entries":
        return overall.get("inside_entries_per_sec")
    if scenario.metric in ("ops", "batch"):
        return overall.get("inside_ops_per_sec")
    return None


def figure_of(scenario: Scenario, rows: list[dict]) -> float | None:
    """The scenario's figure from the tidy rows of its measured step."""
    by_op = {r["operation"]: r for r in rows}
    if scenario.metric == "entries":
        return by_op.get("READSEQ", {}).get("entries_per_sec")
    if scenario.metric == "elapsed_ms":
        overall = by_op.get("OVERALL", {})
        nominal, rate = overall.get("nominal_operations"), overall.get("throughput_ops_per_sec")
        if nominal and rate:  # a timed step: the time its nominal count takes at the rate it held
            return 1000.0 * float(nominal) / float(rate)
        return overall.get("runtime_ms")
    return by_op.get("OVERALL", {}).get("throughput_ops_per_sec")


@dataclass
class CloseStats:
    """The engine's statistics at close of the measured step: the median over repeats of each."""

    stall_stops: float | None = None
    stall_slowdowns: float | None = None
    stall_seconds: float | None = None
    flush_bytes: float | None = None
    compaction_write_bytes: float | None = None
    files_per_level: list[int] = field(default_factory=list)
    l1_bytes: float | None = None
    l1_target_bytes: float | None = None
    l1_estimated: bool = False

    @property
    def l1_ratio(self) -> float | None:
        """L1's size over its target: above 1, L1 outgrew what compaction should hold it to."""
        if self.l1_bytes is None or not self.l1_target_bytes:
            return None
        return self.l1_bytes / self.l1_target_bytes


def _median(values: list) -> float | None:
    present = [v for v in values if v is not None and v == v]  # v == v: not NaN
    return statistics.median(present) if present else None


def close_stats_of(overall_rows: list[dict]) -> CloseStats | None:
    """Medians over the repeats' OVERALL rows; files per level level by level (median_low: a count
    that was seen). None when no repeat's engine printed statistics (pure)."""
    rows = [r for r in overall_rows if r.get("files_per_level")]
    if not rows:
        return None
    shapes = [[int(n) for n in str(r["files_per_level"]).split(",")] for r in rows]
    depth = max(len(s) for s in shapes)
    files = [statistics.median_low([s[i] if i < len(s) else 0 for s in shapes]) for i in range(depth)]
    numeric = {
        name: _median([r.get(name) for r in rows])
        for name in (
            "stall_stops",
            "stall_slowdowns",
            "stall_seconds",
            "flush_bytes",
            "compaction_write_bytes",
            "l1_bytes",
            "l1_target_bytes",
        )
    }
    return CloseStats(**numeric, files_per_level=files, l1_estimated=any(r.get("l1_estimated") for r in rows))


@dataclass
class Figure:
    engine: str
    scenario: str
    variant: str
    section: str
    metric: str
    unit: str
    value: float | None = None  # median over the repeats whose measured step worked
    repeats: int = 0
    values: list[float] = field(default_factory=list)
    mb_per_sec: float | None = None
    slowest_interval_ops_per_sec: float | None = None
    status: str = "not run"  # "ok", "failed" or "not run"
    error: str | None = None
    close: CloseStats | None = None  # the engine's statistics at close (LevelDB, RocksDB)
    costs: dict[str, float | None] = field(default_factory=dict)  # COST_COLUMNS: medians over repeats
    # The same figure on db_bench's clock, per repeat: after the open, before the close, each operation
    # timed in nanoseconds by the timing layer (inside_of); empty without it (a peer, an elapsed time).
    inside_values: list[float] = field(default_factory=list)

    @property
    def value_min(self) -> float | None:
        return min(self.values) if self.values else None

    @property
    def value_max(self) -> float | None:
        return max(self.values) if self.values else None

    @property
    def spread(self) -> float | None:
        """(max - min) / median over the repeats: the noise of this figure on this machine; None for one run."""
        if len(self.values) < 2 or not self.value:
            return None
        return (max(self.values) - min(self.values)) / self.value


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


def engines_in(directory: Path) -> list[str]:
    """The engines with cells under directory: ours first, then the peers (upstream bindings) by name."""
    found = {path.parent.parent.name for path in directory.glob("*/*/cell.json")}
    return [e for e in ENGINES if e in found] + sorted(found - set(ENGINES))


def catalogue_order(cell: dict) -> tuple[int, str, int]:
    """Ours in ENGINES' order, then peers by name; scenarios in catalogue order."""
    engine = cell["engine"]
    ours = ENGINES.index(engine) if engine in ENGINES else len(ENGINES)
    scenario = SCENARIOS_BY_ID.get(cell["scenario"])
    known = catalogue()
    return ours, engine if ours == len(ENGINES) else "", known.index(scenario) if scenario in known else len(known)


def load_cells(directory: Path) -> list[dict]:
    """Every cell.json under directory, in catalogue order; each knows its results directory."""
    cells = []
    for engine in engines_in(directory):
        # The scale group's cells are named by their data size, which the run chose: found on disk.
        scale = sorted(
            (p.name for p in (directory / engine).glob(f"{SCALE_PREFIX}*") if p.name[len(SCALE_PREFIX) :].isdigit()),
            key=lambda name: int(name[len(SCALE_PREFIX) :]),
        )
        for scenario_id in [s.id for s in catalogue()] + scale:
            path = directory / engine / scenario_id / "cell.json"
            if path.is_file():
                cell = json.loads(path.read_text())
                cell["results_dir"] = str(directory)
                cells.append(cell)
    return cells


def load_run(directory: Path) -> RunData:
    return load_runs([Path(directory)])


def load_runs(directories: list[Path], allow_mixed: bool = False, into: Path | None = None) -> RunData:
    """One or several results directories (the shards of one matrix, runs on several hosts) as one run.
    ValueError when two hold the same cell, or, unless allow_mixed, when their machines or counts differ.
    `into` is the directory the merged report goes to (default: the first)."""
    directories = [Path(d) for d in directories]
    runs = [(d, _read_json(d / "suite.json"), _read_json(d / "machine.json")) for d in directories]
    problems = merge_problems(runs) if len(runs) > 1 else []
    if problems and not allow_mixed:
        raise ValueError("; ".join(problems) + " (--allow-mixed merges them all the same)")
    cells: list[dict] = []
    seen: dict[tuple[str, str], str] = {}
    versions: dict[str, str] = {}
    for directory, suite, _machine in runs:  # the user's workload files (run --workload) join the catalogue
        register_own(scenarios_of_results(directory, suite))
    for directory, _suite, machine in runs:
        for engine, version in machine.get("engines", {}).items():
            versions.setdefault(engine, version)
        for cell in load_cells(directory):
            key = (cell["engine"], cell["scenario"])
            if key in seen:
                raise ValueError(f"cell {key[0]}/{key[1]} is in both {seen[key]} and {directory}: which one counts?")
            seen[key] = str(directory)
            cell.setdefault("host", machine.get("hostname", "unknown"))
            cells.append(cell)
    cells.sort(key=catalogue_order)  # a merged run reads like one run of the whole matrix
    rows: list[dict] = []
    for cell in cells:
        for repeat, steps in enumerate(cell["repeats"], start=1):
            for step in steps:
                rows += step_rows(Path(cell["results_dir"]), cell, repeat, step)
                if cell["engine"] not in versions:
                    stderr = read_text(Path(cell["results_dir"]) / step["stderr"])
                    version = parse_engine_banner(stderr, cell["engine"]).version
                    if version:
                        versions[cell["engine"]] = version
    import pandas as pd

    machine = dict(runs[0][2])
    if len(runs) > 1:
        machine["hostnames"] = sorted({m.get("hostname", "unknown") for _, _, m in runs})
        machine["merge_problems"] = problems
    tidy = pd.DataFrame(rows, columns=TIDY_COLUMNS)
    return RunData(
        into or directories[0],
        {**merged_suite(runs), "missing_parts": missing_parts([s for _, s, _ in runs])},
        machine,
        cells,
        tidy,
        figures_of(cells, rows),
        versions,
    )


def figures_of(cells: list[dict], rows: list[dict]) -> list[Figure]:
    """One Figure per (engine, scenario, variant) of every cell that was run (pure)."""
    figures = []
    for cell in cells:
        scenario = SCENARIOS_BY_ID.get(cell["scenario"])
        if scenario is None:  # the scale group's cells have their own section (report_scale.py)
            continue
        for variant in scenario.variants:
            figure = Figure(cell["engine"], scenario.id, variant, scenario.section, scenario.metric, scenario.unit)
            mine = [
                r
                for r in rows
                if r["engine"] == cell["engine"]
                and r["scenario"] == scenario.id
                and r["variant"] == variant
                and r["measured"]
                and r["step_ok"]
            ]
            values, slowest, overalls = [], [], []
            for repeat in sorted({r["repeat"] for r in mine}):
                step_rows_ = [r for r in mine if r["repeat"] == repeat]
                value = figure_of(scenario, step_rows_)
                if value is not None:
                    values.append(value)
                overall = [r for r in step_rows_ if r["operation"] == "OVERALL"]
                overalls += overall[:1]
                inside = inside_of(scenario, overall[0]) if overall and value is not None else None
                if inside is not None:
                    figure.inside_values.append(inside)
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
                figure.close = close_stats_of(overalls)
                figure.costs = {name: _median([r.get(name) for r in overalls]) for name in COST_COLUMNS}
            else:
                figure.status = cell["status"] if cell["status"] != "ok" else "not run"
                figure.error = cell.get("error")
            figures.append(figure)
    return figures


# The two clocks a figure is read on: db_bench's (after the open, before the close, the operations' own
# nanoseconds) and YCSB's (its throughput: the open, the close and the client's work between operations too).
OPERATIONS_CLOCK = "in operations"
YCSB_CLOCK = "YCSB"


def in_operations(figure: Figure) -> Figure | None:
    """The figure on db_bench's clock: the median of its repeats' in-operation figures, with their spread;
    None when it has none (pure)."""
    if not figure.inside_values or figure.value is None:
        return None
    inside = statistics.median(figure.inside_values)
    return replace(
        figure,
        value=inside,
        values=list(figure.inside_values),
        repeats=len(figure.inside_values),
        mb_per_sec=figure.mb_per_sec * inside / figure.value if figure.mb_per_sec and figure.value else None,
    )  # the slowest second stays: YCSB's status lines are the only clock of a stall


def like_for_like(
    figures: list[Figure], published: set[tuple[str, str]] | None = None
) -> tuple[list[Figure], set[tuple[str, str]]]:
    """The figures to compare engines by, and the tests (scenario, variant) left on YCSB's clock. A test
    that has a published figure (every test, when `published` is None) and in-operation figures is taken
    on db_bench's clock, and there a figure without one (a peer's, a cell of a run from before the timing
    layer) has no value rather than YCSB's: the two clocks never meet in one comparison, nor in one
    engine's ratio of two tests. The other tests stay on YCSB's clock (pure)."""
    timed = {(f.scenario, f.variant) for f in figures if f.value is not None and f.inside_values}
    tests = {(f.scenario, f.variant) for f in figures}
    on_ycsb = {t for t in tests if t not in timed or (published is not None and t not in published)}
    chosen = [
        f
        if (f.scenario, f.variant) in on_ycsb or f.value is None
        else in_operations(f) or replace(f, value=None, values=[], status="no in-operation figure")
        for f in figures
    ]
    return chosen, on_ycsb


def figure_record(figure: Figure) -> dict:
    """One figures.csv row: the statistics at close flattened into columns of their own."""
    record = asdict(figure)
    inside = in_operations(figure)
    record["value_in_operations"] = inside.value if inside else None  # db_bench's clock, beside YCSB's value
    record["inside_values"] = " ".join(f"{x:.6g}" for x in figure.inside_values)
    close = record.pop("close") or {}
    record["values"] = " ".join(f"{x:.6g}" for x in figure.values)
    record["value_min"], record["value_max"], record["spread"] = figure.value_min, figure.value_max, figure.spread
    costs = record.pop("costs") or {}
    for name in COST_COLUMNS:
        record[name] = costs.get(name)
    for name in CLOSE_COLUMNS:
        record[name] = close.get(name)
    if close:
        record["files_per_level"] = ",".join(str(n) for n in close["files_per_level"])
    return record


def figures_frame(figures: list[Figure]) -> pd.DataFrame:
    import pandas as pd

    return pd.DataFrame([figure_record(f) for f in figures])
