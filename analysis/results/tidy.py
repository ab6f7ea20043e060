"""One step's raw outputs as tidy rows: a row per operation of the step (OVERALL first, READSEQ last), the
OVERALL row carrying the engine's statistics at close, the workload's summary line and the step's costs.

Everything but `step_rows` is a pure function; `step_rows` reads the step's files named in cell.json.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..catalogue.keydraws import distinct_keys
from ..catalogue.scenarios import SCENARIOS_BY_ID
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
    """From a table of levels' sizes (LevelDB's): L1's size against LevelDB's fixed 10 MB. From files per
    level alone (RocksDB's stats line): L1's files x <engine>.targetfilesize against
    <engine>.maxbytesforlevelbase (pure)."""
    if len(stats.files_per_level) < 2:
        return None
    if len(stats.level_bytes) >= 2:
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


def read_text(path: Path) -> str:
    return path.read_text(errors="replace") if path.is_file() else ""


def step_rows(directory: Path, cell: dict, repeat: int, step: dict) -> list[dict]:
    directory = Path(cell.get("results_dir", directory))
    stdout = read_text(directory / step["stdout"])
    stderr = read_text(directory / step["stderr"])
    json_text = read_text(directory / step["json"]) or None
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
    times = parse_operation_times(read_text(directory / step["timing"])) if step.get("timing") else None
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
