"""One cell of the rate command: an engine (or the harness's do-nothing DB) on one workload, in a fresh data
directory and one JVM of the driver, and its steps held at a rate (`-target`, timed, latency measured from each
operation's scheduled start and from its actual start), with all operations' percentiles from their HdrHistogram
logs merged; and the settings every such step is run with.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from ..catalogue.model import ENGINES, Scenario, Step, binding_of
from ..catalogue.workloadfile import stacked_properties
from ..results.parse import parse_json_export, parse_measurement_lines
from ..results.rate import (
    DRIVER_RATE_DIGITS,
    INTENDED_PREFIX,
    PERCENTILES,
    WHOLE_RATES,
    Latencies,
    RateStep,
    Sla,
    achieved_rate,
    in_overall,
    percentile_key,
    rate_text,
    step_latencies,
)
from ..results.scale import Second, UnreadableLog, hdr_logs, merged_histogram, timeline
from .plan import ResolvedStep, RunOptions, driver_client, engine_is_built, resolve_step
from .runner import CellJvms, CellRecord, cell_dir, run_step

HARNESS = "harness"  # the ceiling's cells: a do-nothing DB through the same driver
NOTHING_DB = "site.ycsb.embedded.NothingDB"
TIMED_OPERATIONS = 1_000_000_000  # a timed step's count: its time ends it


@dataclass(frozen=True)
class RateSettings:
    threads: int
    seconds: int
    fractions: tuple[float, ...]
    slas: tuple[Sla, ...]
    resolution: float

    @property
    def quantiles(self) -> list[float]:
        """The percentiles every step reports: the report's and every bound's."""
        return sorted({*PERCENTILES, *(s.percentile for s in self.slas)})

    @property
    def percentiles(self) -> str:
        """YCSB's hdrhistogram.percentiles: the report's and every bound's."""
        return ",".join(f"{q:g}" for q in self.quantiles)


def paced_step(scenario: Scenario, settings: RateSettings, variant: str, props: tuple[tuple[str, str], ...]) -> Step:
    """The scenario's run step as a timed step of the sweep, with its latencies both ways, and each operation's
    HdrHistogram log (merged into all operations' percentiles: overall_latencies)."""
    run = next(s for s in scenario.steps if s.phase == "run" and s.measured)
    both = (
        ("measurement.interval", "both"),
        ("hdrhistogram.percentiles", settings.percentiles),
        ("hdrhistogram.fileoutput", "true"),
        ("threadcount", str(settings.threads)),
    )
    return replace(run, variant=variant, props=(*run.props, *both, *props), seconds=settings.seconds)


def rate_variant(kind: str, rate: float | None) -> str:
    return "flat" if rate is None else f"{kind}-{rate_text(rate)}"


def rate_digits(options: RunOptions, engine: str) -> int:
    """The decimals a rate is asked with: a fraction for the project's driver, whole numbers for YCSB's Client."""
    return DRIVER_RATE_DIGITS if driver_client(options.launcher_for(engine)) else WHOLE_RATES


CORE_WORKLOAD = "site.ycsb.workloads.CoreWorkload"


def measures_its_own(props: Mapping[str, str]) -> bool:
    """Whether a run of YCSB's CoreWorkload with these properties measures its read-modify-writes into YCSB's own
    figures, which no later step of the same JVM can tell apart from its own (the driver refuses that second step
    with exit status 4): such a step runs in a JVM of its own (pure)."""
    workload = props.get("workload", CORE_WORKLOAD)
    return (
        workload == CORE_WORKLOAD
        and props.get("dotransactions", "true").strip().lower() != "false"
        and float(props.get("readmodifywriteproportion", "0") or 0) > 0
    )


def _resolve(options: RunOptions, scenario: Scenario, step: Step, index: int) -> ResolvedStep:
    props = stacked_properties([options.workloads / f for f in step.workloads])
    resolved = resolve_step(step, index, scenario, props, options.quick, options.cap)
    if step.seconds is not None and step.phase == "run":  # a timed run: its time ends it, not its count
        resolved.operationcount = TIMED_OPERATIONS
        resolved.expectation = replace(resolved.expectation, operations=TIMED_OPERATIONS)
    return resolved


def read_step(options: RunOptions, stdout: str, export: str) -> tuple[float | None, list]:
    """A step's achieved rate and its measurements, from its stdout and JSON export."""
    out, js = options.out / stdout, options.out / export
    measurements = parse_measurement_lines(out.read_text(errors="replace")) if out.is_file() else []
    if js.is_file():
        try:
            measurements += parse_json_export(js.read_text(errors="replace"))
        except ValueError:
            pass
    return achieved_rate(measurements), measurements


class SweepCell:
    """One engine (or the harness's do-nothing DB) on one workload: its data directory, its JVM, its steps."""

    def __init__(
        self, options: RunOptions, engine: str, scenario: Scenario, settings: RateSettings, kind: str = "rate"
    ) -> None:
        self.options, self.engine, self.scenario, self.settings = options, engine, scenario, settings
        self.cell = CellRecord(engine, f"{kind}-{scenario.id}")
        self.directory = cell_dir(options.out, engine, self.cell.scenario)
        self.repeat_dir = self.directory / "r1"
        self.repeat_dir.mkdir(parents=True, exist_ok=True)
        self.data_dir = options.data / engine / self.cell.scenario
        shutil.rmtree(self.data_dir, ignore_errors=True)
        self.data_dir.mkdir(parents=True)
        # The harness's do-nothing DB runs through the launcher of the first engine built, as `-p db=` overrides.
        self.launcher = engine if engine != HARNESS else first_built(options.repo)
        self.binding = scenario.binding_for(self.launcher)
        self.jvm = CellJvms(options, self.launcher, scenario, [], self.repeat_dir)
        self.digits = rate_digits(options, self.launcher)
        self.index = 0
        self.records: list = []

    def run(self, step: Step) -> tuple[list[str], float | None, list]:
        """Runs one step in the cell's JVM, or in one of its own when it measures its own operations into YCSB's
        figures (measures_its_own): (problems, achieved rate, measurements)."""
        self.index += 1
        props = stacked_properties([self.options.workloads / f for f in step.workloads])
        resolved = _resolve(self.options, self.scenario, step, self.index)
        jvm = None if measures_its_own({**props, **resolved.props}) else self.jvm.get
        record = run_step(self.options, self.launcher, resolved, self.repeat_dir, self.data_dir, self.binding, jvm)
        if record.problems and jvm is not None:  # a failed step may have ended the cell's JVM: the next starts one
            self.jvm.close()
        self.records.append(record)
        achieved, measurements = read_step(self.options, record.stdout, record.json)
        return record.problems, achieved, measurements

    def paced(self, kind: str, rate: float | None, fraction: float | None, ceiling: float | None) -> RateStep:
        if rate is not None and ceiling is not None and rate > ceiling:
            why = (
                f"above the harness's ceiling ({ceiling:,.0f}/s, a do-nothing DB at {self.settings.threads} thread(s))"
            )
            return RateStep(kind, rate, None, fraction=fraction, problem=why)
        extra: tuple[tuple[str, str], ...] = (("target", rate_text(rate)),) if rate is not None else ()
        if self.engine == HARNESS:
            extra += (("db", NOTHING_DB),)
        step = paced_step(self.scenario, self.settings, rate_variant(kind, rate), extra)
        problems, achieved, measurements = self.run(step)
        intended, service = step_latencies(measurements)
        record = self.records[-1]
        stem = record.stdout.rsplit("/", 1)[-1].removesuffix(".txt")
        problem = "; ".join(problems) if problems else None
        others = (record.resources or {}).get("other_cpu_cores")
        quantiles = self.settings.quantiles
        return RateStep(
            kind,
            rate,
            achieved,
            intended,
            service,
            fraction,
            problem,
            stem,
            others,
            overall_latencies(self.repeat_dir, stem, quantiles, intended, True),
            overall_latencies(self.repeat_dir, stem, quantiles, service, False),
        )

    def finish(self) -> None:
        self.jvm.close()
        self.cell.repeats.append(self.records)
        self.cell.seconds = round(sum(r.seconds or 0 for r in self.records), 3)
        self.directory.mkdir(parents=True, exist_ok=True)
        (self.directory / "cell.json").write_text(json.dumps(self.cell.to_json(), indent=2) + "\n")
        if not self.options.keep_data:
            shutil.rmtree(self.data_dir, ignore_errors=True)


def first_built(repo: Path) -> str:
    """The first engine whose binding is built (its launcher runs the harness's do-nothing DB)."""
    return next((binding_of(e) for e in ENGINES if engine_is_built(repo, e)), ENGINES[0])


def request_logs(directory: Path, stem: str, intended: bool) -> list[Path]:
    """A step's HdrHistogram interval logs of the operations all operations together count (rate.in_overall):
    <stem>.Intended-<OPERATION>.hdr (intended time) or <stem>.<OPERATION>.hdr (service time), as YCSB writes them
    with measurement.interval=both and hdrhistogram.fileoutput=true, an interval per status line."""
    logs = []
    for path in hdr_logs(directory, stem):
        name = path.name[len(stem) + 1 : -len(".hdr")]
        if name.startswith(INTENDED_PREFIX) == intended and in_overall(name.removeprefix(INTENDED_PREFIX)):
            logs.append(path)
    return logs


def overall_latencies(
    directory: Path, stem: str, quantiles: list[float], per_operation: Latencies, intended: bool
) -> dict[str, float]:
    """All operations of a step together: each percentile of their logs merged (scale.merged_histogram), and the
    largest of their maxima (YCSB's own, exact); {} when the step left no readable log."""
    try:
        merged = merged_histogram(request_logs(directory, stem, intended))
    except UnreadableLog:
        return {}
    if merged is None:
        return {}
    found = {percentile_key(q): float(merged.get_value_at_percentile(q)) for q in quantiles}
    maxima = [v["max"] for name, v in per_operation.items() if in_overall(name) and "max" in v]
    if maxima:
        found["max"] = max(maxima)
    return found


def intended_timeline(directory: Path, stem: str) -> list[Second]:
    """A step's intended-time latency second by second, all operations together, from its interval logs."""
    return timeline(request_logs(directory, stem, intended=True))
