"""`python -m analysis run`: runs engines x scenarios, then renders the report; prints the report's path last
(its options and examples: run_args.py). `python -m analysis list`: the catalogue.
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

from ..catalogue.model import Scenario, binding_of
from ..catalogue.own_workloads import own_scenario
from ..catalogue.scale_group import SCALE, scale_scenarios
from ..catalogue.scenarios import SCENARIOS, register_own, select_engines, select_scenarios
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
from ..results.noise import probe_cells
from .crash import CrashOptions, check_and_report
from .machine import collect_machine_info
from .membudget import BudgetRefused, Controller, find_controller, parse_budget
from .peers import Peer, find_common_jar, make_peers
from .plan import RunOptions, engine_is_built, our_classpath
from .progress import ProgressBar, format_duration
from .run_args import (
    QUICK_WARMUP_SECONDS,
    REPO,
    SCENARIOS_HELP,
    parse_args,
    quick_seconds,
    scale_settings,
    split_names,
)
from .runner import cell_weight, run_cell


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
