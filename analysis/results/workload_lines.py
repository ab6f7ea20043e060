"""Parse the summary lines a workload class prints of its stream at the end of a phase: TraceWorkload's
`[TRACE]` line and the malformed trace lines it skipped, MixGraphWorkload's `[MIXGRAPH]` line.

Everything here is a pure function of text; reading files is the caller's business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
