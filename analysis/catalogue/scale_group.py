"""The scale group: data beyond the memory budget, client threads, a sustained run.

One scenario per data size N ("scale-<N>"): load N records in random order, then each workload for a fixed
time; at the smallest and the largest N also the thread series, at the largest the sustained run. Not in
"all" (it runs for an hour and more): select it with --scenarios scale. Sized for --memory 1g:
analysis/README.md has the arithmetic behind the defaults.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .engines import REGISTERED
from .model import ENGINES, OK_RETURNS, Scenario, Step

SCALE_PREFIX = "scale-"
SCALE_RECORDS = (2**18, 2**20, 2**22)  # 1 KB records: 256 MB, 1 GB, 4 GB of user data
SCALE_THREADS = (1, 2, 4, 8, 16)
SCALE_WORKLOADS = ("read-uniform", "read-zipfian", "scan", "mix", "overwrite")  # run in this order
SCALE_THREAD_WORKLOADS = ("read-uniform", "mix")
SCALE_STEP_SECONDS = 10
SCALE_THREAD_SECONDS = 5
SCALE_SUSTAINED_SECONDS = 60
# A load gets the time it needs at SCALE_LOAD_RATE inserts a second (at least SCALE_LOAD_MIN_SECONDS); one
# still running then stops, later steps read what it loaded, and the report says how far it got.
SCALE_LOAD_RATE = 14_000
SCALE_LOAD_MIN_SECONDS = 60
SCALE_HEAP = "256m"  # every step's JVM, whatever N: the binding's own memory stays flat
SCALE_CACHE_BYTES = 256 << 20  # scale/base's engine cache
# The registry's `scale.workload`: a file stacked on an engine's steps.
SCALE_ENGINE_FILES: tuple[tuple[str, str], ...] = tuple(
    (e.name, e.scale_workload) for e in REGISTERED.engines if e.scale_workload
)
# A load cut short by its time leaves keys out; later reads of those are NOT_FOUND, counted and shown.
SCALE_RETURNS = OK_RETURNS | {"NOT_FOUND"}


@dataclass(frozen=True)
class ScaleSettings:
    """The scale group's series and times (python -m analysis run --records-series/--threads-series/
    --step-seconds/--duration)."""

    records: tuple[int, ...] = SCALE_RECORDS
    threads: tuple[int, ...] = SCALE_THREADS
    step_seconds: int = SCALE_STEP_SECONDS
    thread_seconds: int = SCALE_THREAD_SECONDS
    sustained_seconds: int = SCALE_SUSTAINED_SECONDS
    load_rate: int = SCALE_LOAD_RATE

    def load_seconds(self, records: int) -> int:
        return max(SCALE_LOAD_MIN_SECONDS, -(-records // self.load_rate))


def _scale_step(phase: str, workload: str, records: int, seconds: int, variant: str, **kw: Any) -> Step:
    return Step(
        phase,
        ("scale/base", f"scale/{workload}"),
        variant=variant,
        records=records,
        seconds=seconds,
        engine_workloads=SCALE_ENGINE_FILES,
        heap=SCALE_HEAP,
        allowed_returns=SCALE_RETURNS,
        **kw,
    )


def scaled(template: str, **quantities: int) -> str:
    """A `scale.props.STEP` value: '{records}/8' with records=1000 -> '125'; a quantity, or one divided by a
    number or another, as a whole number of at least 1 (pure)."""
    numerator, _, denominator = template.partition("/")
    value = int(numerator.format(**quantities))
    return str(max(value // int(denominator.format(**quantities)), 1) if denominator else value)


def engine_props(step: str, **quantities: int) -> tuple[tuple[str, str], ...]:
    """Every engine's `scale.props.<step>` (the registry), its values for these quantities."""
    return tuple(
        (name, scaled(template, cache=SCALE_CACHE_BYTES, **quantities))
        for e in REGISTERED.engines
        for name, template in e.scale_props.get(step, ())
    )


def scale_scenario(records: int, settings: ScaleSettings) -> Scenario:
    """The scale cell of one data size: its steps depend on where N sits in the series (pure)."""
    series = sorted(set(settings.records))
    steps = [
        _scale_step(
            "load",
            "load",
            records,
            settings.load_seconds(records),
            "load",
            props=engine_props("load", records=records),
        ),
        *(_scale_step("run", w, records, settings.step_seconds, w) for w in SCALE_WORKLOADS),
    ]
    if records in (series[0], series[-1]):
        steps += [
            _scale_step(
                "run",
                w,
                records,
                settings.thread_seconds,
                f"{w}-{t}t",
                props=(("threadcount", str(t)), *engine_props("threads", records=records, threads=t)),
            )
            for w in SCALE_THREAD_WORKLOADS
            for t in settings.threads
        ]
    if records == series[-1]:
        steps.append(_scale_step("run", "mix", records, settings.sustained_seconds, "sustained"))
    return Scenario(
        f"{SCALE_PREFIX}{records}",
        "scale",
        f"At scale: {records:,} records of 1 KB",
        "one operation of the step's workload (operations are over all client threads)",
        ENGINES,
        tuple(steps),
    )


# Measured on this 2-core machine while others built and tested (analysis/README.md): a step's JVM start,
# eviction, cgroup and close cost about 2 s beyond its own time.
SCALE_STEP_OVERHEAD_SECONDS = 2.0


def scale_worst_case_seconds(settings: ScaleSettings, engines: int = len(ENGINES)) -> float:
    """The group's longest run: every step to its time limit (each load to load_seconds) plus each
    step's overhead, for every engine (pure; a load that finishes early only shortens it)."""
    total = 0.0
    for scenario in scale_scenarios(settings):
        total += sum((s.seconds or 0) + SCALE_STEP_OVERHEAD_SECONDS for s in scenario.steps)
    return total * engines


def scale_scenarios(settings: ScaleSettings = ScaleSettings()) -> tuple[Scenario, ...]:
    return tuple(scale_scenario(n, settings) for n in sorted(set(settings.records)))


def is_scale(scenario_id: str) -> bool:
    return scenario_id.startswith(SCALE_PREFIX)


SCALE: tuple[Scenario, ...] = scale_scenarios()
