"""Latency at a rate, as data: the sweep of asked rates per engine and workload, each step's achieved rate and
latency percentiles from the intended start (the schedule's tick) and from the actual start (service time), and
the capacity under a latency bound (`--sla p99=2ms`), searched by bisection between the sweep's points.

Pure functions and dataclasses: rate_run.py and rate_cell.py run the steps, report_rate.py draws them; both read this
model.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass, field

from .parse import Measurement
from .scale import Second

# The sweep's asked rates, as fractions of the engine's flat-out rate on the workload.
FRACTIONS: tuple[float, ...] = (0.10, 0.25, 0.50, 0.75, 0.90, 1.00, 1.10)
# A step held its asked rate when it achieved at least this share of it.
HOLD_SHARE = 0.98
# The percentiles every step reports (YCSB's hdrhistogram.percentiles), beside the SLAs' own.
PERCENTILES: tuple[float, ...] = (50.0, 99.0, 99.9)
# YCSB's name of an operation's latencies from its intended start (measurement.interval=both).
INTENDED_PREFIX = "Intended-"
# Measured names that are not requests: the close, and YCSB's totals.
NOT_REQUESTS = ("CLEANUP", "OVERALL")
READ_MODIFY_WRITE = "READ-MODIFY-WRITE"  # workload F's request of its own, with a dash in its name
# The decimals of an asked rate: YCSB's Client reads `-target` as a whole number, the project's driver (harness/)
# takes a fraction; a tenth of an operation a second is finer than any step can tell apart.
WHOLE_RATES = 0
DRIVER_RATE_DIGITS = 1

_UNITS = {"us": 1.0, "ms": 1000.0, "s": 1_000_000.0}
_SLA = re.compile(r"^(?:([A-Za-z-]+):)?p(\d+(?:\.\d+)?)=(\d+(?:\.\d+)?)(us|ms|s)$")


def percentile_key(q: float) -> str:
    """'p99', 'p99.9', 'p50': a percentile's name in this model."""
    return f"p{q:g}"


def _percentile_of(measurement: str) -> float | None:
    """YCSB's hdrhistogram names: '99thPercentileLatency(us)', '99.9PercentileLatency(us)' (no suffix)."""
    m = re.match(r"^(\d+(?:\.\d+)?)(?:th|st|nd|rd)?PercentileLatency\(us\)$", measurement)
    return float(m.group(1)) if m else None


@dataclass(frozen=True)
class Sla:
    """A latency bound: the q-th percentile of one operation's intended-time latency, or of all operations'
    together (their histograms merged), at most `bound_us`."""

    percentile: float
    bound_us: float
    operation: str | None = None  # None: all operations together (in_overall)

    @property
    def text(self) -> str:
        bound = f"{self.bound_us / 1000:g}ms" if self.bound_us >= 1000 else f"{self.bound_us:g}us"
        return f"{self.operation + ':' if self.operation else ''}{percentile_key(self.percentile)}={bound}"


def parse_sla(text: str) -> Sla:
    """`p99=2ms`, `p99.9=500us`, `READ:p99=1ms`: ValueError naming what is allowed otherwise."""
    m = _SLA.match(text.strip())
    if not m:
        raise ValueError(
            f"--sla {text!r}: expected [OPERATION:]pQ=BOUND with a unit, as p99=2ms, p99.9=500us or READ:p99=1ms"
        )
    q = float(m.group(2))
    if not 0 < q < 100:
        raise ValueError(f"--sla {text!r}: the percentile must be above 0 and below 100")
    bound = float(m.group(3)) * _UNITS[m.group(4)]
    if bound <= 0:
        raise ValueError(f"--sla {text!r}: the bound must be above 0")
    return Sla(q, bound, m.group(1).upper() if m.group(1) else None)


# Per operation (READ, UPDATE, ...): percentile key ('p99', 'max') -> microseconds.
Latencies = dict[str, dict[str, float]]


def _is_request(name: str) -> bool:
    """An operation a client asked for: READ, UPDATE, READ-MODIFY-WRITE...; not READ-FAILED, CLEANUP, totals."""
    return name == READ_MODIFY_WRITE or ("-" not in name and name not in NOT_REQUESTS)


def in_overall(name: str) -> bool:
    """An operation whose latencies a bound without an operation counts: each database operation a client asked
    for (READ, UPDATE, INSERT, SCAN, ...). Workload F's READ-MODIFY-WRITE is a read and an update, which YCSB also
    measures as READ and UPDATE (the update's intended time from the same tick, so it includes the read): counting
    it too would count those requests twice."""
    return _is_request(name) and name != READ_MODIFY_WRITE


def step_latencies(measurements: Iterable[Measurement]) -> tuple[Latencies, Latencies]:
    """(intended, service) latencies per operation of one step's YCSB measurements (measurement.interval=both):
    each operation's percentiles and max, in microseconds; failed operations' names (READ-FAILED) are left out."""
    intended: Latencies = {}
    service: Latencies = {}
    for m in measurements:
        name, into = m.metric, service
        if name.startswith(INTENDED_PREFIX):
            name, into = name[len(INTENDED_PREFIX) :], intended
        if not _is_request(name):
            continue
        q = _percentile_of(m.measurement)
        if q is not None:
            into.setdefault(name, {})[percentile_key(q)] = m.value
        elif m.measurement == "MaxLatency(us)":
            into.setdefault(name, {})["max"] = m.value
    return intended, service


def achieved_rate(measurements: Iterable[Measurement]) -> float | None:
    """A step's operations a second over its time less the DB's close: YCSB's run time ends when the last client
    thread has closed its DB (LMDB's close took 20 ms of a 1 s step), and the schedule's rate is of operations."""
    values = {(m.metric, m.measurement): m.value for m in measurements}
    runtime, throughput = values.get(("OVERALL", "RunTime(ms)")), values.get(("OVERALL", "Throughput(ops/sec)"))
    if runtime is None or throughput is None or math.isnan(throughput) or math.isinf(throughput) or runtime <= 0:
        return None
    operations = throughput * runtime / 1000.0
    close_ms = values.get(("CLEANUP", "MaxLatency(us)"), 0.0) / 1000.0
    seconds = (runtime - close_ms if close_ms < runtime else runtime) / 1000.0
    return operations / seconds


@dataclass
class RateStep:
    """One step of a sweep: the rate asked (None: flat out), the rate achieved, and its latencies."""

    kind: str  # "flat" (no target), "sweep" (a fraction of flat out), "search" (a capacity probe)
    asked: float | None
    achieved: float | None
    intended: Latencies = field(default_factory=dict)
    service: Latencies = field(default_factory=dict)
    fraction: float | None = None  # asked / flat out
    problem: str | None = None  # why it did not run (above the harness's ceiling) or failed
    stem: str | None = None  # its files' stem in the cell's directory
    other_cores: float | None = None  # what other processes kept busy meanwhile, in cores (resources.machine_cpu)
    # All operations together (in_overall), from their HdrHistogram logs merged: percentile key -> us; {} when the
    # step has no readable log (then a bound without an operation takes the slowest operation's, above it).
    overall_intended: dict[str, float] = field(default_factory=dict)
    overall_service: dict[str, float] = field(default_factory=dict)

    @property
    def held(self) -> bool:
        """Whether it ran and achieved its asked rate (a flat-out step holds whatever it achieved)."""
        if self.problem is not None or self.achieved is None:
            return False
        return self.asked is None or self.achieved >= HOLD_SHARE * self.asked

    def latency(self, sla_or_key: Sla | str, intended: bool = True, operation: str | None = None) -> float | None:
        """A percentile (or 'max') of one operation, or of all operations together (operation None), in
        microseconds. Without the merged figures (a step without readable logs, a record written before them), all
        operations together is the slowest operation's figure, which bounds theirs from above: each operation has
        at most 1 - q of its latencies above its own q-th percentile, so all of them together have too."""
        if isinstance(sla_or_key, Sla):
            key, operation = percentile_key(sla_or_key.percentile), sla_or_key.operation
        else:
            key = sla_or_key
        table = self.intended if intended else self.service
        if operation is not None:
            return table.get(operation, {}).get(key)
        overall = self.overall_intended if intended else self.overall_service
        if overall:
            return overall.get(key)
        values = [v[key] for name, v in table.items() if key in v and in_overall(name)]
        return max(values) if values else None

    @property
    def merged(self) -> bool:
        """Whether its figures of all operations together are their merged histograms' (not the slowest's)."""
        return bool(self.overall_intended)


def passes(step: RateStep, sla: Sla) -> bool:
    """A step meets the bound: it held its rate and its intended-time percentile is within the bound."""
    value = step.latency(sla)
    return step.held and value is not None and value <= sla.bound_us


def asked_rate(rate: float, digits: int = WHOLE_RATES) -> float:
    """A rate as the client is asked for it: `digits` decimals (WHOLE_RATES for YCSB's Client, a whole number;
    DRIVER_RATE_DIGITS for the driver); a rate below 1 operation a second becomes 1, a step's few operations
    having no percentile to speak of."""
    return max(1, round(rate)) if digits == WHOLE_RATES else max(1.0, round(rate, digits))


def rate_text(rate: float, grouped: bool = False) -> str:
    """An asked rate as the client's `target` property and a step's name take it: '1500', '1500.5'; grouped
    (a progress line): '1,500', '1,500.5'."""
    whole = float(rate).is_integer()
    if grouped:
        return f"{rate:,.0f}" if whole else f"{rate:,.{DRIVER_RATE_DIGITS}f}"
    return f"{rate:.0f}" if whole else f"{rate:.{DRIVER_RATE_DIGITS}f}"


def sweep_rates(
    flat_out: float, fractions: Iterable[float] = FRACTIONS, digits: int = WHOLE_RATES
) -> list[tuple[float, float]]:
    """(fraction, asked rate) of each sweep step (asked_rate: whole numbers unless `digits`)."""
    return [(f, asked_rate(flat_out * f, digits)) for f in fractions]


@dataclass(frozen=True)
class Capacity:
    """The highest asked rate that met the bound, with its neighbours: the point it is (passed) and the lowest
    point above it that failed (None: none failed up to the sweep's top)."""

    sla: Sla
    rate: float | None  # None: no point passed
    passed: float | None
    failed: float | None
    flat_out: float | None

    @property
    def share(self) -> float | None:
        """The capacity as a share of the flat-out rate."""
        if self.rate is None or not self.flat_out:
            return None
        return self.rate / self.flat_out


def _paced(steps: Iterable[RateStep]) -> list[RateStep]:
    """The steps with an asked rate, slowest first; one that failed or was refused counts as not meeting a bound."""
    return sorted((s for s in steps if s.asked is not None), key=lambda s: s.asked or 0.0)


def bracket(steps: Iterable[RateStep], sla: Sla) -> tuple[RateStep | None, RateStep | None]:
    """(the highest passing step below the lowest failing one, that failing step) among the paced steps."""
    paced = _paced(steps)
    failing = next((s for s in paced if not passes(s, sla)), None)
    below = [s for s in paced if failing is None or (s.asked or 0) < (failing.asked or 0)]
    passing = below[-1] if below and passes(below[-1], sla) else None
    return passing, failing


def next_probe(steps: Iterable[RateStep], sla: Sla, resolution: float, digits: int = WHOLE_RATES) -> float | None:
    """The next rate to try (the middle of the bracket, with `digits` decimals), or None when the bracket is
    narrower than `resolution` operations a second, or open (nothing failed, or nothing passed and the lowest
    failure is at 1 op/s)."""
    passing, failing = bracket(steps, sla)
    if failing is None:
        return None
    low = passing.asked if passing is not None and passing.asked is not None else 0.0
    high = failing.asked or 0.0
    if high - low <= max(resolution, 10.0**-digits):
        return None
    middle = round((low + high) / 2, digits) if digits != WHOLE_RATES else round((low + high) / 2)
    return middle if low < middle < high else None


def capacity(steps: list[RateStep], sla: Sla) -> Capacity:
    passing, failing = bracket(steps, sla)
    flat = next((s.achieved for s in steps if s.kind == "flat"), None)
    return Capacity(
        sla,
        passing.asked if passing else None,
        passing.asked if passing else None,
        failing.asked if failing else None,
        flat,
    )


def search(
    steps: list[RateStep],
    sla: Sla,
    resolution: float,
    run: Callable[[float], RateStep],
    most: int = 8,
    digits: int = WHOLE_RATES,
) -> Capacity:
    """Bisection between the sweep's points: runs `run(rate)` at each probe (appended to `steps`) until the
    bracket is within `resolution` or `most` probes ran; the capacity found. `digits`: the probes' decimals."""
    for _ in range(most):
        rate = next_probe(steps, sla, resolution, digits)
        if rate is None:
            break
        steps.append(run(rate))
    return capacity(steps, sla)


@dataclass
class Sweep:
    """One engine on one workload: its flat-out step, its sweep and search steps, and its capacities."""

    engine: str
    workload: str
    threads: int
    steps: list[RateStep] = field(default_factory=list)
    capacities: list[Capacity] = field(default_factory=list)
    ceiling: float | None = None  # the harness's own flat-out rate (a do-nothing DB) at these threads
    error: str | None = None

    @property
    def flat_out(self) -> float | None:
        return next((s.achieved for s in self.steps if s.kind == "flat"), None)

    def to_json(self) -> dict:
        return asdict(self)


def sweep_of(record: Mapping) -> Sweep:
    """A Sweep from its JSON record (rate.json)."""
    steps = [RateStep(**s) for s in record.get("steps", [])]
    capacities = [Capacity(**{**c, "sla": Sla(**c["sla"])}) for c in record.get("capacities", [])]
    return Sweep(
        record["engine"],
        record["workload"],
        int(record.get("threads", 1)),
        steps,
        capacities,
        record.get("ceiling"),
        record.get("error"),
    )


def fraction_text(fraction: float | None) -> str:
    return "" if fraction is None or math.isnan(fraction) else f"{fraction:.0%}"


# --- Stalls at a fixed rate: a write file held at a share of its flat-out rate, second by second -------------------

# The share of the flat-out rate a stall run asks for: one the engine sustains on average, so that a stall is a
# spike in the timeline and not a backlog that never drains.
STALL_FRACTION = 0.5
# A second stalled: its intended-time p99 above STALL_FACTOR times the median second's and above STALL_FLOOR_US
# (a microsecond median's tenfold is a scheduler's hiccup, not a stall), or no request finished in it.
STALL_FACTOR = 10.0
STALL_FLOOR_US = 1000.0


def stalled_seconds(seconds: list[Second]) -> tuple[float | None, list[Second]]:
    """(the median second's intended-time p99, the stalled seconds) of a timeline (pure). The first, partial,
    second is the client starting (its first requests wait for code the warm-up did not run: 70-140 ms with a
    do-nothing DB), seconds after the last that finished a request are its close: neither is a stall. With an
    even count the median is the lower middle, so that stalls filling half the seconds still stand out."""
    busy = [i for i, s in enumerate(seconds) if s.operations > 0 and i > 0]
    if not busy:
        return None, []
    within = seconds[busy[0] : busy[-1] + 1]
    p99s = sorted(s.p99_us for s in within if s.operations > 0)
    median = p99s[(len(p99s) - 1) // 2]
    bound = max(STALL_FACTOR * median, STALL_FLOOR_US)
    return median, [s for s in within if s.operations == 0 or s.p99_us > bound]


def stall_spans(stalled: Iterable[Second]) -> list[tuple[float, int]]:
    """(first second, length in seconds) of each run of consecutive stalled seconds: one stall each (pure)."""
    spans: list[tuple[float, int]] = []
    for s in stalled:
        if spans and s.at - (spans[-1][0] + spans[-1][1] - 1) <= 1.0:
            spans[-1] = (spans[-1][0], spans[-1][1] + 1)
        else:
            spans.append((s.at, 1))
    return spans


@dataclass
class StallRun:
    """One engine on one write file: its flat-out rate, then the file again held at `asked`, second by second."""

    engine: str
    workload: str
    threads: int
    flat_out: float | None = None
    asked: float | None = None
    achieved: float | None = None
    fraction: float | None = None
    timeline: list[Second] = field(default_factory=list)  # intended-time latency per second
    stem: str | None = None
    error: str | None = None

    @property
    def median_p99(self) -> float | None:
        return stalled_seconds(self.timeline)[0]

    @property
    def stalled(self) -> list[Second]:
        return stalled_seconds(self.timeline)[1]

    @property
    def held(self) -> bool:
        return self.error is None and self.asked is not None and (self.achieved or 0) >= HOLD_SHARE * self.asked

    def to_json(self) -> dict:
        return asdict(self)


def stall_run_of(record: Mapping) -> StallRun:
    """A StallRun from its JSON record (rate.json's "stalls")."""
    fields = {k: v for k, v in record.items() if k != "timeline"}
    return StallRun(**fields, timeline=[Second(**s) for s in record.get("timeline", [])])
