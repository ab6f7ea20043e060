"""The options of `python -m analysis run`: its argument parser, with the refusals of a bad count or time, and
what turns an option into a setting (the scale series, the shard, the part a scheduler gave this process).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping
from pathlib import Path

from ..catalogue.model import ENGINES
from ..catalogue.scale_group import (
    SCALE_LOAD_MIN_SECONDS,
    SCALE_LOAD_RATE,
    SCALE_RECORDS,
    SCALE_STEP_SECONDS,
    SCALE_SUSTAINED_SECONDS,
    SCALE_THREAD_SECONDS,
    SCALE_THREADS,
    ScaleSettings,
)
from ..catalogue.scenarios import QUICK_STEP_SECONDS, SCENARIO_GROUPS
from ..report.findings import MARGIN_REPEATS, MARGIN_SCENARIOS
from ..results.noise import NOISE_REPEATS

REPO = Path(__file__).resolve().parents[2]
# The quick run's warm-up per measured step: about 300 JVMs each paying the launcher's 2 s (and up to 1 s of
# waiting for the JIT to go quiet) would take the quick run far past its 10 minutes; what 0.5 s leaves cold
# is in docs/performance.md ("The warm-up").
QUICK_WARMUP_SECONDS = 0.5


# `python -m analysis run --help`'s description; its example engine is the registry's first.
RUN_USAGE = f"""Runs engines x scenarios, then renders the report; prints the report's path last.

python -m analysis run --quick                       every scenario on every engine, scaled down
python -m analysis run --full --engines {ENGINES[0]:<13}the published counts
python -m analysis run --quick --scenarios baseline --repeat 3 --out results/base
python -m analysis run --ycsb-home ~/ycsb-0.17.0 --peer mongodb --peer basic:basicdb.verbose=false
                                                     upstream YCSB bindings as rows of their own
python -m analysis run --shard 2/4                   the second of four disjoint parts of the matrix
python -m analysis run --shard auto                  the part a Kubernetes Indexed Job or Slurm array gave it
python -m analysis run --workload my.properties      your own YCSB workload file: a load, then a run, on every engine
python -m analysis list [--scenarios NAME ...]       the catalogue
"""


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
        prog="python -m analysis run", description=RUN_USAGE, formatter_class=argparse.RawDescriptionHelpFormatter
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
