"""The scale group's figures, as data: one point per engine, data size and step (throughput, p99,
amplification, the memory budget's account, the machine's other load), and the sustained run's
second-by-second timeline from YCSB's own HdrHistogram interval logs (read with PyPI's
`hdrhistogram`, never a parser of ours). Modelling only: drawing is in report_scale.py.

YCSB 0.17 writes one log per operation and step, `<step stem>.<OPERATION>.hdr`, with one interval
histogram each time its status thread reports (`-s`, every second here); values are microseconds.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from hdrh.codec import HdrCookieException, HdrLengthException
from hdrh.histogram import HdrHistogram
from hdrh.log import HistogramLogReader

from ..catalogue.scale_group import SCALE_PREFIX
from .parse import parse_ycsb_output

# YCSB's HdrHistogram range (us): 1 us to an hour, 3 significant digits, as its OneMeasurementHdrHistogram.
HDR_LOWEST_US, HDR_HIGHEST_US, HDR_DIGITS = 1, 3_600_000_000, 3
NOT_MEASURED = ("CLEANUP",)  # the client's close: not one of the workload's operations
# A figure taken while other processes kept more than this share of a core busy is marked.
NOISY_CORES = 0.3
# A second slower than this share of the run's median throughput is a stall.
STALL_SHARE = 0.5
WIND_DOWN_SHARE = 0.01


@dataclass(frozen=True)
class Second:
    """One interval of the step: its end (s from the first interval's start) and all operations in it."""

    at: float
    seconds: float
    operations: int
    p50_us: float
    p99_us: float
    p999_us: float

    @property
    def ops_per_sec(self) -> float:
        return self.operations / self.seconds if self.seconds > 0 else 0.0


def hdr_logs(results: Path, stem: str) -> list[Path]:
    """The step's per-operation logs (not the close's)."""
    return sorted(p for p in results.glob(f"{stem}.*.hdr") if p.name.split(".")[-2] not in NOT_MEASURED)


def _new_histogram() -> HdrHistogram:
    return HdrHistogram(HDR_LOWEST_US, HDR_HIGHEST_US, HDR_DIGITS)


class UnreadableLog(ValueError):
    """A log the library cannot decode (HdrHistogram 2.1.4's V1 encoding, a file cut short)."""


def read_intervals(path: Path) -> list[HdrHistogram]:
    """Every interval histogram of one log, in order (start and end stamps in ms since the epoch)."""
    reader = HistogramLogReader(str(path), _new_histogram())
    intervals = []
    try:
        while (histogram := reader.get_next_interval_histogram()) is not None:
            intervals.append(histogram)
    except (HdrCookieException, HdrLengthException, ValueError, zlib.error) as e:
        raise UnreadableLog(f"{path}: not a readable HdrHistogram V2 log ({type(e).__name__})") from e
    return intervals


def timeline(logs: Iterable[Path]) -> list[Second]:
    """The step second by second: every operation's interval histograms that end in the same whole second
    since the step's first interval began, added together (the status thread closes each operation's
    interval a little apart, and YCSB closes a few short ones at the end)."""
    intervals = [h for log in logs for h in read_intervals(log)]
    if not intervals:
        return []
    first = min(h.get_start_time_stamp() for h in intervals)
    buckets: dict[int, list[HdrHistogram]] = {}
    for h in intervals:
        buckets.setdefault(max(round((h.get_end_time_stamp() - first) / 1000.0), 1), []).append(h)
    seconds = []
    for at in sorted(buckets):
        merged = _new_histogram()
        for h in buckets[at]:
            merged.add(h)
        start = min(h.get_start_time_stamp() for h in buckets[at])
        end = max(h.get_end_time_stamp() for h in buckets[at])
        seconds.append(
            Second(
                float(at),
                (end - start) / 1000.0,
                merged.get_total_count(),
                float(merged.get_value_at_percentile(50)),
                float(merged.get_value_at_percentile(99)),
                float(merged.get_value_at_percentile(99.9)),
            )
        )
    return seconds


def merged_histogram(logs: Iterable[Path]) -> HdrHistogram | None:
    """Every interval of these logs added into one histogram: the whole step, all their operations together; None
    when they hold no value."""
    merged = _new_histogram()
    for log in logs:
        for interval in read_intervals(log):
            merged.add(interval)
    return merged if merged.get_total_count() > 0 else None


def step_percentiles(logs: Iterable[Path]) -> dict[str, float] | None:
    """p50/p99/p99.9 (us) of every operation of the whole step, from its logs; None without logs."""
    merged = merged_histogram(logs)
    if merged is None:
        return None
    return {
        f"p{name}_us": float(merged.get_value_at_percentile(p)) for name, p in (("50", 50), ("99", 99), ("999", 99.9))
    }


def stalls(seconds: list[Second]) -> list[Second]:
    """Full seconds below STALL_SHARE of the median throughput, after the warm-up (the step starts cold:
    until a second first reaches the median, slow seconds are the cache filling, not stalls); the first
    and last, partial, seconds are left out (pure)."""
    full = seconds[1:-1]
    if not full:
        return []
    rates = sorted(s.ops_per_sec for s in full)
    median = rates[len(rates) // 2]
    # The last seconds under WIND_DOWN_SHARE of the median are the client stopping at its time (one
    # operation may straddle it) and the engine closing (Kyoto's close after a 60 s mix takes seconds).
    while full and full[-1].ops_per_sec < WIND_DOWN_SHARE * median:
        full.pop()
    if not full:
        return []
    warm = next(i for i, s in enumerate(full) if s.ops_per_sec >= median)
    return [s for s in full[warm:] if s.ops_per_sec < STALL_SHARE * median]


def warm_rate(seconds: list[Second]) -> float | None:
    """Operations a second over the second half of the step's full seconds (pure): every step starts with
    its data evicted, so its first seconds fill the caches (for data that fits the budget, most of a short
    step); the second half is the rate once they are warm. None for a step of fewer than 4 full seconds."""
    full = seconds[1:-1]
    if len(full) < 4:
        return None
    half = full[len(full) // 2 :]
    elapsed = sum(s.seconds for s in half)
    return sum(s.operations for s in half) / elapsed if elapsed > 0 else None


def is_scale_cell(cell: dict) -> bool:
    return str(cell.get("scenario", "")).startswith(SCALE_PREFIX)


def workload_and_threads(variant: str) -> tuple[str, int]:
    """'mix-8t' -> ('mix', 8); 'read-uniform' -> ('read-uniform', 1) (pure)."""
    name, _, last = variant.rpartition("-")
    if name and last.endswith("t") and last[:-1].isdigit():
        return name, int(last[:-1])
    return variant, 1


def user_bytes_read(counts: dict[str, int], resources: dict) -> float | None:
    """Bytes of user data the step's reads returned: a record per read, the mean scan length per scan."""
    record = resources.get("insert_bytes")
    if not record:
        return None
    scanned = counts.get("SCAN", 0) * float(resources.get("scan_records", 0) or 0)
    total = (counts.get("READ", 0) + scanned) * record
    return total or None


def _ratio(a: float | None, b: float | None) -> float | None:
    return a / b if a is not None and b else None


def point_of(results: Path, cell: dict, repeat: int, step: dict) -> dict:
    """One step of a scale cell as a row of the At-scale figures."""
    stem = Path(step["stdout"]).name.rsplit(".", 1)[0]
    directory = results / Path(step["stdout"]).parent
    output = parse_ycsb_output((results / step["stdout"]).read_text(errors="replace"))
    counts = {op: s.count or 0 for op, s in output.operations.items() if op not in NOT_MEASURED}
    not_found = sum(s.not_found for op, s in output.operations.items() if op not in NOT_MEASURED)
    resources = step.get("resources") or {}
    logs = hdr_logs(directory, stem)
    unreadable = False
    try:
        percentiles = step_percentiles(logs) or {}
        warm = warm_rate(timeline(logs)) if step["phase"] == "run" else None
    except UnreadableLog:
        percentiles, logs, unreadable, warm = {}, [], True, None
    workload, threads = workload_and_threads(step["variant"])
    done = sum(counts.values())
    record_bytes = resources.get("insert_bytes")
    loaded = counts.get("INSERT", 0) if step["phase"] == "load" else None
    other = resources.get("other_cpu_cores")
    return {
        "engine": cell["engine"],
        "scenario": cell["scenario"],
        "records": step["recordcount"],
        "repeat": repeat,
        "variant": step["variant"],
        "workload": "sustained" if step["variant"] == "sustained" else workload,
        "threads": resources.get("threads", threads),
        "ok": not step["problems"],
        "problems": "; ".join(step["problems"]),
        "seconds": step.get("seconds"),
        "runtime_s": output.runtime_ms / 1000.0 if output.runtime_ms else None,
        "operations": done,
        "loaded": loaded,
        "not_found": not_found,
        "ops_per_sec": output.throughput,
        "warm_ops_per_sec": warm,
        # The figure the charts compare: a run step's warm rate where its log has one, else YCSB's own.
        "rate": warm if warm is not None else output.throughput,
        **percentiles,
        "data_bytes": step["recordcount"] * record_bytes if record_bytes else None,
        "db_bytes": resources.get("allocated_bytes"),
        "space_amplification": _ratio(
            resources.get("allocated_bytes"), (loaded or step["recordcount"]) * record_bytes if record_bytes else None
        ),
        "write_amplification": _ratio(
            resources.get("written_bytes"),
            (counts.get("INSERT", 0) * (record_bytes or 0) + counts.get("UPDATE", 0) * resources.get("update_bytes", 0))
            or None,
        ),
        "read_bytes": resources.get("io_read_bytes"),
        "read_amplification": _ratio(resources.get("io_read_bytes"), user_bytes_read(counts, resources)),
        "budget_bytes": resources.get("budget_bytes"),
        "cgroup_peak_bytes": resources.get("cgroup_peak_bytes"),
        "cgroup_cache_bytes": resources.get("cgroup_cache_bytes"),
        "peak_rss_bytes": resources.get("peak_rss_bytes"),
        "cpu_seconds_per_1000_ops": _ratio(
            (resources.get("user_seconds") or 0) + (resources.get("system_seconds") or 0) if resources else None,
            done / 1000 if done else None,
        ),
        "other_cpu_cores": other,
        "noisy": other is not None and other > NOISY_CORES,
        "hdr_logs": [str(p) for p in logs],  # absolute: a merged report reads several results directories
        "hdr_unreadable": unreadable,
    }


def scale_points(cells: list[dict], results: Path) -> list[dict]:
    """Every measured step of every scale cell, in cell order (cells from results.load_cells)."""
    points = []
    for cell in cells:
        if not is_scale_cell(cell):
            continue
        base = Path(cell.get("results_dir", results))
        for repeat, steps in enumerate(cell.get("repeats", []), start=1):
            for step in steps:
                if step.get("exit_code") is None and not (base / step["stdout"]).is_file():
                    continue
                points.append(point_of(base, cell, repeat, step))
    return points
