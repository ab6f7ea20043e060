"""Whether a measured step reached a steady rate, checked from its seconds rather than assumed.

A step's intervals are, where the project's driver ran it, its own records of the operations every 100 ms
(`<step>.intervals.csv`, STEADY_MIN_INTERVALS of them needed). Otherwise (a peer's YCSB Client) they are the
seconds YCSB's status thread closes (`-s`): from its
HdrHistogram interval logs (`<step>.<OPERATION>.hdr`, where the step wrote them: scale.timeline) or else
from its `-s` status lines' "current ops/sec" (every step has them). The whole seconds are these
intervals without the partial ones: the status lines' first (printed before any operation) and last (the
closing line), the logs' first (from the first operation to the first tick) and last.

The rule, per step:
- **too short**: fewer than STEADY_MIN_SECONDS whole seconds, or fewer than STEADY_MIN_RATE operations in
  its median second (a few full passes of long operations): too few to show a steady part at all;
- **still climbing**: the median second of the last third of its whole seconds is more than CLIMB_SHARE
  (and one operation an interval) above the median of the middle third and of the first third alike, and the
  last third's seconds ran faster than each earlier third's in at least CLIMB_CONSISTENCY of their pairs (a
  trend, not noise): the rate still rose at the end (the JIT compiling the hot path, caches filling), so the
  step's figure is not its steady rate. A last third that only came back to the first third's rate after a
  dip in the middle (a flush, another tenant of the machine) is not a climb: the step had reached that rate;
- **steady** otherwise.
A figure (the median over repeats) is too short when any of its steps is, else still climbing when at least
half of them are.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

from .parse import parse_status_lines
from .scale import UnreadableLog, hdr_logs, is_scale_cell, timeline

STEADY_MIN_SECONDS = 4
# The driver's own records (harness/.../Progress.java, `intervals.file`): the step's operations every 100 ms. A
# step judged on them needs this many whole intervals (2 s), where YCSB's status lines need 4 whole seconds.
STEADY_MIN_INTERVALS = 20
INTERVAL_RESOLUTION = 10.0  # one operation in 100 ms, in ops/sec
# A step of long operations (a full pass is one) has no rate a second to read: its median second must hold
# at least this many operations.
STEADY_MIN_RATE = 10.0
CLIMB_SHARE = 0.10
# A climb is a trend, not the intervals' noise: the last third's intervals must run faster than the middle third's in
# at least this share of their pairs (superiority). Without it, 33 of 189 timed quick steps (2.3 s, 100 ms
# intervals) rose 10 % and 47 fell 10 % between the two thirds: the medians of seven intervals moved both ways alike.
CLIMB_CONSISTENCY = 0.8

STEADY = "steady"
CLIMBING = "still climbing"
TOO_SHORT = "too short"

# The heat map's marks and their legend.
MARKS: Mapping[str, str] = {CLIMBING: "↗", TOO_SHORT: "◦"}
MARK_LEGEND: Mapping[str, str] = {
    CLIMBING: (
        f"the rate still climbed at the step's end (the median second of the last third of its whole seconds "
        f"more than {CLIMB_SHARE * 100:.0f} % and one operation above the middle and the first third's, its intervals "
        f"faster than each of theirs in {CLIMB_CONSISTENCY:.0%} of their pairs or more): not a steady figure"
    ),
    TOO_SHORT: (
        f"the step lasted fewer than {STEADY_MIN_INTERVALS} whole intervals of 100 ms (where the driver recorded "
        f"them; else {STEADY_MIN_SECONDS} whole seconds of YCSB's status lines), or ran fewer than "
        f"{STEADY_MIN_RATE:.0f} operations a second, as a few full passes do: too short to show a steady part"
    ),
}

Key = tuple[str, str, str]  # (engine, scenario, variant)


def judge(rates: list[float], minimum: int = STEADY_MIN_SECONDS, resolution: float = 1.0) -> str:
    """A step's verdict from the rates (ops/sec) of its whole intervals, in order, of which it needs `minimum`:
    whole seconds by default, or the driver's 100 ms intervals with STEADY_MIN_INTERVALS (pure). `resolution`: one
    operation an interval, in ops/sec (1 for seconds, 10 for 100 ms): a climb must exceed it too, since counts of
    long operations (full passes, a few an interval) move by one operation at random (pure)."""
    if len(rates) < minimum or statistics.median(rates) < STEADY_MIN_RATE:
        return TOO_SHORT
    third = len(rates) // 3
    first_rates = rates[: len(rates) - 2 * third]
    middle_rates, last_rates = rates[len(rates) - 2 * third : len(rates) - third], rates[len(rates) - third :]
    last = statistics.median(last_rates)
    # above the middle third and the first alike: a climb, not a return to the first third's rate after a dip
    rose = all(
        last > (1 + CLIMB_SHARE) * statistics.median(earlier) + resolution
        and superiority(last_rates, earlier) >= CLIMB_CONSISTENCY
        for earlier in (middle_rates, first_rates)
    )
    return CLIMBING if rose else STEADY


def superiority(later: list[float], earlier: list[float]) -> float:
    """The share of (later, earlier) pairs of intervals in which the later one ran faster, ties counting half (pure):
    about 0.5 when the two thirds differ only by the intervals' noise, 1 when every later interval is faster."""
    above = sum((a > b) + 0.5 * (a == b) for a in later for b in earlier)
    return above / (len(later) * len(earlier))


def status_rates(stderr: str) -> list[float]:
    """The whole seconds' rates from a step's `-s` status lines (the first and the closing line left out)."""
    return [s.current_ops_per_sec for s in parse_status_lines(stderr)[1:-1] if s.current_ops_per_sec is not None]


def interval_rates(text: str) -> list[float]:
    """The whole intervals' rates (ops/sec) from the driver's `elapsed_ms,operations` records: each interval's
    operations over its length, the first (the threads' start) and the last (the step's end) left out (pure).
    The records after the step's last operation are its close (a Kyoto TreeDB of 100 KB values writes its cache
    back for 2.6 s), not its operations: they are left out too, or a closing engine would pass for a stalled one."""
    rows = []
    for line in text.splitlines():
        if line and not line.startswith("#"):
            elapsed, ops = line.split(",")
            rows.append((int(elapsed), int(ops)))
    while len(rows) > 1 and rows[-2][1] == rows[-1][1]:
        rows.pop()
    rates = [
        1000.0 * (o1 - o0) / (t1 - t0) for (t0, o0), (t1, o1) in zip([(0, 0), *rows], rows, strict=False) if t1 > t0
    ]
    return rates[1:-1]


def intervals_file(results: Path, step: dict) -> Path:
    """Where the driver wrote a step's 100 ms records (runner.py names it beside the step's stdout)."""
    stem = Path(step["stdout"]).name.rsplit(".", 1)[0]
    return results / Path(step["stdout"]).parent / f"{stem}.intervals.csv"


def judge_step(results: Path, step: dict) -> str:
    """A step's verdict: on the driver's 100 ms records where it wrote them, else on its whole seconds."""
    records = intervals_file(results, step)
    if records.is_file():
        return judge(interval_rates(records.read_text(errors="replace")), STEADY_MIN_INTERVALS, INTERVAL_RESOLUTION)
    return judge(step_rates(results, step))


def step_rates(results: Path, step: dict) -> list[float]:
    """A step's whole seconds: from its HdrHistogram logs where it wrote readable ones, else its status lines."""
    stem = Path(step["stdout"]).name.rsplit(".", 1)[0]
    logs = hdr_logs(results / Path(step["stdout"]).parent, stem)
    if logs:
        try:
            return [s.ops_per_sec for s in timeline(logs)[1:-1]]
        except UnreadableLog:
            pass
    stderr = results / step["stderr"]
    return status_rates(stderr.read_text(errors="replace")) if stderr.is_file() else []


def combine(verdicts: list[str]) -> str:
    """A figure's verdict from its repeats' (pure): too short when any was (its repeats ran the same counts),
    still climbing when at least half were (the figure is their median, and one climbing repeat of three is
    more often a noisy last second than a figure short of its steady rate)."""
    if TOO_SHORT in verdicts:
        return TOO_SHORT
    return CLIMBING if 2 * verdicts.count(CLIMBING) >= len(verdicts) else STEADY


def figure_steadiness(cells: list[dict], results: Path) -> dict[Key, str]:
    """(engine, scenario, variant) -> verdict of every figure's measured steps that worked (the scale
    group's cells have their own section and are left out)."""
    verdicts: dict[Key, list[str]] = {}
    for cell in cells:
        if is_scale_cell(cell):
            continue
        base = Path(cell.get("results_dir", results))
        for steps in cell.get("repeats", []):
            for step in steps:
                if not step.get("measured") or step.get("problems") or step.get("exit_code") not in (0, None):
                    continue
                if not (base / step["stderr"]).is_file():
                    continue
                key = (cell["engine"], cell["scenario"], step.get("variant") or "")
                verdicts.setdefault(key, []).append(judge_step(base, step))
    return {key: combine(v) for key, v in verdicts.items()}


def describe(flags: Mapping[Key, str], keys: Iterable[Key], label: Callable[[str], str]) -> str:
    """'Kyoto TreeDB randread still climbing, SQLite3 randread too short' for the flagged ones of keys."""
    parts = [
        f"{label(e)} {s}{' ' + v if v else ''} {flags[(e, s, v)]}"
        for e, s, v in keys
        if flags.get((e, s, v), STEADY) != STEADY
    ]
    return ", ".join(parts)
