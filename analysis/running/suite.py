"""Runs engines x scenarios, then renders the report; prints the report's path last.

python -m analysis run --quick                       every scenario on every engine, scaled down
python -m analysis run --full --engines leveldb      the published counts
python -m analysis run --quick --scenarios baseline --repeat 3 --out results/base
python -m analysis run --ycsb-home ~/ycsb-0.17.0 --peer rocksdb --peer basic:basicdb.verbose=false
                                                     upstream YCSB bindings as rows of their own
python -m analysis run --shard 2/4                   the second of four disjoint parts of the matrix
python -m analysis run --shard auto                  the part a Kubernetes Indexed Job or Slurm array gave it
python -m analysis run --workload my.properties      your own YCSB workload file: a load, then a run, on every engine
python -m analysis list [--scenarios NAME ...]       the catalogue
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from ..catalogue.scenarios import (
    ENGINES,
    QUICK_STEP_SECONDS,
    SCALE,
    SCALE_LOAD_MIN_SECONDS,
    SCALE_LOAD_RATE,
    SCALE_RECORDS,
    SCALE_STEP_SECONDS,
    SCALE_SUSTAINED_SECONDS,
    SCALE_THREAD_SECONDS,
    SCALE_THREADS,
    SCENARIO_GROUPS,
    SCENARIOS,
    ScaleSettings,
    Scenario,
    binding_of,
    own_scenario,
    register_own,
    scale_scenarios,
    select_engines,
    select_scenarios,
)
from ..catalogue.workloadfile import (
    WorkloadFile,
    WorkloadFileRefused,
    check_workload_file,
    describe,
    keep_copies,
    refuse_clashes,
    refuse_unloadable,
)
from ..report.findings import MARGIN_REPEATS, MARGIN_SCENARIOS
from ..results.crash import failures
from ..results.noise import NOISE_REPEATS, probe_cells
from .crash import CrashOptions, check_and_report
from .machine import collect_machine_info
from .membudget import BudgetRefused, Controller, find_controller, parse_budget
from .peers import Peer, find_common_jar, make_peers
from .progress import ProgressBar, format_duration
from .runner import RunOptions, cell_weight, engine_is_built, our_classpath, run_cell

REPO = Path(__file__).resolve().parents[2]
# The quick run's warm-up per measured step: about 300 JVMs each paying the launcher's 2 s (and up to 1 s of
# waiting for the JIT to go quiet) would take the quick run far past its 10 minutes; what 0.5 s leaves cold
# is in docs/performance.md ("The warm-up").
QUICK_WARMUP_SECONDS = 0.5


def quick_seconds(asked: float | None, cap: int | None) -> float:
    """--quick's time per measured step: as asked, else QUICK_STEP_SECONDS, or 0 under --cap (a smoke run)."""
    if asked is not None:
        return asked
    return 0.0 if cap is not None else QUICK_STEP_SECONDS


def split_names(values: list[str] | None) -> list[str] | None:
    """`--engines a,b c` -> [a, b, c]."""
    if not values:
        return None
    return [name for value in values for name in value.split(",") if name]


SCENARIOS_HELP = "scenario ids, section ids (2B), groups (" + ", ".join(SCENARIO_GROUPS) + ") or patterns"


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m analysis run", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="scaled-down counts (the default)")
    mode.add_argument("--full", action="store_true", help="the workload files' own (published) counts")
    p.add_argument(
        "--engines",
        nargs="+",
        metavar="ENGINE",
        help=f"engines to run (default: {' '.join(ENGINES)}; none: only the --peer bindings)",
    )
    p.add_argument("--scenarios", nargs="+", metavar="NAME", help=SCENARIOS_HELP)
    p.add_argument(
        "--workload",
        action="append",
        default=[],
        type=Path,
        metavar="FILE",
        help="your own YCSB workload file (repeatable): a scenario named after the file, a load then a run on "
        "every engine; refused before anything runs when it does not parse, names no workload class on the "
        "classpath, or lacks recordcount or operationcount. Without --scenarios, only these run",
    )
    p.add_argument(
        "--repeat",
        type=int,
        metavar="N",
        help=f"run every cell N times; report medians and min-max (default 1; with --full, "
        f"{MARGIN_REPEATS} for the cells a finding decides by a margin: {', '.join(MARGIN_SCENARIOS)})",
    )
    p.add_argument(
        "--noise-repeats",
        type=int,
        default=NOISE_REPEATS,
        metavar="N",
        help=f"run the cells that measure this machine's run-to-run spread (one per kind of step) N times "
        f"(default {NOISE_REPEATS}; 1: none)",
    )
    p.add_argument("--out", type=Path, help="results directory (default: results/<time>-<mode>)")
    p.add_argument("--data-dir", type=Path, help="where cells keep their databases (default: <out>/data)")
    p.add_argument("--workloads", type=Path, default=REPO / "workloads", help="workload files directory")
    p.add_argument("--cap", type=int, metavar="N", help="no record or operation count above N (smoke tests)")
    p.add_argument(
        "--step-timeout",
        type=float,
        metavar="SECONDS",
        help="kill a step running longer (default: 600 with --quick, none with --full)",
    )
    p.add_argument(
        "--jvm-per-step",
        action="store_true",
        help="start a JVM for every step, as before the driver (default: each repeat of a cell in one JVM of the "
        "driver, warmed once per kind of step; a peer's cells and a --memory budget's always run a JVM per step)",
    )
    p.add_argument(
        "--quick-seconds",
        type=float,
        metavar="SECONDS",
        help=f"--quick: how long each measured step runs, its counts only a ceiling (default: {QUICK_STEP_SECONDS:g}, "
        "enough 100 ms intervals for the steady check; with --cap, 0); 0: the quick counts",
    )
    p.add_argument(
        "--warmup-seconds",
        type=float,
        metavar="SECONDS",
        help="the launcher's JIT warm-up before each measured step, on a scratch database (default: "
        f"{QUICK_WARMUP_SECONDS:g} with --quick, the launcher's 2 with --full; 0: off)",
    )
    p.add_argument(
        "--exporter",
        choices=("json", "text"),
        default="json",
        help="json (default): YCSB's measurements as a JSON file and as text on stdout; text: on stdout only",
    )
    p.add_argument("--keep-data", action="store_true", help="keep each cell's database after it ran")
    p.add_argument(
        "--memory",
        metavar="SIZE",
        help="run each step's JVM inside a memory cgroup of SIZE (e.g. 1g): heap, engine caches and the page "
        "cache of its files share it; the data's pages are evicted before each step. The cgroup v2 or v1 "
        "memory controller, or else a systemd-run scope where systemd manages the cgroups. Refused where none "
        "of these can be used (no root, none mounted)",
    )
    p.add_argument(
        "--crash-rounds",
        type=int,
        default=0,
        metavar="N",
        help="then run the crash check (python -m analysis crash) N rounds per engine and sync mode "
        "into the same results directory: the report's Durability section (default 0: none)",
    )
    p.add_argument(
        "--ycsb-home",
        type=Path,
        metavar="DIR",
        help="an upstream YCSB release (bin/bindings.properties, lib/, <name>-binding/lib/) whose bindings --peer runs",
    )
    p.add_argument(
        "--peer",
        action="append",
        default=[],
        metavar="NAME[:PROP=VALUE,...]",
        help="run a binding of --ycsb-home on the same workloads, as a row of its own (repeatable); "
        "{dir} in a value is the cell's fresh data directory",
    )
    p.add_argument(
        "--shard",
        type=parse_shard,
        metavar="I/N|auto",
        help="run only the I-th of N disjoint parts of the matrix (1-based); auto: the part a Kubernetes "
        "Indexed Job or a Slurm job array gave this process; merge the parts with `python -m analysis report DIR...`",
    )
    scale = p.add_argument_group("the scale group (--scenarios scale; sized for --memory 1g)")
    scale.add_argument(
        "--records-series",
        type=parse_series,
        default=SCALE_RECORDS,
        metavar="N,N,...",
        help=f"its data sizes in records of 1 KB (default {','.join(map(str, SCALE_RECORDS))})",
    )
    scale.add_argument(
        "--threads-series",
        type=parse_series,
        metavar="T,T,...",
        help=f"client threads of its thread series (default {','.join(map(str, SCALE_THREADS))}); with --workload, "
        "also a run step of each file per thread count (default: one run, with the file's threadcount)",
    )
    scale.add_argument(
        "--step-seconds",
        type=int,
        default=SCALE_STEP_SECONDS,
        metavar="S",
        help=f"each workload's fixed time (default {SCALE_STEP_SECONDS}; the thread series "
        f"{SCALE_THREAD_SECONDS}; a load at most N / {SCALE_LOAD_RATE:,} s, at least {SCALE_LOAD_MIN_SECONDS})",
    )
    scale.add_argument(
        "--duration",
        type=int,
        default=SCALE_SUSTAINED_SECONDS,
        metavar="S",
        help=f"the sustained run's time at the largest N (default {SCALE_SUSTAINED_SECONDS})",
    )
    p.add_argument("--no-report", action="store_true", help="run only; render later with `python -m analysis report`")
    args = p.parse_args(argv)
    if args.peer and args.ycsb_home is None:
        p.error("--peer needs --ycsb-home DIR (the upstream YCSB release whose binding it is)")
    # Each refused value as the option, the value and what is allowed, before anything runs: a --cap of 0 or less
    # or a --step-timeout of 0 or less was taken, and then every cell failed.
    refusals = [
        (args.repeat is not None and args.repeat < 1, "--repeat", args.repeat, "a whole number of at least 1"),
        (args.noise_repeats < 1, "--noise-repeats", args.noise_repeats, "a whole number of at least 1"),
        (args.crash_rounds < 0, "--crash-rounds", args.crash_rounds, "a whole number of at least 0"),
        (
            args.warmup_seconds is not None and not 0 <= args.warmup_seconds <= 3600,
            "--warmup-seconds",
            args.warmup_seconds,
            "a number of seconds from 0 to 3600 (the launcher's warmup.seconds; 0: off)",
        ),
        (
            args.quick_seconds is not None and not 0 <= args.quick_seconds <= 3600,
            "--quick-seconds",
            args.quick_seconds,
            "a number of seconds from 0 to 3600 (0: the quick counts)",
        ),
        (
            args.cap is not None and args.cap < 1,
            "--cap",
            args.cap,
            "a whole number of at least 1 (no record or operation count above it)",
        ),
        (
            args.step_timeout is not None and not args.step_timeout > 0,
            "--step-timeout",
            args.step_timeout,
            "a number of seconds above 0 (a step running longer is killed)",
        ),
        (args.step_seconds < 1, "--step-seconds", args.step_seconds, "a whole number of seconds of at least 1"),
        (args.duration < 1, "--duration", args.duration, "a whole number of seconds of at least 1"),
    ]
    for refused, option, value, allowed in refusals:
        if refused:
            p.error(f"{option} {value:g} is not allowed: expected {allowed}")
    return args


def parse_series(text: str) -> tuple[int, ...]:
    """`262144,1048576` -> (262144, 1048576): positive whole numbers, at least one."""
    try:
        values = tuple(int(v) for v in text.split(",") if v.strip())
    except ValueError:
        values = ()
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of positive whole numbers")
    return values


def scale_settings(args: argparse.Namespace) -> ScaleSettings:
    return ScaleSettings(
        records=args.records_series,
        threads=args.threads_series or SCALE_THREADS,
        step_seconds=args.step_seconds,
        sustained_seconds=args.duration,
    )


def parse_shard(text: str) -> tuple[int, int]:
    """`2/4` -> (2, 4); `auto` -> the part a scheduler gave this process (shard_from_environment)."""
    if text == "auto":
        try:
            part = shard_from_environment(os.environ)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from e
        print(f"run: --shard auto: part {part[0]} of {part[1]}, from the scheduler's environment", file=sys.stderr)
        return part
    index, sep, count = text.partition("/")
    try:
        i, n = int(index), int(count)
    except ValueError:
        i, n = 0, 0
    if not sep or n < 1 or not 1 <= i <= n:
        raise argparse.ArgumentTypeError(f"{text!r} is not I/N with 1 <= I <= N")
    return i, n


def _whole(env: Mapping[str, str], name: str) -> int:
    try:
        return int(env[name])
    except (KeyError, ValueError):
        raise ValueError(f"--shard auto: {name} is {env.get(name)!r}, not a whole number") from None


def shard_from_environment(env: Mapping[str, str]) -> tuple[int, int]:
    """The part (I, N) a scheduler gave this process, 1-based, from its environment:

    - a Kubernetes Indexed Job: JOB_COMPLETION_INDEX (0-based, set by the Job controller) and
      JOB_COMPLETIONS, the Job's spec.completions, which Kubernetes does not export: the manifest sets
      it (docs/examples/kubernetes-indexed-job.yaml);
    - a Slurm job array: SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT, SLURM_ARRAY_TASK_MIN and
      SLURM_ARRAY_TASK_STEP (an array of 1-3, 0-2 or 0-10:5 alike; docs/examples/slurm-array.sbatch).
    """
    if "JOB_COMPLETION_INDEX" in env:
        if "JOB_COMPLETIONS" not in env:
            raise ValueError(
                "--shard auto: JOB_COMPLETION_INDEX is set but JOB_COMPLETIONS is not; Kubernetes does not "
                "export spec.completions, so set JOB_COMPLETIONS to it in the Job's env"
            )
        index, count = _whole(env, "JOB_COMPLETION_INDEX") + 1, _whole(env, "JOB_COMPLETIONS")
        source = "JOB_COMPLETION_INDEX/JOB_COMPLETIONS"
    elif "SLURM_ARRAY_TASK_ID" in env:
        if "SLURM_ARRAY_TASK_COUNT" not in env:
            raise ValueError(
                "--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is missing (a job array of "
                "sbatch --array exports both; a task started otherwise may not): set SLURM_ARRAY_TASK_COUNT to "
                "the array's number of tasks, or give --shard I/N"
            )
        task, count = _whole(env, "SLURM_ARRAY_TASK_ID"), _whole(env, "SLURM_ARRAY_TASK_COUNT")
        first = _whole(env, "SLURM_ARRAY_TASK_MIN") if "SLURM_ARRAY_TASK_MIN" in env else 0
        step = _whole(env, "SLURM_ARRAY_TASK_STEP") if "SLURM_ARRAY_TASK_STEP" in env else 1
        if step < 1 or (task - first) % step:
            raise ValueError(f"--shard auto: SLURM_ARRAY_TASK_ID {task} is not on the array {first}:{step}")
        index = (task - first) // step + 1
        source = "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT"
    else:
        raise ValueError(
            "--shard auto: no scheduler's part found (JOB_COMPLETION_INDEX of a Kubernetes Indexed Job, or "
            "SLURM_ARRAY_TASK_ID of a Slurm job array); give --shard I/N"
        )
    if count < 1 or not 1 <= index <= count:
        raise ValueError(f"--shard auto: part {index} of {count} from {source} is not 1 <= I <= N")
    return index, count


def classpaths_of(engines: list[str], peers: list[Peer]) -> dict[str, str]:
    """Row -> the -cp its JVMs get: our built engines' (bin/ycsb's) and the peers' (an unbuilt engine has none:
    its cells fail as not built)."""
    paths = {e: our_classpath(REPO, binding_of(e)) for e in engines}
    rows = {e: cp for e, cp in paths.items() if cp is not None}
    return rows | {p.engine: p.classpath() for p in peers}


def own_workloads(paths: list[Path], rows: dict[str, str]) -> list[WorkloadFile]:
    """The --workload files, each parsed and checked, its workload class on every row's classpath, no two
    making one scenario; WorkloadFileRefused for the first file that fails."""
    files = [check_workload_file(p) for p in paths]
    refuse_clashes(files, {s.id for s in SCENARIOS} | {s.id for s in SCALE})
    refuse_unloadable(files, rows)
    return files


def matrix_cells(engines: list[str], scenarios: list[Scenario]) -> list[tuple[str, Scenario]]:
    """Every applicable (engine, scenario) cell, in the order the suite runs them."""
    return [(e, s) for s in scenarios for e in engines if s.runs_on(e)]


def shard_cells(cells: list[tuple[str, Scenario]], shard: tuple[int, int] | None) -> list[tuple[str, Scenario]]:
    """The I-th of N disjoint parts, dealt round-robin over the cells in run order (pure)."""
    if shard is None:
        return cells
    index, count = shard
    return [cell for n, cell in enumerate(cells) if n % count == index - 1]


def no_cells_reason(engines: list[str], peers: list[Peer], scenarios: list[Scenario]) -> str | None:
    """Why the matrix holds no cell at all, or None: a run of 0 cells must not pass for a success. (A shard
    left empty by a small matrix still runs, so that the merged report counts every part.)"""
    if not engines and not peers:
        return "--engines none leaves only the --peer bindings of --ycsb-home, and no --peer was given"
    rows = engines + [p.engine for p in peers]
    if not matrix_cells(rows, scenarios):
        return (
            f"the scenarios {', '.join(s.id for s in scenarios)} apply to none of {', '.join(rows)} "
            f"(`python -m analysis list` shows each scenario's engines)"
        )
    return None


def catalogue_lines(scenarios: list[Scenario]) -> list[str]:
    lines = []
    for s in scenarios:
        steps = " ; ".join(
            f"{st.phase} {'+'.join(st.workloads)}{' [' + st.variant + ']' if st.variant else ''}" for st in s.steps
        )
        lines.append(f"{s.id:22} {s.section:7} {','.join(s.engines):28} {steps}")
    return lines


def memory_budget(text: str | None) -> tuple[int | None, Controller | None]:
    """--memory as bytes and the controller that enforces it; (None, None) without it. Raises ValueError
    for a bad size and BudgetRefused where no memory cgroup can be made."""
    if text is None:
        return None, None
    return parse_budget(text), find_controller()


def git_revision(repo: Path) -> str:
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=repo, capture_output=True, text=True, timeout=10
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=repo,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return (head or "unknown") + (" (modified)" if dirty else "")


def repeats_by_scenario(repeat: int | None, full: bool, scenarios: list[Scenario]) -> dict[str, int]:
    """How many times each scenario's cells run: --repeat for all, else with --full MARGIN_REPEATS for the
    cells a finding decides by a margin (their noise decides whether the margin means anything), else 1."""
    return {
        s.id: repeat if repeat is not None else MARGIN_REPEATS if full and s.id in MARGIN_SCENARIOS else 1
        for s in scenarios
    }


def run_matrix(
    options: RunOptions,
    engines: list[str],
    scenarios: list[Scenario],
    progress_stream: TextIO = sys.stderr,
    shard: tuple[int, int] | None = None,
    repeats: Mapping[str, int] | None = None,
    noise_cells: Mapping[tuple[str, str], int] | None = None,
) -> list[dict]:
    """Every applicable (scenario, engine) cell of the shard in turn; a failure is recorded and the rest goes on.
    repeats: a scenario's repeat count when it differs from options.repeat; noise_cells: (engine, scenario)
    -> repeat count of the cells that measure the machine's noise (noise.probe_cells)."""
    cells = shard_cells(matrix_cells(engines, scenarios), shard)
    cell_options = [
        replace(
            options,
            repeat=max((repeats or {}).get(s.id, options.repeat), (noise_cells or {}).get((e, s.id), 1)),
        )
        for e, s in cells
    ]
    weights = [cell_weight(o, e, s) for o, (e, s) in zip(cell_options, cells, strict=True)]
    bar = ProgressBar(sum(weights), len(cells), progress_stream)
    try:
        summary = _run_cells(cell_options, cells, weights, bar)
    finally:
        bar.close()  # its heartbeat's thread, should a cell raise
    bar.finish(len(cells))
    return summary


def _run_cells(
    cell_options: list[RunOptions], cells: list[tuple[str, Scenario]], weights: list[float], bar: ProgressBar
) -> list[dict]:
    finished_weight = 0.0
    summary = []
    for n, ((engine, scenario), weight) in enumerate(zip(cells, weights, strict=True)):
        name = f"{engine}/{scenario.id}"
        bar.update(n, finished_weight, name)

        def on_progress(
            step: str, done: float, name: str = name, n: int = n, base: float = finished_weight, weight: float = weight
        ) -> None:
            bar.update(n, base + min(done, weight), name, step)

        cell = run_cell(cell_options[n], engine, scenario, on_progress)
        finished_weight += weight
        if cell.status != "ok":
            bar.message(f"{'SKIPPED' if cell.status == 'skipped' else 'FAILED'} {name}: {cell.error}")
        summary.append(
            {
                "engine": engine,
                "scenario": scenario.id,
                "status": cell.status,
                "error": cell.error,
                "seconds": cell.seconds,
                "engine_version": cell.engine_version,
                "host": cell.host,
            }
        )
        bar.update(n + 1, finished_weight, name)
    return summary


def engine_versions(summary: list[dict]) -> dict[str, str]:
    versions: dict[str, str] = {}
    for cell in summary:
        if cell["engine_version"]:
            versions.setdefault(cell["engine"], cell["engine_version"])
    return versions


def list_main(argv: list[str]) -> int:
    """`python -m analysis list`: the catalogue, or the scenarios that --scenarios selects."""
    p = argparse.ArgumentParser(
        prog="python -m analysis list", description="Prints the scenario catalogue: scenario, section, engines, steps."
    )
    p.add_argument("--scenarios", nargs="+", metavar="NAME", help=SCENARIOS_HELP)
    args = p.parse_args(argv)
    try:
        scenarios = select_scenarios(split_names(args.scenarios))
    except ValueError as e:
        print(f"list: {e}", file=sys.stderr)
        return 2
    print("\n".join(catalogue_lines(scenarios)))
    return 0


# The client bin/ycsb measures the suite's steps with: the project's driver (harness/), whose 100 ms records the
# steady check reads; YCSB_CLIENT=upstream in the environment runs YCSB's own Client instead.
SUITE_CLIENT = "driver"


def main(argv: list[str]) -> int:
    """`python -m analysis run`."""
    args = parse_args(argv)
    os.environ.setdefault("YCSB_CLIENT", SUITE_CLIENT)  # read by bin/ycsb in every step's JVM
    try:
        # Only the user's own workload files run when they are given without --scenarios.
        picked = split_names(args.scenarios)
        chosen = [] if args.workload and not picked else select_scenarios(picked, scale_scenarios(scale_settings(args)))
        names = split_names(args.engines)
        engines = [] if names == ["none"] else select_engines(names)  # none: only the peers
    except ValueError as e:
        print(f"run: {e}", file=sys.stderr)
        return 2
    peers: list[Peer] = []
    if args.ycsb_home is not None:
        try:
            peers = make_peers(args.ycsb_home.resolve(), args.peer, find_common_jar(REPO))
        except (ValueError, OSError) as e:
            print(f"run: {e}", file=sys.stderr)
            return 2
    try:
        own = own_workloads(args.workload, classpaths_of(engines, peers))
    except WorkloadFileRefused as e:
        print(f"run: {e}", file=sys.stderr)
        return 2
    # Checked, not yet run: their scenarios read the copies the results directory keeps (made below).
    scenarios = chosen + [own_scenario(f.id, str(f.path), f.properties) for f in own]
    why = no_cells_reason(engines, peers, scenarios)
    if why:
        print(f"run: nothing to run, refused: {why}", file=sys.stderr)
        return 2
    try:
        memory, controller = memory_budget(args.memory)
    except (ValueError, BudgetRefused) as e:
        print(f"run: {e}", file=sys.stderr)
        return 2
    quick = not args.full
    mode = "quick" if quick else "full"
    out = (args.out or REPO / "results" / f"{datetime.now():%Y%m%d-%H%M%S}-{mode}").resolve()
    out.mkdir(parents=True, exist_ok=True)
    own_scenarios = keep_copies(own, out, args.threads_series)
    register_own(own_scenarios)
    scenarios = chosen + own_scenarios
    data = (args.data_dir or out / "data").resolve()
    options = RunOptions(
        repo=REPO,
        out=out,
        workloads=args.workloads.resolve(),
        data=data,
        quick=quick,
        repeat=args.repeat or 1,
        cap=args.cap,
        keep_data=args.keep_data,
        exporter=args.exporter,
        step_timeout=args.step_timeout if args.step_timeout else (600.0 if quick else None),
        warmup_seconds=args.warmup_seconds
        if args.warmup_seconds is not None
        else (QUICK_WARMUP_SECONDS if quick else None),
        peers={p.engine: p for p in peers},
        memory=memory,
        controller=controller,
        one_jvm=not args.jvm_per_step,
        quick_seconds=quick_seconds(args.quick_seconds, args.cap),
    )
    unbuilt = [e for e in engines if not engine_is_built(REPO, e)]
    if unbuilt:
        print(f"run: not built (their cells will be recorded as failed): {', '.join(unbuilt)}", file=sys.stderr)

    repeats = repeats_by_scenario(args.repeat, not quick, scenarios)
    noise_cells = probe_cells(engines + [p.engine for p in peers], scenarios, repeats, args.noise_repeats)
    suite = {
        "mode": mode,
        "repeat": max(repeats.values(), default=1),
        "repeats": repeats,
        "noise_cells": [{"engine": e, "scenario": s, "repeat": n} for (e, s), n in noise_cells.items()],
        "cap": args.cap,
        "quick_seconds": options.quick_seconds,
        "exporter": args.exporter,
        "memory_bytes": memory,
        "cgroup": f"{controller.mechanism} under {controller.parent}" if controller else None,
        "engines": engines,
        "peers": [p.describe() for p in peers],
        "shard": list(args.shard) if args.shard else None,
        "scenarios": [s.id for s in scenarios],
        "workload_files": describe(own, args.threads_series),
        "command": ["python", "-m", "analysis", "run", *argv],
        "revision": git_revision(REPO),
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    (out / "suite.json").write_text(json.dumps(suite, indent=2) + "\n")
    machine = collect_machine_info(data, out)
    (out / "machine.json").write_text(json.dumps(machine, indent=2) + "\n")

    start = time.monotonic()
    summary = run_matrix(
        options,
        engines + [p.engine for p in peers],
        scenarios,
        shard=args.shard,
        repeats=repeats,
        noise_cells=noise_cells,
    )
    machine["engines"] = engine_versions(summary)
    (out / "machine.json").write_text(json.dumps(machine, indent=2) + "\n")
    suite.update(
        finished=datetime.now(UTC).isoformat(timespec="seconds"),
        seconds=round(time.monotonic() - start, 1),
        cells=summary,
    )
    (out / "suite.json").write_text(json.dumps(suite, indent=2) + "\n")
    if not args.keep_data:
        _remove_empty_dirs(data)

    failed = [c for c in summary if c["status"] == "failed"]
    print(
        f"run: {sum(1 for c in summary if c['status'] == 'ok')} of {len(summary)} cells ok in "
        f"{format_duration(time.monotonic() - start)}; raw outputs in {out}",
        file=sys.stderr,
    )
    # A shard's matrix is part of one; the crash check runs once, with the first part.
    crash_rounds = args.crash_rounds if args.shard is None or args.shard[0] == 1 else 0
    crash_failures = run_crash_check(crash_rounds, out, data, engines, args.keep_data)
    if args.no_report:
        print(out)
    else:
        from ..report.report import write_report  # pandas loads only when a report is written

        print(write_report(out, partial=True).markdown)  # a shard's own report: its part, marked incomplete
    return 1 if failed or crash_failures else 0


def run_crash_check(rounds: int, out: Path, data: Path, engines: list[str], keep_data: bool) -> list[str]:
    """The crash check after the matrix, into the same results directory; its failures (none when not asked)."""
    if rounds == 0:
        return []
    options = CrashOptions(
        out=out,
        data=data,
        engines=engines,
        rounds=rounds,
        seed=random.SystemRandom().randrange(1, 2**31),
        keep_data=keep_data,
    )
    print(f"suite: crash check, {rounds} round(s) per engine and sync mode, seed {options.seed}", file=sys.stderr)
    return failures(check_and_report(options, stream=sys.stderr))


def _remove_empty_dirs(root: Path) -> None:
    if not root.is_dir():
        return
    for path in sorted(root.rglob("*"), key=lambda p: len(p.parts), reverse=True):
        if path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    if not any(root.iterdir()):
        root.rmdir()


if __name__ == "__main__":  # the old entry point: say where the command went rather than do nothing
    sys.exit(f"python -m analysis.suite is now: python -m analysis run {' '.join(sys.argv[1:])}".rstrip())
