"""Parse what one `bin/ycsb` call leaves behind: YCSB's text output, its JSON exporter file,
the `-s` status lines and the binding's start-up lines on stderr.

Everything here is a pure function of text; reading files is the caller's business.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction

from ..catalogue.scenarios import binding_of

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


# --- the binding's start-up and close lines ----------------------------------------------------


@dataclass
class EngineBanner:
    engine: str
    version: str | None = None  # "[engine] engine: <name and version>"
    open_ms: float | None = None
    close_ms: float | None = None
    configuration: dict[str, str] = field(default_factory=dict)


def parse_engine_banner(stderr: str, engine: str) -> EngineBanner:
    """`[engine] <name and version>`, `[engine] opened <dir> in X ms; effective configuration:`
    with indented `name = value (origin)` lines, and `[engine] closed <dir> in X ms`."""
    banner = EngineBanner(engine)
    prefix = f"[{binding_of(engine)}] "
    in_configuration = False
    engine_line = False  # outputs older than the "engine:" line: the first other line is the version
    for line in stderr.splitlines():
        if in_configuration:
            m = re.match(r"^\s+(\S+) = (.*?)(?: \(([^()]*)\))?$", line)
            if m and line[:1].isspace():
                banner.configuration[m.group(1)] = m.group(2)
                continue
            in_configuration = False
        if not line.startswith(prefix):
            continue
        rest = line[len(prefix) :]
        opened = re.match(r"opened .* in ([0-9.]+) ms", rest)
        closed = re.match(r"closed .* in ([0-9.]+) ms", rest)
        if rest.startswith("engine: "):  # the binding's own version line (the binding base prints it at open)
            banner.version = rest[len("engine: ") :].strip()
            engine_line = True
        elif opened:
            banner.open_ms = float(opened.group(1))
            in_configuration = rest.rstrip().endswith("configuration:")
        elif closed:
            banner.close_ms = float(closed.group(1))
        elif (
            not engine_line
            and banner.version is None
            and banner.open_ms is None
            and not re.search(r"\bfailed\b|\berror\b", rest, re.I)
        ):
            banner.version = rest.strip()
    return banner


# --- the engines' own statistics at close -----------------------------------------------------

# The bindings' size grammar (EngineProperties.parseSize), tested on both sides with the cases in
# common/src/test/resources/size-cases.txt: a whole or decimal number, then k, m, g or t (powers of
# 1024) with an optional b or ib, or a lone b; case-insensitive; a whole number of bytes that fits a long.
_SIZE = re.compile(r"([0-9]+(?:\.[0-9]+)?)[ \t]*(?:([kmgt])(?:i?b)?|b)?", re.I)
_SIZE_SHIFTS = {"": 0, "k": 10, "m": 20, "g": 30, "t": 40}
_LONG_MAX = 2**63 - 1


def parse_size(text: str | None) -> int | None:
    """A size as the bindings take and print it: '2m' -> 2097152, '4MiB' -> 4194304, '4194304' ->
    4194304; None when it is not a size."""
    m = _SIZE.fullmatch((text or "").strip())
    if not m:
        return None
    size = Fraction(m.group(1)) * 2 ** _SIZE_SHIFTS[(m.group(2) or "").lower()]
    if size.denominator != 1 or size > _LONG_MAX:
        return None  # a fraction of a byte, or more than the bindings' long holds
    return int(size)


@dataclass(frozen=True)
class EngineStats:
    """What an engine printed about its background work when it closed (None: it does not say)."""

    files_per_level: tuple[int, ...] = ()
    level_bytes: tuple[int, ...] = ()  # LevelDB's Size(MB) per level; RocksDB's stats line has none
    stall_stops: int | None = None  # RocksDB only: LevelDB keeps no stall counter
    stall_slowdowns: int | None = None
    stall_seconds: float | None = None
    flush_bytes: int | None = None  # RocksDB; LevelDB counts its flushes with its compactions
    compaction_read_bytes: int | None = None
    compaction_write_bytes: int | None = None  # LevelDB: the Write(MB) of every level, flushes included
    user_bytes: int | None = None  # what the clients wrote (RocksDB's bytes_written)


LEVELDB_LEVELS = 7  # config::kNumLevels


def _int_field(fields: dict[str, str], name: str) -> int | None:
    value = fields.get(name, "")
    return int(value) if value.isdigit() else None


def parse_rocksdb_stats(stderr: str) -> EngineStats | None:
    """The last `[rocksdb] stats: name=value ...` line. A line with `source=properties` takes every
    figure from DB properties, whatever rocksdb.stats says. An older line (no source) took its stall
    time and byte counts from RocksDB's statistics object: with rocksdb.stats=false they read 0 and
    are left out here."""
    lines = [line for line in stderr.splitlines() if line.startswith("[rocksdb] stats: ")]
    if not lines:
        return None
    fields = dict(part.partition("=")[::2] for part in lines[-1][len("[rocksdb] stats: ") :].split())
    files = tuple(int(f) for f in fields.get("files_per_level", "").split(",") if f.strip().isdigit())
    tickers = (
        fields.get("source") == "properties"
        or parse_engine_banner(stderr, "rocksdb").configuration.get("rocksdb.stats", "true") != "false"
    )
    micros = _int_field(fields, "stall_micros")
    return EngineStats(
        files_per_level=files,
        stall_stops=_int_field(fields, "stall_stops"),
        stall_slowdowns=_int_field(fields, "stall_slowdowns"),
        stall_seconds=micros / 1e6 if micros is not None and tickers else None,
        flush_bytes=_int_field(fields, "flush_bytes") if tickers else None,
        compaction_read_bytes=_int_field(fields, "compaction_read_bytes") if tickers else None,
        compaction_write_bytes=_int_field(fields, "compaction_write_bytes") if tickers else None,
        user_bytes=_int_field(fields, "bytes_written") if tickers else None,
    )


_LEVELDB_STATS_ROW = re.compile(r"^\s*(\d+)\s+(\d+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s+([0-9.]+)\s*$")


def parse_leveldb_stats(stderr: str) -> EngineStats | None:
    """The table after the last `[leveldb] leveldb.stats at close:` line: a row per level that holds
    files or did compaction work (Level, Files, Size(MB), Time(sec), Read(MB), Write(MB))."""
    lines = stderr.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("[leveldb] leveldb.stats at close:")]
    if not starts:
        return None
    files, sizes = [0] * LEVELDB_LEVELS, [0] * LEVELDB_LEVELS
    read_mb = write_mb = 0.0
    for line in lines[starts[-1] + 1 :]:
        if line.startswith("["):
            break  # the binding's next line ("[leveldb] closed ...")
        m = _LEVELDB_STATS_ROW.match(line)
        if not m or int(m.group(1)) >= LEVELDB_LEVELS:
            continue  # the headings, the dashes, a `-s` status line printed in between
        level = int(m.group(1))
        files[level], sizes[level] = int(m.group(2)), round(float(m.group(3)) * 2**20)
        read_mb += float(m.group(5))
        write_mb += float(m.group(6))
    return EngineStats(
        files_per_level=tuple(files),
        level_bytes=tuple(sizes),
        compaction_read_bytes=round(read_mb * 2**20),
        compaction_write_bytes=round(write_mb * 2**20),
    )


def parse_engine_stats(stderr: str, engine: str) -> EngineStats | None:
    """The statistics an engine prints at close: RocksDB's stats line, LevelDB's leveldb.stats;
    None for the other engines and for outputs without them (a failed step, an older binding)."""
    if engine == "rocksdb":
        return parse_rocksdb_stats(stderr)
    if binding_of(engine) == "leveldb":
        return parse_leveldb_stats(stderr)
    return None


# --- failures --------------------------------------------------------------------------------

_ERROR_LINE = re.compile(
    r"(Exception|Error\b|^Unable to |No such file|not allowed|failed:|cannot |is not built|unknown engine)"
)


# A binding's advice at start-up ("[kyoto] NOTE: kctreemgr cannot name a compressor ..."), not a failure.
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


# --- what a workload class says of its stream at the end (TraceWorkload, MixGraphWorkload) -----------
# One line on stderr per phase, `[TRACE] name=value, name=value, ...` / `[MIXGRAPH] ...` (README, "The workload
# class"): fields separated by ", ", inside a value items by "," and "name:value"; "none" for an empty block.

TRACE_PREFIX = "[TRACE] "
MIXGRAPH_PREFIX = "[MIXGRAPH] "


def last_line(stderr: str, prefix: str) -> str | None:
    """The last line of stderr that starts with prefix (a JVM prints one per phase; a step runs one phase)."""
    found = None
    for line in stderr.splitlines():
        if line.startswith(prefix):
            found = line.rstrip()
    return found


def workload_summary_line(stderr: str) -> str | None:
    """The last `[TRACE]` or `[MIXGRAPH]` line of a step's stderr: what its workload class said of its stream."""
    found = None
    for line in stderr.splitlines():
        if line.startswith((TRACE_PREFIX, MIXGRAPH_PREFIX)):
            found = line.rstrip()
    return found


# TraceWorkload names the first malformed lines it skips (common/.../TraceFile.java), each on stderr as it meets it.
_TRACE_SKIPPED = re.compile(r"^\[trace\] line (\d+) skipped, not a \w+ line: (.*)$", re.MULTILINE)


def trace_skipped_lines(stderr: str) -> str | None:
    """The malformed lines a trace replay named on stderr, one `NUMBER: text` a line; None for none."""
    found = [f"{m.group(1)}: {m.group(2).rstrip()}" for m in _TRACE_SKIPPED.finditer(stderr)]
    return "\n".join(found) if found else None


def _fields(line: str, prefix: str) -> dict[str, str] | None:
    """`name=value` fields of a workload's summary line; None for any other line. A part without `=` belongs to
    the value before it (a name of the trace's own that held ", ")."""
    if not line.startswith(prefix):
        return None
    fields: dict[str, str] = {}
    last = None
    for part in line[len(prefix) :].strip().split(", "):
        name, sep, value = part.partition("=")
        if sep and name and " " not in name:
            fields[name] = value
            last = name
        elif last is not None:
            fields[last] += ", " + part
    return fields


def _items(value: str | None) -> dict[str, float]:
    """`name:number,name:number` as a dict ({} for "none" or a malformed block)."""
    out: dict[str, float] = {}
    for item in (value or "").split(","):
        name, _, number = item.rpartition(":")
        try:
            out[name] = float(number)
        except ValueError:
            continue
    return out


def _number(value: str | None) -> float | None:
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def _whole_number(value: str | None) -> int | None:
    number = _number(value)
    return int(number) if number is not None else None


@dataclass(frozen=True)
class TraceSummary:
    """A `[TRACE]` line: what one phase of a trace replay read and sent."""

    phase: str
    format: str
    lines: int  # the operations read (malformed and blank lines apart)
    malformed: int
    distinct_keys: int  # a HyperLogLog estimate
    span_s: float
    mix: dict[str, int]  # what the lines became: read, insert, update, delete, scan, skip
    trace_ops: dict[str, int]  # the trace's own operation names
    loaded: int  # keys the load inserted
    replayed: int  # operations the run sent
    updates_inserted: int
    keysize: dict[str, float]  # min, p50, p90, p99, max, mean of the key size column
    valuesize: dict[str, float]


def parse_trace_line(line: str) -> TraceSummary | None:
    """TraceWorkload's `[TRACE] phase=..., ...` line as data; None for another line or one missing its counts."""
    f = _fields(line, TRACE_PREFIX)
    if f is None or _whole_number(f.get("lines")) is None:
        return None
    return TraceSummary(
        phase=f.get("phase", ""),
        format=f.get("format", ""),
        lines=_whole_number(f.get("lines")) or 0,
        malformed=_whole_number(f.get("malformed")) or 0,
        distinct_keys=_whole_number(f.get("distinct_keys~")) or 0,
        span_s=_number(f.get("span_s")) or 0.0,
        mix={k: int(v) for k, v in _items(f.get("mix")).items()},
        trace_ops={k: int(v) for k, v in _items(f.get("trace_ops")).items()},
        loaded=_whole_number(f.get("loaded")) or 0,
        replayed=_whole_number(f.get("replayed")) or 0,
        updates_inserted=_whole_number(f.get("updates_inserted")) or 0,
        keysize=_items(f.get("keysize")),
        valuesize=_items(f.get("valuesize")),
    )


@dataclass(frozen=True)
class MixGraphSummary:
    """A `[MIXGRAPH]` line: the generated stream of one phase beside the model's."""

    phase: str
    ops: int
    mix: dict[str, float]  # get, put, seek shares
    model_mix: dict[str, float]
    valuesize: dict[str, float]  # p10, p50, p90, p99 and n (values generated)
    model_valuesize: dict[str, float]
    scanlength: dict[str, float]
    model_scanlength: dict[str, float]
    keyrange_share: tuple[float, ...]  # share of requests per key range, hottest range (by the model) first
    model_keyrange_share: tuple[float, ...]


def _shares(value: str | None) -> tuple[float, ...]:
    try:
        return tuple(float(x) for x in (value or "").split(",") if x)
    except ValueError:
        return ()


def parse_mixgraph_line(line: str) -> MixGraphSummary | None:
    """MixGraphWorkload's `[MIXGRAPH] phase=..., ...` line as data; None for another line."""
    f = _fields(line, MIXGRAPH_PREFIX)
    if f is None or _whole_number(f.get("ops")) is None:
        return None
    return MixGraphSummary(
        phase=f.get("phase", ""),
        ops=_whole_number(f.get("ops")) or 0,
        mix=_items(f.get("mix")),
        model_mix=_items(f.get("model_mix")),
        valuesize=_items(f.get("valuesize")),
        model_valuesize=_items(f.get("model_valuesize")),
        scanlength=_items(f.get("scanlength")),
        model_scanlength=_items(f.get("model_scanlength")),
        keyrange_share=_shares(f.get("keyrange_share")),
        model_keyrange_share=_shares(f.get("model_keyrange_share")),
    )


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
