"""Runs cells (one engine x one scenario): each step one `bin/ycsb` JVM, a fresh data directory
per cell, every raw output kept, and a cell.json that says what ran and whether it worked.

Layout of a results directory:
    suite.json, machine.json
    <engine>/<scenario>/cell.json
    <engine>/<scenario>/r<repeat>/<NN>-<step>.txt   YCSB's stdout: its text results (both exporters)
                                  <NN>-<step>.err   its stderr (binding start-up, -s status lines)
                                  <NN>-<step>.json  the JSON exporter's measurements
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..catalogue.engines import REGISTERED
from ..catalogue.keydraws import DEFAULT_LOAD_SEED, distinct_keys
from ..catalogue.model import Scenario, binding_of
from ..catalogue.workloadfile import stacked_properties
from ..results.costs import StepShape
from ..results.engine_lines import parse_engine_banner
from ..results.parse import (
    find_error_lines,
    parse_warmup_costs,
    parse_ycsb_output,
    step_problems,
    traced_expectation,
)
from .celljvm import CellJvm, CellJvms, one_jvm
from .membudget import BudgetUsage, StepGroup, evict_directory, oom_problem
from .peers import (
    EMBEDDED_WORKLOAD,
    LOAD_REPEATS,
    Peer,
    insert_only,
    our_binding_properties,
    workload_class_properties,
)
from .plan import (
    ResolvedStep,
    RunOptions,
    engine_is_built,
    plan_steps,
    ycsb_command,
)
from .resources import (
    DiskSize,
    MachineCpu,
    ProcessUsage,
    disk_size,
    flush_directory,
    machine_cpu,
    read_busy_cpu_ticks,
    run_measured,
)


@dataclass
class StepRecord:
    name: str
    phase: str
    variant: str
    measured: bool
    workloads: list[str]
    command: list[str]
    recordcount: int
    operationcount: int
    expected_operations: int
    allowed_returns: list[str]
    readseq_entries: int | None
    stdout: str
    stderr: str
    json: str
    exit_code: int | None = None
    seconds: float | None = None
    problems: list[str] = field(default_factory=list)
    resources: dict | None = None  # what the step cost: CPU, memory, bytes written, size on disk (costs.py)
    timing: str | None = None  # <NN>-<step>.timing.json: the timing layer's file (parse.parse_operation_times)
    nominal_operations: int | None = None  # a timed quick step: what it would have counted (ResolvedStep.nominal)


@dataclass
class CellRecord:
    engine: str
    scenario: str
    status: str = "ok"  # "ok" or "failed"
    error: str | None = None
    seconds: float = 0.0
    repeats: list[list[StepRecord]] = field(default_factory=list)
    engine_version: str | None = None
    host: str = field(default_factory=socket.gethostname)
    # A peer: its workload files' properties that only our workload class reads (in effect: the class
    # ran on the peer's classpath) and those only our bindings read (the peer ignored them).
    workload_class_properties: dict[str, str] = field(default_factory=dict)
    ignored_properties: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # how the cell was adapted to its engine, in words

    def to_json(self) -> dict:
        return asdict(self)


def cell_dir(out: Path, engine: str, scenario_id: str) -> Path:
    return out / engine / scenario_id


def precheck_cell(options: RunOptions, engine: str, scenario: Scenario) -> str | None:
    """Why a cell cannot run at all, or None."""
    if not scenario.runs_on(engine):
        return f"scenario {scenario.id} does not apply to {engine}"
    peer = options.peers.get(engine)
    if peer is not None:
        reason = peer.unavailable()
        if reason:
            return reason
    elif not engine_is_built(options.repo, engine):
        binding = binding_of(engine)
        module = REGISTERED.module_of(binding)
        return f"the {binding} binding is not built ({module}/target/lib missing; run mvn package)"
    missing = [f for f in scenario.workload_files() if not (options.workloads / f).is_file()]
    if missing:
        shown = (f if Path(f).is_absolute() else f"workloads/{f}" for f in missing)
        return f"workload file(s) missing: {', '.join(shown)}"
    return None


def peer_skip_reason(options: RunOptions, engine: str, scenario: Scenario) -> str | None:
    """Why a peer's cell is skipped: its workload files need our workload class, which only this
    project's common jar holds, and none was found to put beside core."""
    peer = options.peers.get(engine)
    if peer is None or peer.common_jar is not None:
        return None
    needing = [
        f
        for f in scenario.workload_files()
        if stacked_properties([options.workloads / f]).get("workload") == EMBEDDED_WORKLOAD
    ]
    if not needing:
        return None
    return (
        f"skipped: {', '.join(needing)} use {EMBEDDED_WORKLOAD}, which is in this project's common jar, "
        f"and none was found to put beside {peer.binding}'s core (build it: mvn -q -DskipTests package)"
    )


def note_peer_properties(cell: CellRecord, options: RunOptions, steps: list[ResolvedStep]) -> None:
    """What of our workload files a peer's cell used (our workload class's properties) and ignored."""
    for resolved in steps:
        props = stacked_properties([options.workloads / f for f in resolved.step.workloads])
        cell.workload_class_properties.update(workload_class_properties(props))
        cell.ignored_properties.update(our_binding_properties({**props, **resolved.props}))


def repeats_as_updates(options: RunOptions, engine: str, steps: list[ResolvedStep]) -> list[str]:
    """A peer whose insert is not an upsert, on a fill that draws its keys with replacement: each key's later
    draws go to it as updates (loadrepeats=update), set on those steps; what was done, in words (one note per
    step), or nothing for any other cell."""
    peer = options.peers.get(engine)
    why = insert_only(peer) if peer is not None else None
    if why is None:
        return []
    notes = []
    for resolved in steps:
        props = {**stacked_properties([options.workloads / f for f in resolved.step.workloads]), **resolved.props}
        if resolved.step.phase != "load" or props.get("loadorder") != "replacement":
            continue
        resolved.props[LOAD_REPEATS] = "update"
        records = resolved.recordcount
        repeats = records - distinct_keys(records, int(props.get("loadseed", DEFAULT_LOAD_SEED)))
        notes.append(
            f"{resolved.step.name}: the fill draws its {records:,} keys with replacement, as db_bench does, and "
            f"{why}: each key's first draw was inserted and its later draws ({repeats:,}) were sent as updates "
            f"({LOAD_REPEATS}=update); the store ends with the same keys"
        )
    return notes


# The launcher's warning for a property no part of the run reads (harness/.../Preflight.java), and our bindings'
# older one at open for an engine-prefixed property they do not read (common/.../DatabaseOpening.java).
UNKNOWN_PROPERTY = re.compile(
    r"WARNING: (?:unknown property (\S+) is ignored|property (\S+) = '.*' is read by no part of this run)"
)


def unhonoured_notes(step: str, engine: str, stderr: str) -> list[str]:
    """The properties a step's binding said it ignored (a typo, or a knob it lacks), as the cell's notes (pure)."""
    names = dict.fromkeys(a or b for a, b in UNKNOWN_PROPERTY.findall(stderr))
    return [f"{step}: {engine} ignored {name}, a property its binding does not have" for name in names]


def run_process(command: list[str], stdout: Path, stderr: Path, cwd: Path, timeout: float | None) -> tuple[int, bool]:
    """Runs one JVM with its output going to files; (exit code, timed out)."""
    code, timed_out, _ = run_measured(command, stdout, stderr, cwd, timeout)
    return code, timed_out


def describe_peer_version(peer: Peer) -> str:
    return f"YCSB {peer.version} binding {peer.binding} ({peer.binding_class}), from {peer.ycsb_home}"


def prepare_store(
    options: RunOptions, engine: str, first: ResolvedStep, repeat_dir: Path, data_dir: Path
) -> str | None:
    """Readies a repeat's fresh data directory when its launcher needs to (a JDBC peer's table); why it failed."""
    workload_props = {**stacked_properties([options.workloads / f for f in first.step.workloads]), **first.props}
    command = options.launcher_for(engine).prepare(data_dir, workload_props)
    if command is None:
        return None
    stdout, stderr = repeat_dir / "00-prepare.txt", repeat_dir / "00-prepare.err"
    try:
        code, timed_out = run_process(command, stdout, stderr, options.repo, options.step_timeout)
    except OSError as e:
        return f"cannot start {command[0]}: {e.strerror or e}"
    if code == 0 and not timed_out:
        return None
    said = (stderr.read_text(errors="replace") + stdout.read_text(errors="replace")).strip().splitlines()
    main_class = command[command.index("-cp") + 2]
    return f"preparing the store with {main_class} failed, exit {code}: " + (" / ".join(said[:3]) or "no output")


def cell_line(command: list[str], phase: str, stdout: Path, stderr: Path) -> str:
    """A step's line for the cell's JVM (`bin/ycsb cell <engine> -`): its output files and bin/ycsb's arguments
    after `load|run <engine>`, with the phase as YCSB's option (pure)."""
    start = command.index(phase) + 2  # bin/ycsb load <engine> ...
    args = ["-load" if phase == "load" else "-t", *command[start:]]
    if any("\t" in a or "\n" in a for a in args):
        raise ValueError(f"a step's argument holds a tab or a newline: {args}")
    return "\t".join([str(stdout), str(stderr), *args])


def run_step(
    options: RunOptions,
    engine: str,
    resolved: ResolvedStep,
    repeat_dir: Path,
    data_dir: Path,
    binding: str | None = None,
    jvm: Callable[[], CellJvm] | None = None,
) -> StepRecord:
    """Runs one step in a JVM of its own, or with `jvm` in the cell's JVM (made on the first call)."""
    stem = resolved.file_stem
    stdout, stderr, export, timing = (repeat_dir / f"{stem}.{ext}" for ext in ("txt", "err", "json", "timing.json"))
    timing.unlink(missing_ok=True)  # a file from an earlier attempt is not this step's
    (repeat_dir / f"{stem}.intervals.csv").unlink(missing_ok=True)
    files = [options.workloads / f for f in resolved.step.workloads_for(engine)]
    command = ycsb_command(
        options.launcher_for(engine, binding),
        engine,
        files,
        resolved,
        data_dir,
        export if options.exporter == "json" else None,
        repeat_dir / f"{stem}." if resolved.step.seconds is not None else None,
        timing,
        options.warmup_seconds,
        repeat_dir / f"{stem}.intervals.csv",
    )
    stdout_name, stderr_name, json_name = (str(p.relative_to(options.out)) for p in (stdout, stderr, export))
    record = StepRecord(
        resolved.step.name,
        resolved.step.phase,
        resolved.step.variant,
        resolved.step.measured,
        list(resolved.step.workloads),
        command,
        resolved.recordcount,
        resolved.operationcount,
        resolved.expectation.operations,
        sorted(resolved.expectation.allowed_returns),
        resolved.expectation.readseq_entries,
        stdout_name,
        stderr_name,
        json_name,
        timing=str(timing.relative_to(options.out)),
        nominal_operations=resolved.nominal,
    )
    group = None
    if options.memory is not None and options.controller is not None:
        # Cold start inside the budget: the pages earlier steps left cached are written back and dropped.
        evict_directory(data_dir)
        group = StepGroup(options.controller, options.memory)
        try:
            group.create()
        except OSError as e:
            record.problems.append(f"cannot make the step's memory cgroup {group.path}: {e.strerror or e}")
            return record
        command = group.wrap(command)
        record.command = command
    else:
        flush_directory(data_dir)  # the previous step's dirty pages, rewritten now, must count as this step's writes
    cpu_before = read_busy_cpu_ticks()
    start = time.monotonic()
    try:
        timeout = step_timeout(options.step_timeout, resolved.step.seconds)
        sample = group.sample if group is not None else None  # a systemd scope is read while it lives
        if jvm is not None:
            line = cell_line(command, resolved.step.phase, stdout, stderr)
            code, timed_out, usage = jvm().step(line, timeout)
        else:
            code, timed_out, usage = run_measured(command, stdout, stderr, options.repo, timeout, sample)
        budget = group.usage() if group is not None else None
    except OSError as e:  # no launcher, not executable: this cell fails, the matrix goes on
        record.problems.append(f"cannot start {command[0]}: {e.strerror or e}")
        return record
    finally:  # also on Ctrl-C: no step's group is left behind
        if group is not None:
            group.remove()
    record.seconds = round(time.monotonic() - start, 3)
    cpu = machine_cpu(cpu_before, read_busy_cpu_ticks(), usage.cpu_seconds if usage else None, record.seconds)
    record.resources = step_resources(usage, disk_size(data_dir), resolved.shape, cpu, budget)
    record.exit_code = code
    out_text, err_text = stdout.read_text(errors="replace"), stderr.read_text(errors="replace")
    record.resources.update(parse_warmup_costs(err_text))  # costs.py takes the warm-up out of the step's costs
    json_text = export.read_text(errors="replace") if export.exists() else None
    try:
        output = parse_ycsb_output(out_text, json_text)
    except ValueError as e:  # a JSON file cut short by a killed JVM
        output = parse_ycsb_output(out_text)
        record.problems.append(f"unreadable JSON export: {e}")
    expectation = resolved.expectation
    if expectation.traced:  # a trace replay ends with its trace: what it did is what its [TRACE] line says
        expectation, traced = traced_expectation(expectation, resolved.step.phase, err_text)
        record.expected_operations = expectation.operations
        record.problems += traced
    record.problems += step_problems(output, code, find_error_lines(out_text, err_text), expectation)
    if timed_out:
        record.problems.insert(0, f"timed out after {timeout:g} s")
    killed = oom_problem(budget, code) if budget is not None and not timed_out else None
    if killed:
        record.problems.insert(0, killed)
    return record


# A timed step ends its operations at its time, then closes the engine, which may write back what it
# holds (Kyoto's page cache, a memtable): that close gets this long past the time before --step-timeout.
CLOSE_SECONDS = 600.0


def step_timeout(timeout: float | None, seconds: float | None) -> float | None:
    """The kill timeout of a step: --step-timeout, or for a timed step at least its time plus CLOSE_SECONDS."""
    if timeout is None or seconds is None:
        return timeout
    return max(timeout, seconds + CLOSE_SECONDS)


def step_resources(
    usage: ProcessUsage | None, disk: DiskSize | None, shape: StepShape | None, *more: MachineCpu | BudgetUsage | None
) -> dict:
    """cell.json's record of what a step cost: the fields of ProcessUsage, DiskSize, StepShape and the
    other dataclasses given (the machine's busy CPU, the memory budget's usage)."""
    resources: dict = {}
    for part in (usage, disk, shape, *more):
        if part is not None:
            resources.update(asdict(part))
    return resources


def run_cell(
    options: RunOptions,
    engine: str,
    scenario: Scenario,
    on_progress: Callable[[str, float], None] = lambda label, done: None,
) -> CellRecord:
    """Runs one cell (all repeats) and writes its cell.json; never raises for a failing engine.

    on_progress(label, done) tells what is running and how much of the cell's weight is done.
    """
    directory = cell_dir(options.out, engine, scenario.id)
    directory.mkdir(parents=True, exist_ok=True)
    cell = CellRecord(engine, scenario.id)
    start = time.monotonic()
    reason = precheck_cell(options, engine, scenario)
    steps: list[ResolvedStep] = []
    if reason is None:
        try:
            steps = plan_steps(options, scenario)
        except (ValueError, OSError) as e:
            reason = str(e)
    if reason is None:
        reason = peer_skip_reason(options, engine, scenario)
        skipped = reason is not None
    else:
        skipped = False
    if reason is not None:
        cell.status, cell.error = ("skipped" if skipped else "failed"), reason
    elif engine in options.peers:
        cell.notes += repeats_as_updates(options, engine, steps)
        note_peer_properties(cell, options, steps)
        cell.engine_version = describe_peer_version(options.peers[engine])
    done = 0.0
    for repeat in range(1, options.repeat + 1):
        if cell.status != "ok":
            break
        repeat_dir = directory / f"r{repeat}"
        repeat_dir.mkdir(parents=True, exist_ok=True)
        data_dir = options.data / engine / scenario.id / f"r{repeat}"
        shutil.rmtree(data_dir, ignore_errors=True)
        data_dir.mkdir(parents=True)
        records = []
        unprepared = prepare_store(options, engine, steps[0], repeat_dir, data_dir) if steps else None
        if unprepared:
            cell.status, cell.error = "failed", unprepared
        jvm = CellJvms(options, engine, scenario, steps, repeat_dir) if one_jvm(options, engine) else None
        try:
            for resolved in [] if unprepared else steps:
                step = resolved.step
                on_progress(
                    f"{step.phase} {'+'.join(step.workloads)}{' ' + step.variant if step.variant else ''}"
                    f"{f' (repeat {repeat})' if options.repeat > 1 else ''}",
                    done,
                )
                record = run_step(
                    options,
                    engine,
                    resolved,
                    repeat_dir,
                    data_dir,
                    scenario.binding_for(engine),
                    jvm.get if jvm else None,
                )
                records.append(record)
                done += step_weight(resolved)
                err_file = options.out / record.stderr
                stderr_text = err_file.read_text(errors="replace") if err_file.is_file() else ""
                for note in unhonoured_notes(record.name, engine, stderr_text):
                    if note not in cell.notes:  # once per cell, not per repeat
                        cell.notes.append(note)
                if record.problems:
                    cell.status = "failed"
                    which = f"{record.name}{f' (repeat {repeat})' if options.repeat > 1 else ''}"
                    cell.error = f"{which}: {'; '.join(record.problems)}"
                    break
                if cell.engine_version is None:
                    cell.engine_version = parse_engine_banner(stderr_text, engine).version
        except BaseException:  # Ctrl-C: no cell JVM is left running
            if jvm is not None:
                jvm.kill()
            raise
        if jvm is not None:
            jvm.close()
        cell.repeats.append(records)
        if not options.keep_data:
            shutil.rmtree(data_dir, ignore_errors=True)
    cell.seconds = round(time.monotonic() - start, 3)
    (directory / "cell.json").write_text(json.dumps(cell.to_json(), indent=2) + "\n")
    return cell


# A JVM start costs about as much as 50,000 small operations: weights for the ETA.
JVM_WEIGHT = 1.0
OPERATIONS_PER_WEIGHT = 50_000
SECONDS_PER_WEIGHT = 1.0


def step_weight(resolved: ResolvedStep) -> float:
    work = resolved.recordcount if resolved.step.phase == "load" else resolved.operationcount
    if resolved.expectation.readseq_entries:
        work = resolved.expectation.readseq_entries
    weight = work / OPERATIONS_PER_WEIGHT
    if resolved.step.seconds is not None:  # a timed step lasts at most its time (a weight is about a second)
        weight = min(weight, resolved.step.seconds / SECONDS_PER_WEIGHT)
    return JVM_WEIGHT + weight


def cell_weight(options: RunOptions, engine: str, scenario: Scenario) -> float:
    """The cell's expected cost for the ETA; a cell that cannot run costs almost nothing."""
    if precheck_cell(options, engine, scenario) is not None:
        return 0.01
    try:
        steps = plan_steps(options, scenario)
    except (ValueError, OSError):
        return 0.01
    return options.repeat * sum(step_weight(s) for s in steps)


def load_cell(out: Path, engine: str, scenario_id: str) -> dict | None:
    path = cell_dir(out, engine, scenario_id) / "cell.json"
    return json.loads(path.read_text()) if path.is_file() else None
