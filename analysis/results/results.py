"""A results directory as data: tidy rows (one per operation of every step run) and figures
(one per engine x scenario x variant: the median over repeats of the scenario's metric)."""

from __future__ import annotations

import json
import statistics
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from ..catalogue.keydraws import distinct_keys
from ..catalogue.scenarios import ENGINES, SCALE_PREFIX, SCENARIOS_BY_ID, Scenario, binding_of, catalogue, register_own
from ..catalogue.workloadfile import scenarios_of_results
from .costs import COST_COLUMNS, cost_columns
from .engine_lines import EngineStats, parse_engine_banner, parse_engine_stats, parse_size
from .parse import (
    OperationTimes,
    YcsbOutput,
    parse_operation_times,
    parse_status_lines,
    parse_ycsb_output,
    slowest_interval,
)
from .workload_lines import trace_skipped_lines, workload_summary_line

if TYPE_CHECKING:  # pandas loads when a run is loaded: the figures and the tables do without it
    import pandas as pd

# The engine's statistics at close, on the OVERALL row of a step (empty for engines that print none).
CLOSE_COLUMNS = [
    "stall_stops",
    "stall_slowdowns",
    "stall_seconds",
    "flush_bytes",
    "compaction_write_bytes",
    "files_per_level",
    "l1_bytes",
    "l1_target_bytes",
    "l1_estimated",
]
TIDY_COLUMNS = [
    "engine",
    "scenario",
    "variant",
    "repeat",
    "step",
    "phase",
    "measured",
    "workloads",
    "operation",
    "count",
    "throughput_ops_per_sec",
    "entries",
    "entries_per_sec",
    "avg_latency_us",
    "p95_latency_us",
    "p99_latency_us",
    "ok",
    "not_found",
    "errors",
    "runtime_ms",
    "nominal_operations",  # a timed quick step: the count its elapsed time is given for (figure_of)
    "slowest_interval_ops_per_sec",
    "step_ok",
    "workload_line",  # the step's [TRACE] or [MIXGRAPH] line (workload_lines.parse_trace_line, parse_mixgraph_line)
    "trace_skipped",  # the malformed lines a trace replay named, "NUMBER: text" a line (trace_skipped_lines)
    *CLOSE_COLUMNS,
    *COST_COLUMNS,
]

LEVELDB_L1_TARGET_BYTES = 10 * 2**20  # LevelDB's fixed level-1 size (MaxBytesForLevel, db/version_set.cc)


def output_rows(output: YcsbOutput, slowest: float | None) -> list[dict]:
    """Tidy rows of one step's output: OVERALL, each operation, and READSEQ (pure)."""
    runtime_s = output.runtime_ms / 1000.0 if output.runtime_ms else None
    rows = [
        {
            "operation": "OVERALL",
            "count": output.operations_done,
            "throughput_ops_per_sec": output.throughput,
            "entries": output.operations_done,
            "entries_per_sec": output.throughput,
            "ok": sum(s.ok for s in output.operations.values()),
            "not_found": sum(s.not_found for s in output.operations.values()),
            "errors": sum(s.errors for s in output.operations.values()),
            "runtime_ms": output.runtime_ms,
            "slowest_interval_ops_per_sec": slowest,
        }
    ]
    for stats in output.operations.values():
        per_sec = stats.count / runtime_s if stats.count is not None and runtime_s else None
        rows.append(
            {
                "operation": stats.operation,
                "count": stats.count,
                "throughput_ops_per_sec": per_sec,
                # A batched insert is still one entry; YCSB counts it when it is queued.
                "entries": stats.count if stats.operation == "INSERT" else None,
                "entries_per_sec": per_sec if stats.operation == "INSERT" else None,
                "avg_latency_us": stats.avg_us,
                "p95_latency_us": stats.p95_us,
                "p99_latency_us": stats.p99_us,
                "ok": stats.ok,
                "not_found": stats.not_found,
                "errors": stats.errors,
                "runtime_ms": output.runtime_ms,
            }
        )
    if output.readseq:
        rows.append(
            {
                "operation": "READSEQ",
                "count": output.readseq.passes,
                "entries": output.readseq.entries,
                "entries_per_sec": output.readseq.entries_per_sec,
                "runtime_ms": output.runtime_ms,
            }
        )
    return rows


@dataclass(frozen=True)
class LevelOne:
    """Level 1 at close beside the size the engine compacts it down to."""

    bytes: int
    target_bytes: int | None  # None: no fixed target (RocksDB's dynamic level sizes)
    estimated: bool  # files x target file size: RocksDB's stats line gives no sizes


def level_one(engine: str, stats: EngineStats, configuration: dict[str, str]) -> LevelOne | None:
    """LevelDB: L1's size from leveldb.stats against its fixed 10 MB. RocksDB: L1's files x
    rocksdb.targetfilesize against rocksdb.maxbytesforlevelbase (pure)."""
    if len(stats.files_per_level) < 2:
        return None
    if binding_of(engine) == "leveldb" and len(stats.level_bytes) >= 2:
        return LevelOne(stats.level_bytes[1], LEVELDB_L1_TARGET_BYTES, estimated=False)
    file_size = parse_size(configuration.get(f"{engine}.targetfilesize"))
    if file_size is None:
        return None
    dynamic = configuration.get(f"{engine}.dynamiclevelbytes", "false").lower() == "true"
    target = None if dynamic else parse_size(configuration.get(f"{engine}.maxbytesforlevelbase"))
    return LevelOne(stats.files_per_level[1] * file_size, target, estimated=True)


def close_columns(engine: str, stderr: str) -> dict:
    """The CLOSE_COLUMNS of one step from its stderr; {} when the engine printed no statistics (pure)."""
    stats = parse_engine_stats(stderr, engine)
    if stats is None:
        return {}
    l1 = level_one(engine, stats, parse_engine_banner(stderr, engine).configuration)
    return {
        "stall_stops": stats.stall_stops,
        "stall_slowdowns": stats.stall_slowdowns,
        "stall_seconds": stats.stall_seconds,
        "flush_bytes": stats.flush_bytes,
        "compaction_write_bytes": stats.compaction_write_bytes,
        "files_per_level": ",".join(str(n) for n in stats.files_per_level),
        "l1_bytes": l1.bytes if l1 else None,
        "l1_target_bytes": l1.target_bytes if l1 else None,
        "l1_estimated": l1.estimated if l1 else None,
    }


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


def _read_text(path: Path) -> str:
    return path.read_text(errors="replace") if path.is_file() else ""


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


def step_rows(directory: Path, cell: dict, repeat: int, step: dict) -> list[dict]:
    directory = Path(cell.get("results_dir", directory))
    stdout = _read_text(directory / step["stdout"])
    stderr = _read_text(directory / step["stderr"])
    json_text = _read_text(directory / step["json"]) or None
    try:
        output = parse_ycsb_output(stdout, json_text)
    except ValueError:
        output = parse_ycsb_output(stdout)
    context = {
        "engine": cell["engine"],
        "scenario": cell["scenario"],
        "variant": step["variant"],
        "repeat": repeat,
        "step": step["name"],
        "phase": step["phase"],
        "measured": step["measured"],
        "workloads": "+".join(step["workloads"]),
        "step_ok": not step["problems"],
    }
    rows = [{**context, **row} for row in output_rows(output, slowest_interval(parse_status_lines(stderr)))]
    rows[0].update(close_columns(cell["engine"], stderr))  # the OVERALL row
    rows[0]["nominal_operations"] = step.get("nominal_operations")
    rows[0]["workload_line"] = workload_summary_line(stderr)
    rows[0]["trace_skipped"] = trace_skipped_lines(stderr)
    scenario = SCENARIOS_BY_ID.get(cell["scenario"])
    times = parse_operation_times(_read_text(directory / step["timing"])) if step.get("timing") else None
    rows[0].update(step_costs(step, output, scenario is not None and scenario.keys_drawn, times))
    return rows


def inside_columns(output: YcsbOutput, times: OperationTimes | None) -> dict:
    """The step's figures on db_bench's clock, from the timing layer's file: YCSB's operations (a
    READ-MODIFY-WRITE is one, its read and update both timed) and a full pass's entries per second of the
    time inside operations, and the open and close that clock leaves out (pure)."""
    if times is None:
        return {}
    done = output.operations_done
    return {
        "inside_ops_per_sec": times.per_sec(done if done else None),
        "inside_entries_per_sec": times.per_sec(output.readseq.entries) if output.readseq else None,
        "open_seconds": times.open_ns / 1e9,
        "close_seconds": times.close_ns / 1e9,
    }


def step_costs(step: dict, output: YcsbOutput, keys_drawn: bool = False, times: OperationTimes | None = None) -> dict:
    """The COST_COLUMNS of a step's OVERALL row: its resources in cell.json, its operations and the timing
    layer's file (pure). keys_drawn: the cell's fill drew its keys with replacement, so it stored only the
    distinct ones."""
    resources = step.get("resources") or {}
    counts = {op: s.count for op, s in output.operations.items() if s.count is not None}
    return {
        **inside_columns(output, times),
        # A full-scan pass is one YCSB operation: CPU per 1,000 entries read compares with the point reads.
        **cost_columns(
            resources,
            step["phase"],
            step["recordcount"],
            counts,
            output.readseq.entries if output.readseq else output.operations_done,
            _distinct_loaded(step, counts) if keys_drawn else None,
        ),
    }


def _distinct_loaded(step: dict, counts: Mapping[str, int]) -> int:
    """The distinct keys a drawn fill left: its recordcount's draws, or a timed load's inserts (it stopped early)."""
    timed = step["phase"] == "load" and step.get("nominal_operations") is not None
    return distinct_keys(step["recordcount"], inserts=counts.get("INSERT", 0) if timed else None)


def load_run(directory: Path) -> RunData:
    return load_runs([Path(directory)])


# What must agree for runs to be merged into one report: the machine they measured (not its name:
# shards on identical hosts are the point) and the counts they ran with.
MACHINE_KEYS = ("cpu", "cores", "memory_bytes", "os", "kernel", "filesystem", "disk", "jdk")
COUNT_KEYS = ("mode", "repeat", "cap", "exporter", "memory_bytes")  # memory_bytes: --memory, the budget


def _described(value: object) -> str:
    return "none" if value is None else str(value)


def count_problems(first: object, suite0: dict, other: object, suite: dict) -> list[str]:
    """Why two runs' figures are not like for like: the counts they ran with differ (mode, repeat, cap,
    exporter, memory budget). The one rule that `report` (merging) and `compare` (pairing) both follow (pure)."""
    return [
        f"counts differ: {key} is {_described(suite0.get(key))} in {first} but {_described(suite.get(key))} in {other}"
        for key in COUNT_KEYS
        if suite.get(key) != suite0.get(key)
    ]


def merge_problems(runs: list[tuple[Path, dict, dict]]) -> list[str]:
    """Why (directory, suite, machine) runs should not be one report: machines or counts that differ,
    peers given other properties (pure)."""
    problems = []
    (first, suite0, machine0), rest = runs[0], runs[1:]
    for directory, suite, machine in rest:
        for key in MACHINE_KEYS:
            if machine.get(key) != machine0.get(key):
                problems.append(
                    f"machines differ: {key} is {_described(machine0.get(key))} in {first} "
                    f"but {_described(machine.get(key))} in {directory}"
                )
        problems += count_problems(first, suite0, directory, suite)
        peers0 = {p["engine"]: p.get("properties") for p in suite0.get("peers") or []}
        for peer in suite.get("peers") or []:
            if peer["engine"] in peers0 and peers0[peer["engine"]] != peer.get("properties"):
                problems.append(
                    f"peer {peer['engine']} ran with {peer.get('properties')} in {directory} "
                    f"but {peers0[peer['engine']]} in {first}"
                )
    return problems


def missing_parts(suites: list[dict]) -> list[str]:
    """The parts of a sharded matrix (`run --shard I/N`) that none of these runs holds, as 'part 2/3' (pure)."""
    shards = {(s["shard"][0], s["shard"][1]) for s in suites if s.get("shard")}
    return [
        f"part {i}/{count}"
        for count in sorted({n for _, n in shards})
        for i in range(1, count + 1)
        if (i, count) not in shards
    ]


def merged_suite(runs: list[tuple[Path, dict, dict]]) -> dict:
    """One suite.json for several runs: the first's settings, every run's cells, engines and peers, and
    where each part came from."""
    suite = dict(runs[0][1])
    if len(runs) == 1:
        return suite
    suite["cells"] = [c for _, s, _ in runs for c in s.get("cells", [])]
    suite["engines"] = list(dict.fromkeys(e for _, s, _ in runs for e in s.get("engines", [])))
    peers: dict[str, dict] = {}
    for _, s, _ in runs:
        for peer in s.get("peers") or []:
            peers.setdefault(peer["engine"], peer)
    suite["peers"] = list(peers.values())
    suite["merged_from"] = [
        {
            "directory": str(d),
            "host": m.get("hostname"),
            "shard": s.get("shard"),
            "command": s.get("command"),
            "started": s.get("started"),
            "revision": s.get("revision"),
        }
        for d, s, m in runs
    ]
    suite["started"] = min((s.get("started") or "?") for _, s, _ in runs)
    return suite


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
                    stderr = _read_text(Path(cell["results_dir"]) / step["stderr"])
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
