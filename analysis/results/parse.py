"""Parse what one `bin/ycsb` call leaves behind of YCSB's own: its text output, its JSON exporter file,
the timing layer's file and the `-s` status lines; and judge from them whether the step did what it was
asked (its problems, the error lines on its output). The binding's lines on stderr are engine_lines.py's,
a workload class's summary lines workload_lines.py's.

Everything here is a pure function of text; reading files is the caller's business.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field, replace

from .workload_lines import TRACE_PREFIX, last_line, parse_trace_line

# Metrics that are not operations: totals, the JVM's GC, and YCSB's closing of the DB.
NON_OPERATIONS = ("OVERALL", "CLEANUP", "READSEQ")
OK_RETURN_CODES = frozenset({"OK", "BATCHED_OK"})


@dataclass(frozen=True)
class Measurement:
    """One `[METRIC], measurement, value` line (or JSON exporter object)."""

    metric: str
    measurement: str
    value: float


@dataclass
class OperationStats:
    operation: str
    count: int | None = None
    avg_us: float | None = None
    min_us: float | None = None
    max_us: float | None = None
    p95_us: float | None = None
    p99_us: float | None = None
    returns: dict[str, int] = field(default_factory=dict)

    @property
    def ok(self) -> int:
        return sum(n for code, n in self.returns.items() if code in OK_RETURN_CODES)

    @property
    def not_found(self) -> int:
        return self.returns.get("NOT_FOUND", 0)

    @property
    def errors(self) -> int:
        """Every return that is neither a success nor a miss."""
        return sum(n for code, n in self.returns.items() if code not in OK_RETURN_CODES | {"NOT_FOUND"})


@dataclass
class ReadSeq:
    """The project workload's full-scan figures (db_bench readseq)."""

    passes: int
    entries: int
    entries_per_sec: float


@dataclass
class YcsbOutput:
    runtime_ms: float | None = None
    throughput: float | None = None
    operations: dict[str, OperationStats] = field(default_factory=dict)
    # YCSB measures an operation that did not return OK apart, as "[READ-FAILED]": a read's NOT_FOUND
    # after a fill that drew its keys lands there. Their counts are also in the operation's Return=.
    failed: dict[str, OperationStats] = field(default_factory=dict)
    readseq: ReadSeq | None = None
    cleanup_ms: float | None = None
    gc_ms: float | None = None

    @property
    def operations_done(self) -> int | None:
        """Operations YCSB completed (its throughput is operations / run time)."""
        if self.runtime_ms is None or self.throughput is None:
            return None
        if math.isnan(self.throughput):  # YCSB's 0 operations / 0 ms (a client that never ran)
            return 0
        if math.isinf(self.throughput):
            return None
        return round(self.throughput * self.runtime_ms / 1000.0)


_MEASUREMENT_LINE = re.compile(r"^\[([^\]]+)\],\s*([^,]+?),\s*(-?[0-9.eE+-]+|NaN|Infinity)\s*$")


def parse_measurement_lines(text: str) -> list[Measurement]:
    """The `[METRIC], measurement, value` lines of YCSB's text output (other lines are ignored)."""
    found = []
    for line in text.splitlines():
        m = _MEASUREMENT_LINE.match(line.strip())
        if m:
            found.append(Measurement(m.group(1), m.group(2).strip(), float(m.group(3))))
    return found


def parse_json_export(text: str) -> list[Measurement]:
    """The JSONArrayMeasurementsExporter's file: a list of {metric, measurement, value}."""
    if not text.strip():
        return []
    return [Measurement(str(o["metric"]), str(o["measurement"]), float(o["value"])) for o in json.loads(text)]


def _percentile_key(measurement: str) -> str | None:
    m = re.match(r"(\d+)(?:th|st|nd|rd)PercentileLatency\(us\)", measurement)
    return f"p{m.group(1)}_us" if m else None


def measurements_to_output(measurements: list[Measurement]) -> YcsbOutput:
    """Folds measurements into one YcsbOutput; a later duplicate wins."""
    out = YcsbOutput()
    readseq: dict[str, float] = {}
    for m in measurements:
        if m.metric == "OVERALL":
            if m.measurement == "RunTime(ms)":
                out.runtime_ms = m.value
            elif m.measurement == "Throughput(ops/sec)":
                out.throughput = m.value
        elif m.metric == "READSEQ":
            readseq[m.measurement] = m.value
        elif m.metric == "TOTAL_GC_TIME" and m.measurement == "Time(ms)":
            out.gc_ms = m.value
        elif m.metric.startswith("TOTAL_GC"):
            continue
        elif m.metric == "CLEANUP":
            if m.measurement == "AverageLatency(us)":
                out.cleanup_ms = m.value / 1000.0
        elif m.metric.endswith("-FAILED"):
            _apply(out.failed.setdefault(m.metric, OperationStats(m.metric)), m)
        else:
            _apply(out.operations.setdefault(m.metric, OperationStats(m.metric)), m)
    if "Entries" in readseq:
        out.readseq = ReadSeq(int(readseq.get("Passes", 0)), int(readseq["Entries"]), readseq.get("Entries/sec", 0.0))
    return out


def _apply(stats: OperationStats, m: Measurement) -> None:
    if m.measurement == "Operations":
        stats.count = int(m.value)
    elif m.measurement == "AverageLatency(us)":
        stats.avg_us = m.value
    elif m.measurement == "MinLatency(us)":
        stats.min_us = m.value
    elif m.measurement == "MaxLatency(us)":
        stats.max_us = m.value
    elif m.measurement.startswith("Return="):
        stats.returns[m.measurement[len("Return=") :]] = int(m.value)
    else:
        key = _percentile_key(m.measurement)
        if key in ("p95_us", "p99_us"):
            setattr(stats, key, m.value)


def parse_ycsb_output(stdout: str, json_export: str | None = None) -> YcsbOutput:
    """YCSB's results from its stdout and, when an exporter wrote one, its JSON file.

    With the JSON exporter, stdout keeps only what the workload prints itself ([READSEQ]);
    both sources are read, the JSON file winning where they overlap.
    """
    measurements = parse_measurement_lines(stdout)
    if json_export:
        measurements += parse_json_export(json_export)
    return measurements_to_output(measurements)


# --- the timing layer's file (harness/.../NanoTimedDB.java, `-p nanotimed.file=...`) ----------


@dataclass(frozen=True)
class OperationTimes:
    """The operations of a step inside the binding, on db_bench's clock: after the open, before the close,
    each call timed in nanoseconds and summed over the client threads."""

    instances: int  # DB instances: YCSB makes one per client thread
    open_ns: int  # the first thread's init() to the last one's return
    close_ns: int  # the first thread's cleanup() to the last one's return
    window_ns: int  # summed over the threads: after the open to before the close
    operations: dict[str, tuple[int, int]]  # READ, INSERT, ... -> (count, summed ns)

    @property
    def count(self) -> int:
        return sum(c for c, _ in self.operations.values())

    @property
    def busy_ns(self) -> int:
        return sum(ns for _, ns in self.operations.values())

    def per_sec(self, entries: int | None = None) -> float | None:
        """`entries` (default: the operations) per second of the time inside operations, shared out over
        the client threads as YCSB's throughput is."""
        done = self.count if entries is None else entries
        if done <= 0 or self.busy_ns <= 0:
            return None
        return done / (self.busy_ns / 1e9 / max(self.instances, 1))


def parse_operation_times(text: str) -> OperationTimes | None:
    """The timing layer's JSON file; None when there is none or it is cut short (a killed JVM)."""
    if not text.strip():
        return None
    try:
        data = json.loads(text)
        return OperationTimes(
            int(data["instances"]),
            int(data["open_ns"]),
            int(data["close_ns"]),
            int(data["window_ns"]),
            {op: (int(v["count"]), int(v["ns"])) for op, v in data["operations"].items()},
        )
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


# --- `-s` status lines --------------------------------------------------------------------


@dataclass(frozen=True)
class StatusLine:
    seconds: float
    operations: int
    current_ops_per_sec: float | None
    per_operation: dict[str, dict[str, float]]


_STATUS_LINE = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d+ (\d+) sec: (\d+) operations;(?: ([0-9.]+) current ops/sec;)?(.*)$"
)
_STATUS_OPERATION = re.compile(r"\[([A-Z0-9_-]+): ([^\]]*)\]")


def parse_status_lines(stderr: str) -> list[StatusLine]:
    """YCSB's periodic `-s` lines: elapsed seconds, operations so far, current ops/sec, per-op stats."""
    lines = []
    for line in stderr.splitlines():
        m = _STATUS_LINE.match(line.strip())
        if not m:
            continue
        per_op = {}
        for op, body in _STATUS_OPERATION.findall(m.group(4)):
            stats = {}
            for part in body.split(","):
                name, _, value = part.strip().partition("=")
                try:
                    stats[name] = float(value)
                except ValueError:
                    pass
            per_op[op] = stats
        current = float(m.group(3)) if m.group(3) else None
        lines.append(StatusLine(float(m.group(1)), int(m.group(2)), current, per_op))
    return lines


def slowest_interval(status: list[StatusLine]) -> float | None:
    """The lowest ops/sec of a full status interval: a stall shows here, not in the average.

    The first line (before any work) and the last (a partial interval) are left out.
    """
    full = [s.current_ops_per_sec for s in status[1:-1] if s.current_ops_per_sec is not None]
    return min(full) if full else None


# --- failures --------------------------------------------------------------------------------

_ERROR_LINE = re.compile(
    r"(Exception|Error\b|^Unable to |No such file|not allowed|failed:|cannot |is not built|unknown engine)"
)


# A binding's advice at start-up ("[name] NOTE: ..." under its own prefix: what a tool of the engine's cannot do),
# not a failure.
_NOTE_LINE = re.compile(r"^\[[a-z0-9]+\] NOTE: ")


# The launcher's warm-up line (harness/.../Warmup.java): what it ran before YCSB's clock, and the CPU and bytes it
# took, which are in the JVM's totals that the step's costs are measured from.
_WARMUP_COSTS = re.compile(
    r"^\[ycsb-embedded\] warm-up: .*; it used ([0-9.]+) s of CPU and wrote ([0-9]+) bytes", re.MULTILINE
)


def parse_warmup_costs(stderr: str) -> dict[str, float | int]:
    """`warmup_cpu_seconds` and `warmup_written_bytes` from the launcher's warm-up line; empty without one."""
    m = _WARMUP_COSTS.search(stderr)
    return {"warmup_cpu_seconds": float(m.group(1)), "warmup_written_bytes": int(m.group(2))} if m else {}


def find_error_lines(stdout: str, stderr: str) -> list[str]:
    """Lines that say something went wrong: Java exceptions (not their stack frames), YCSB's own
    complaints (a missing workload file), the binding's failed operations, the launcher's errors."""
    found = []
    for line in (stdout + "\n" + stderr).splitlines():
        text = line.strip()
        if (
            not text
            or text.startswith("at ")
            or text.startswith("...")
            or text.startswith("Caused by: java.lang.Thread")
        ):
            continue
        if text.startswith("DBWrapper: report latency") or _NOTE_LINE.match(text):
            continue
        if _ERROR_LINE.search(text) and text not in found:  # YCSB prints some exceptions twice
            found.append(text)
    return found


@dataclass(frozen=True)
class Expectation:
    """What a successful step does."""

    operations: int  # YCSB operations it must complete
    allowed_returns: frozenset[str] = OK_RETURN_CODES
    readseq_entries: int | None = None  # entries a full-scan run must see in all passes
    found_share: float | None = None  # share of uniform reads that find their key (a fill that drew its keys)
    timed: bool = False  # a timed step (maxexecutiontime) may stop before `operations`, never go past them
    traced: bool = False  # a trace replay: it ends with its trace, its [TRACE] line says where (traced_expectation)


def _found_share_problems(output: YcsbOutput, share: float) -> list[str]:
    """Uniform reads over a fill that left `share` of the keys: the found count is binomial, so one
    more than 6 standard deviations off (a chance below 1e-8) means lost records or wrong keys."""
    read = output.operations.get("READ")
    if read is None:
        return []
    reads = read.ok + read.not_found
    spread = 6 * math.sqrt(reads * share * (1 - share)) + 1
    if abs(read.ok - reads * share) > spread:
        expected = f"expected about {reads * share:.0f} ({share:.1%} of the keys loaded)"
        return [f"READ: {read.ok} of {reads} found, {expected}"]
    return []


# Exit statuses the bindings give YCSB's own client (common's ClientExitStatus), which exits 0 itself.
EXIT_MEANINGS = {3: "the binding refused to open or the workload to start", 4: "operations returned ERROR"}


def step_problems(output: YcsbOutput, exit_code: int, error_lines: list[str], expected: Expectation) -> list[str]:
    """Why a step failed, or [] when it did what it was asked. YCSB 0.17 itself exits 0 when a DB
    fails to initialise or a workload file is missing; the bindings turn both into exit 3 under bin/ycsb
    (a peer's upstream client still exits 0 for a missing file) and failed operations into exit 4."""
    problems = []
    if exit_code != 0:
        meaning = EXIT_MEANINGS.get(exit_code)
        problems.append(f"exit code {exit_code}" + (f" ({meaning})" if meaning else ""))
    problems += error_lines[:3]
    if output.runtime_ms is None:
        problems.append("no YCSB results in the output")
        return problems
    done = output.operations_done
    if expected.timed:
        if done is not None and (done == 0 or done > expected.operations):
            problems.append(f"{done} operations done in a timed step of at most {expected.operations}")
    elif done is not None and abs(done - expected.operations) > max(1, expected.operations // 1000):
        problems.append(f"{done} of {expected.operations} operations done")
    for stats in output.operations.values():
        for code, n in sorted(stats.returns.items()):
            if code not in expected.allowed_returns and n > 0:
                problems.append(f"{stats.operation}: {n} {code}")
    if expected.found_share is not None:
        problems += _found_share_problems(output, expected.found_share)
    if expected.readseq_entries is not None:
        seen = output.readseq.entries if output.readseq else 0
        want = expected.readseq_entries
        if expected.timed and output.readseq:  # as many passes as it had time for, each over every entry
            want = expected.readseq_entries // max(1, expected.operations) * output.readseq.passes
        if seen != want:
            problems.append(f"full scans saw {seen} entries, expected {want}")
    return problems


def traced_expectation(expected: Expectation, phase: str, stderr: str) -> tuple[Expectation, list[str]]:
    """A trace replay's step ends where the trace does: it must have done what its `[TRACE]` line says it did (the
    load: the keys it inserted; the run: the lines it read), never more than the step's count; and the problems."""
    summary = parse_trace_line(last_line(stderr, TRACE_PREFIX) or "")
    if summary is None:
        return expected, ["no [TRACE] line on stderr: the trace replay did not say what it read"]
    done = summary.loaded if phase == "load" else summary.lines
    problems = []
    if done > expected.operations:
        problems.append(f"the trace replay did {done} operations, more than the step's {expected.operations}")
    return replace(expected, operations=done), problems
