"""What a cell's steps are and how each is called: the launchers (our bin/ycsb, a peer's JVM), each step's
counts and -p properties in this mode (--quick, --full, --cap), and its command line."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from ..catalogue.engines import REGISTERED
from ..catalogue.keydraws import DEFAULT_LOAD_SEED, distinct_keys
from ..catalogue.model import ENGINE_PROPS, Scenario, Step, binding_of
from ..catalogue.own_workloads import SIZED_BY_WORKLOAD
from ..catalogue.scenarios import QUICK_TIMED_OPERATIONS, QUICK_TIMED_RECORDS
from ..catalogue.workloadfile import stacked_properties
from ..results.costs import StepShape, step_shape
from ..results.parse import (
    Expectation,
)
from .membudget import Controller
from .peers import (
    Peer,
    java_command,
    peer_properties,
    prepare_command,
)

# YCSB takes one exporter; this one (harness/) writes the JSON file and the usual text on stdout.
JSON_EXPORTER = "site.ycsb.embedded.TextAndJsonExporter"
# Given on bin/ycsb's command line, its launcher puts the binding inside the timing layer (NanoTimedDB),
# which writes the step's in-operation nanoseconds, open and close to this file.
TIMING_PROPERTY = "nanotimed.file"
# The project's driver (harness/, bin/ycsb's client) writes the step's operations every 100 ms to this file, which
# the report's steady check reads (steady.py).
INTERVALS_PROPERTY = "intervals.file"


def engine_is_built(repo: Path, engine: str) -> bool:
    """The same test bin/ycsb makes: a built source module or a distribution's lib directory."""
    module = repo / REGISTERED.module_of(binding_of(engine))
    return (module / "target" / "lib").is_dir() or (module / "lib").is_dir()


def our_classpath(repo: Path, binding: str) -> str | None:
    """The -cp bin/ycsb gives the JVM of a bin/ycsb engine (from its module: REGISTERED.module_of), or None when
    it is not built: a source checkout's target/classes and target/lib, or a distribution's lib directories."""
    module = repo / REGISTERED.module_of(binding)
    if (module / "target" / "lib").is_dir():
        parts = [module / "target" / "classes", module / "target" / "lib" / "*"]
    elif (module / "lib").is_dir():
        parts = [repo / "lib" / "*", module / "lib" / "*"]
    else:
        return None
    return os.pathsep.join(str(p) for p in parts)


WARMUP_SECONDS = "warmup.seconds"  # harness/.../Warmup.java
WARMUP_OPERATIONS = "warmup.operations"
WARMUP_OPERATIONS_DEFAULT = 200_000
VERBOSE = "verbose"  # common/.../StartupLines.java: a binding prints every start-up line


@dataclass(frozen=True)
class RunOptions:
    repo: Path
    out: Path
    workloads: Path
    data: Path
    quick: bool = True
    repeat: int = 1
    cap: int | None = None  # smoke tests: no count above this
    step_timeout: float | None = None
    keep_data: bool = False
    exporter: str = "json"  # "json": measurements in <step>.json; "text": on stdout
    ycsb: Path | None = None  # the launcher; default <repo>/bin/ycsb
    peers: Mapping[str, Peer] = field(default_factory=dict)  # engine -> an upstream YCSB tree's binding
    memory: int | None = None  # --memory: each step's JVM in a memory cgroup of this many bytes
    controller: Controller | None = None  # where those cgroups are made (membudget.find_controller)
    warmup_seconds: float | None = None  # the launcher's warm-up per measured step (None: its default, 2 s)
    # Each repeat of a cell in one JVM of the driver (celljvm.py): no JVM start and no second warm-up per step.
    # A peer's cells and a memory budget's (a cgroup and a cold page cache per step) keep a JVM per step.
    one_jvm: bool = True
    # --quick: each measured step runs this long (its counts a ceiling), so that its 100 ms intervals show whether it
    # was steady; 0: the quick counts (the default with --cap, whose smoke runs stay short)
    quick_seconds: float = 0.0

    @property
    def launcher(self) -> Path:
        return self.ycsb or self.repo / "bin" / "ycsb"

    def launcher_for(self, engine: str, binding: str | None = None) -> Launcher:
        """The launcher of a cell; `binding`: the bin/ycsb engine a scenario names (Scenario.binding_for)."""
        peer = self.peers.get(engine)
        return PeerLauncher(peer) if peer else OurLauncher(self.launcher, engine, binding)


class Launcher(Protocol):
    """How a cell's step starts its JVM: our bin/ycsb, or an upstream YCSB tree's classpath."""

    def prefix(self, phase: str) -> list[str]:
        """The command up to YCSB's own options (-P, -p, -s)."""
        ...

    def extra_properties(self, data_dir: Path) -> dict[str, str]:
        """-p properties given after the suite's own (they win)."""
        ...

    def timed(self) -> bool:
        """Whether the step's DB runs inside our timing layer (nanotimed.file is then given)."""
        ...

    def prepare(self, data_dir: Path, workload_props: Mapping[str, str]) -> list[str] | None:
        """The command that readies a repeat's fresh data directory before its first step, or None."""
        ...


@dataclass(frozen=True)
class OurLauncher:
    path: Path
    engine: str
    binding: str | None = None  # the bin/ycsb engine; None: binding_of(engine)

    def prefix(self, phase: str) -> list[str]:
        return [str(self.path), phase, self.binding or binding_of(self.engine)]

    def extra_properties(self, data_dir: Path) -> dict[str, str]:
        # every start-up line: the first screen leaves out the properties at their defaults, which the report reads
        return {VERBOSE: "true"}

    def timed(self) -> bool:
        return True

    def prepare(self, data_dir: Path, workload_props: Mapping[str, str]) -> list[str] | None:
        return None


@dataclass(frozen=True)
class PeerLauncher:
    peer: Peer

    def prefix(self, phase: str) -> list[str]:
        return java_command(self.peer, phase)

    def extra_properties(self, data_dir: Path) -> dict[str, str]:
        return peer_properties(self.peer, data_dir)

    def timed(self) -> bool:
        return self.peer.common_jar is not None  # java_command wraps its DB in our timing layer

    def prepare(self, data_dir: Path, workload_props: Mapping[str, str]) -> list[str] | None:
        return prepare_command(self.peer, data_dir, workload_props)


@dataclass
class ResolvedStep:
    step: Step
    index: int
    recordcount: int
    operationcount: int
    props: dict[str, str]
    expectation: Expectation
    shape: StepShape | None = None  # bytes of user data one insert / update writes; client threads
    nominal: int | None = None  # a timed quick step: the operations it would have counted (an elapsed time's unit)

    @property
    def file_stem(self) -> str:
        return f"{self.index:02d}-{self.step.name}"


def _count(value: str | None, what: str, files: list[str]) -> int:
    if value is None:
        raise ValueError(f"the workload files {', '.join(files)} set no {what}")
    return int(float(value))


def resolve_step(
    step: Step,
    index: int,
    scenario: Scenario,
    file_props: dict[str, str],
    quick: bool,
    cap: int | None,
    seconds: float | None = None,
) -> ResolvedStep:
    """The counts and -p properties of one step in this mode (pure). `seconds`: the step is timed (a measured
    step of --quick, quick_timed), its counts only a ceiling; its "{recordcount}" and "{operationcount}" in
    props (a batch size) stay the counts it would have run, and so does its figure's nominal count."""
    files = list(step.workloads)
    records = step.records
    operations = None
    if quick:
        records = records or step.quick_records or scenario.quick_records
        operations = step.quick_operations or scenario.quick_operations
    records = records or _count(file_props.get("recordcount"), "recordcount", files)
    operations = operations or _count(file_props.get("operationcount"), "operationcount", files)
    nominal_records, nominal_operations = records, operations
    if seconds is not None:
        step = replace(step, seconds=seconds)
        if step.phase == "load":  # the key space of a fill that draws its keys, and the most it may insert
            full = step.records or _count(file_props.get("recordcount"), "recordcount", files)
            records = max(records, full, QUICK_TIMED_RECORDS)
        else:
            operations = QUICK_TIMED_OPERATIONS
    if cap is not None:
        records, operations = min(records, cap), min(operations, cap)
        nominal_records, nominal_operations = min(nominal_records, cap), min(nominal_operations, cap)
    operations *= step.operation_scale
    nominal_operations *= step.operation_scale
    props = {
        name: value.format(recordcount=nominal_records, operationcount=nominal_operations) for name, value in step.props
    }
    if step.phase == "load":
        expected = int(props.get("insertcount", file_props.get("insertcount", records)))
    else:
        expected = operations
    # A fill that drew its keys with replacement left fewer than `records`: passes count those, and
    # uniform reads find their key in that share.
    loaded = records
    if scenario.keys_drawn and step.phase == "run":
        loaded = distinct_keys(records, int(file_props.get("loadseed", DEFAULT_LOAD_SEED)))
    readseq = None
    if step.phase == "run" and float(file_props.get("readseqproportion", "0") or 0) == 1.0:
        readseq = loaded * operations
    if step.seconds is not None:
        props[MAX_EXECUTION_TIME] = f"{step.seconds:g}"
    found_share = loaded / records if "NOT_FOUND" in step.allowed_returns and scenario.keys_drawn else None
    seen = {**file_props, **props}
    # A trace's or the model's record sizes are its own, not fieldcount x fieldlength: no user bytes to divide by,
    # so no amplification (a 10-line trace showed 2,298x write amplification against the file's 1 KB records).
    shape = None if seen.get("workload", "").strip() in SIZED_BY_WORKLOAD else step_shape(seen)
    expectation = Expectation(
        expected, step.allowed_returns, readseq, found_share, timed=step.seconds is not None, traced=step.traced
    )
    nominal = (nominal_records if step.phase == "load" else nominal_operations) if seconds is not None else None
    return ResolvedStep(step, index, records, operations, props, expectation, shape, nominal)


# YCSB's time limit in seconds and its rate in operations a second (-target); the driver also takes a fraction
# of each (harness/.../Step.java), YCSB's Client does not.
MAX_EXECUTION_TIME = "maxexecutiontime"
TARGET = "target"


def driver_client(launcher: Launcher) -> bool:
    """Whether the step's client is bin/ycsb's driver, which writes interval records (intervals.file) and takes a
    fraction in maxexecutiontime and target: with YCSB_CLIENT=upstream YCSB's own Client does neither (and the
    launcher would say so of the property), nor does a peer's."""
    return isinstance(launcher, OurLauncher) and os.environ.get("YCSB_CLIENT", "driver") == "driver"


def whole_target(value: str) -> str:
    """A rate as YCSB's Client reads it, a whole number: '1500.7' -> '1501'; a positive rate at least 1. A value
    that is no positive number is left as it is, for the launcher's check to refuse by name (or 0: no target)."""
    try:
        rate = float(value)
    except ValueError:
        return value
    return str(max(1, round(rate))) if 0 < rate < math.inf else value


def ycsb_command(
    launcher: Path | Launcher,
    engine: str,
    workload_files: list[Path],
    resolved: ResolvedStep,
    data_dir: Path,
    export_file: Path | None,
    hdr_prefix: Path | None = None,
    timing_file: Path | None = None,
    warmup_seconds: float | None = None,
    intervals_file: Path | None = None,
) -> list[str]:
    """The YCSB call of a step (bin/ycsb, or a peer's JVM); export_file None keeps YCSB's text output on stdout;
    hdr_prefix: where YCSB writes its HdrHistogram logs (<prefix><OPERATION>.hdr) when a workload asks for them;
    timing_file: where our launcher's timing layer writes the operations' nanoseconds apart from the open and
    close (harness/.../NanoTimedDB.java; a peer's JVM has it only with our jars on its classpath);
    intervals_file: where the driver records the step's operations every 100 ms (bin/ycsb's only)."""
    if isinstance(launcher, Path):
        launcher = OurLauncher(launcher, engine)
    command = launcher.prefix(resolved.step.phase)
    if resolved.step.heap and isinstance(launcher, OurLauncher):  # bin/ycsb passes JAVA_OPTS to java
        command = ["env", f"JAVA_OPTS={os.environ.get('JAVA_OPTS', '')} -Xmx{resolved.step.heap}".strip(), *command]
    for f in workload_files:
        command += ["-P", str(f)]
    props = {
        "path": str(data_dir),
        "recordcount": str(resolved.recordcount),
        "operationcount": str(resolved.operationcount),
        **dict(ENGINE_PROPS.get(engine, ())),
        **resolved.props,
        **({"exporter": JSON_EXPORTER, "exportfile": str(export_file)} if export_file else {}),
        **({"hdrhistogram.output.path": str(hdr_prefix)} if hdr_prefix else {}),
        **({TIMING_PROPERTY: str(timing_file)} if timing_file and launcher.timed() else {}),
        **({INTERVALS_PROPERTY: str(intervals_file)} if intervals_file and driver_client(launcher) else {}),
        "status.interval": "1",
        **launcher.extra_properties(data_dir),
    }
    if MAX_EXECUTION_TIME in props and not driver_client(launcher):  # YCSB's Client reads whole seconds only
        props[MAX_EXECUTION_TIME] = str(math.ceil(float(props[MAX_EXECUTION_TIME])))
    if TARGET in props and not driver_client(launcher):  # and whole operations a second
        props[TARGET] = whole_target(props[TARGET])
    # The launcher warms the JIT up on a scratch database before each phase (harness/.../Warmup.java): a step
    # whose figure is not reported needs none, and the suite may ask for a shorter one (--warmup-seconds).
    warmup = 0.0 if not resolved.step.measured else warmup_seconds
    if warmup is not None and WARMUP_SECONDS not in resolved.props:
        props[WARMUP_SECONDS] = f"{warmup:g}"
    if warmup != 0 and WARMUP_OPERATIONS not in resolved.props:  # the warm-up's cap, not bounded by a short phase
        props[WARMUP_OPERATIONS] = str(WARMUP_OPERATIONS_DEFAULT)
    for name, value in props.items():
        command += ["-p", f"{name}={value}"]
    return command + ["-s"]


def quick_timed(steps: list[Step], i: int, seconds: float) -> float | None:
    """The time of the i-th step (from 0) in a --quick run timed by `seconds` (0: none), or None for a step that
    keeps its counts: a set-up step, one that opts out (quick_timed), one timed already, and a load a later run
    reads (its records are that run's; a timed load's count depends on the engine's speed) (pure)."""
    step = steps[i]
    if seconds <= 0 or not step.measured or not step.quick_timed or step.seconds is not None or step.traced:
        return None
    if step.phase == "load" and any(s.phase == "run" for s in steps[i + 1 :]):
        return None
    return seconds


def plan_steps(options: RunOptions, scenario: Scenario) -> list[ResolvedStep]:
    steps = [s for s in scenario.steps if options.quick is False or s.in_quick]
    resolved = []
    for i, step in enumerate(steps, start=1):
        props = stacked_properties([options.workloads / f for f in step.workloads])
        seconds = quick_timed(steps, i - 1, options.quick_seconds) if options.quick else None
        resolved.append(resolve_step(step, i, scenario, props, options.quick, options.cap, seconds))
    return resolved
