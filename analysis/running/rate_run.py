"""`python -m analysis rate`: latency at a rate. Per engine and workload, in one JVM of the driver on a fresh data
directory: the workload's load, a flat-out step, then the sweep (the flat-out rate's FRACTIONS, each a step held
at its rate with `-target`), then per `--sla` the capacity search (bisection between the sweep's points). Every
step is timed (maxexecutiontime) and measures latency both from each operation's scheduled start and from its
actual start (`measurement.interval=both`), per operation and, from its HdrHistogram logs merged, of all
operations together. Before the engines, the harness's own ceiling: a do-nothing DB flat out on the same workload
at the same threads; an asked rate above it is refused and marked. The project's driver is asked each rate to a
tenth of an operation a second, YCSB's own Client (YCSB_CLIENT=upstream) in whole numbers.

Layout: <out>/rate/rate.json (the model: rate.Sweep records), <out>/rate/<engine>/rate-<workload>/ (cell.json and
each step's raw files, as the suite keeps them); `python -m analysis report <out>` draws "Latency at a rate" and
the heat map's rows of each engine's capacity under each bound.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from ..catalogue.model import ENGINES, Scenario
from ..catalogue.scenarios import ROCKSDB_VS_LEVELDB, YCSB_CORE, select_engines
from ..results.rate import (
    FRACTIONS,
    STALL_FRACTION,
    RateStep,
    StallRun,
    Sweep,
    asked_rate,
    capacity,
    parse_sla,
    rate_text,
    search,
    stall_spans,
    sweep_rates,
)
from ..results.scale import UnreadableLog
from .machine import collect_machine_info
from .plan import RunOptions
from .progress import format_duration
from .rate_cell import HARNESS, RateSettings, SweepCell, intended_timeline, rate_variant
from .run_args import QUICK_WARMUP_SECONDS, REPO, split_names
from .runner import precheck_cell
from .suite import SUITE_CLIENT, git_revision

RATE_DIR = "rate"
RATE_FILE = "rate.json"
QUICK_STEP_SECONDS = 5
FULL_STEP_SECONDS = 30
RESOLUTION = 0.025  # the search stops when its bracket is narrower than this share of the flat-out rate
DEFAULT_WORKLOADS = ("workloada", "workloadc")
DEFAULT_SLAS = ("p99=2ms",)
DEFAULT_STALL_FILES = ("tinykeys", "kv1000")


def rate_workloads() -> dict[str, Scenario]:
    """The workloads a sweep runs: YCSB's core workloads (a load, then the run the sweep paces)."""
    return {s.id: s for s in YCSB_CORE}


def stall_workloads() -> dict[str, Scenario]:
    """The write files a stall run holds at a rate: the RocksDB-vs-LevelDB fills, with their memtable and level-0
    settings."""
    return {s.id: s for s in ROCKSDB_VS_LEVELDB}


def harness_ceiling(
    options: RunOptions, scenario: Scenario, settings: RateSettings, say: Callable[[str], None]
) -> float | None:
    """The harness's own flat-out rate on the workload: a do-nothing DB, the same driver and threads."""
    cell = SweepCell(options, HARNESS, scenario, settings)
    try:
        step = cell.paced("flat", None, None, None)
    finally:
        cell.finish()
    if step.problem:
        say(f"rate: the harness's ceiling on {scenario.id} was not measured: {step.problem}")
        return None
    say(f"rate: harness ceiling on {scenario.id}: {step.achieved:,.0f}/s (a do-nothing DB, {settings.threads} thr.)")
    return step.achieved


def sweep_engine(
    options: RunOptions,
    engine: str,
    scenario: Scenario,
    settings: RateSettings,
    ceiling: float | None,
    say: Callable[[str], None],
) -> Sweep:
    """The load, the flat-out step, the sweep and each bound's capacity search of one engine on one workload."""
    sweep = Sweep(engine, scenario.id, settings.threads, ceiling=ceiling)
    reason = precheck_cell(options, engine, scenario)
    if reason is not None:
        sweep.error = reason
        return sweep
    cell = SweepCell(options, engine, scenario, settings)
    try:
        for load in (s for s in scenario.steps if not s.measured):
            problems, _, _ = cell.run(load)
            if problems:
                sweep.error = f"{load.name}: {'; '.join(problems)}"
                return sweep
        flat = cell.paced("flat", None, None, ceiling)
        sweep.steps.append(flat)
        if flat.problem or not flat.achieved:
            sweep.error = f"flat out: {flat.problem or 'no rate'}"
            return sweep
        say(f"rate: {engine} {scenario.id}: flat out {flat.achieved:,.0f}/s")
        for fraction, rate in sweep_rates(flat.achieved, settings.fractions, cell.digits):
            paced = cell.paced("sweep", rate, fraction, ceiling)
            sweep.steps.append(paced)
            say(f"rate: {engine} {scenario.id}: {describe(paced)}")

        def probe(rate: float) -> RateStep:
            step = cell.paced("search", rate, rate / flat.achieved if flat.achieved else None, ceiling)
            say(f"rate: {engine} {scenario.id}: search {describe(step)}")
            return step

        for sla in settings.slas:
            search(sweep.steps, sla, settings.resolution * flat.achieved, probe, digits=cell.digits)
        sweep.capacities = [capacity(sweep.steps, sla) for sla in settings.slas]  # with every bound's probes
    finally:
        cell.finish()
        if sweep.error:
            cell.cell.status, cell.cell.error = "failed", sweep.error
            (cell.directory / "cell.json").write_text(json.dumps(cell.cell.to_json(), indent=2) + "\n")
    return sweep


def stall_engine(
    options: RunOptions,
    engine: str,
    scenario: Scenario,
    settings: RateSettings,
    fraction: float,
    say: Callable[[str], None],
) -> StallRun:
    """A write file flat out, then again on a fresh database (its load destroys the last) held at `fraction` of
    that rate, with its intended-time latency per second: a write stall is a spike there."""
    run = StallRun(engine, scenario.id, settings.threads, fraction=fraction)
    reason = precheck_cell(options, engine, scenario)
    if reason is not None:
        run.error = reason
        return run
    write = next(s for s in scenario.steps if s.measured)
    both = (("measurement.interval", "both"), ("threadcount", str(settings.threads)))
    cell = SweepCell(options, engine, scenario, settings, kind="stalls")
    try:
        problems, run.flat_out, _ = cell.run(replace(write, variant="flat", props=(*write.props, *both)))
        if problems or not run.flat_out:
            run.error = f"flat out: {'; '.join(problems) or 'no rate'}"
            return run
        rate = asked_rate(run.flat_out * fraction, cell.digits)
        # Timed so that YCSB writes its interval logs; the limit only stops an engine that falls far behind.
        limit = 2 * cell.records[-1].recordcount / rate + settings.seconds
        paced = (*both, ("target", rate_text(rate)), ("hdrhistogram.fileoutput", "true"))
        variant = rate_variant("stalls", rate)
        step = replace(write, variant=variant, props=(*write.props, *paced), seconds=round(limit, 1))
        problems, run.achieved, _ = cell.run(step)
        run.asked, run.stem = rate, cell.records[-1].stdout.rsplit("/", 1)[-1].removesuffix(".txt")
        if problems:
            run.error = "; ".join(problems)
            return run
        try:
            run.timeline = intended_timeline(cell.repeat_dir, run.stem)
        except UnreadableLog as e:
            run.error = str(e)
            return run
        spans = stall_spans(run.stalled)
        judged = (
            f"{len(run.stalled)} of {len(run.timeline)} seconds stalled in {len(spans)} stall(s)"
            if run.median_p99 is not None
            else "too short to judge stalls (no whole second after the first): lower --stall-rate or use --full"
        )
        say(
            f"rate: {engine} {scenario.id} at {rate_text(rate, grouped=True)}/s ({fraction:.0%} of "
            f"{run.flat_out:,.0f}/s): "
            f"{run.achieved or 0:,.0f}/s achieved, {judged}"
        )
    finally:
        cell.finish()
    return run


def describe(step: RateStep) -> str:
    """One progress line: asked, achieved, intended and service p99."""
    asked = f"{rate_text(step.asked, grouped=True)}/s" if step.asked is not None else "flat out"
    if step.problem:
        return f"{asked}: {step.problem}"
    intended, service = step.latency("p99"), step.latency("p99", intended=False)
    held = "" if step.held else " (NOT HELD)"
    return (
        f"{asked} asked, {step.achieved or 0:,.0f}/s achieved{held}, p99 intended {intended or 0:,.0f} us, "
        f"service {service or 0:,.0f} us"
    )


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m analysis rate", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help=f"{QUICK_STEP_SECONDS} s steps (the default)")
    mode.add_argument("--full", action="store_true", help=f"{FULL_STEP_SECONDS} s steps, the files' own counts")
    p.add_argument("--engines", nargs="+", metavar="ENGINE", help=f"default: {' '.join(ENGINES)}")
    p.add_argument(
        "--workloads",
        nargs="+",
        metavar="NAME",
        help=f"YCSB workloads to sweep ({', '.join(rate_workloads())}; default: {' '.join(DEFAULT_WORKLOADS)}, "
        "none with --stalls alone)",
    )
    p.add_argument(
        "--stalls",
        nargs="*",
        metavar="FILE",
        help="write files to hold at a fixed rate, with their intended-time latency per second "
        f"({', '.join(stall_workloads())}; default: {' '.join(DEFAULT_STALL_FILES)})",
    )
    p.add_argument(
        "--stall-rate",
        type=float,
        default=STALL_FRACTION * 100,
        metavar="PERCENT",
        help="the stall runs' rate in percent of each engine's flat-out rate on the file (default: %(default)g)",
    )
    p.add_argument(
        "--sla",
        nargs="+",
        metavar="BOUND",
        default=list(DEFAULT_SLAS),
        help="latency bounds for the capacity search, [OPERATION:]pQ=BOUND (p99=2ms, p99.9=500us, READ:p99=1ms); "
        "without an operation, the percentile of all operations together, their HdrHistogram logs merged (a "
        "read-modify-write counts as its read and its update); default p99=2ms",
    )
    p.add_argument("--threads", type=int, default=1, metavar="N", help="client threads (default 1)")
    p.add_argument("--step-seconds", type=int, metavar="S", help="each step's time (YCSB's maxexecutiontime)")
    p.add_argument(
        "--fractions",
        metavar="PERCENTS",
        default=",".join(f"{f * 100:g}" for f in FRACTIONS),
        help="the sweep's asked rates in percent of flat out (default: %(default)s)",
    )
    p.add_argument(
        "--resolution",
        type=float,
        default=RESOLUTION * 100,
        metavar="PERCENT",
        help="the search stops when the passing and failing rates are this close, in percent of flat out "
        "(default: %(default)g)",
    )
    p.add_argument(
        "--out",
        type=Path,
        help="results directory (default: results/<time>-rate; an existing run's "
        "directory gets the rate results beside its own)",
    )
    p.add_argument("--data-dir", type=Path, help="where the databases go (default: <out>/data)")
    p.add_argument("--cap", type=int, metavar="N", help="no record count above N (smoke tests)")
    p.add_argument("--warmup-seconds", type=float, metavar="S", help="the launcher's warm-up per kind of step")
    p.add_argument("--keep-data", action="store_true", help="keep the databases")
    p.add_argument("--no-report", action="store_true", help="do not write the report")
    return p.parse_args(argv)


def settings_of(args: argparse.Namespace) -> RateSettings:
    """The sweep's settings, or ValueError naming the option, its value and what is allowed."""
    try:
        fractions = tuple(float(x) / 100 for x in str(args.fractions).split(",") if x.strip())
    except ValueError:
        raise ValueError(f"--fractions {args.fractions!r}: expected percents separated by commas") from None
    if not fractions or any(f <= 0 for f in fractions):
        raise ValueError(f"--fractions {args.fractions!r}: expected percents above 0")
    if args.threads < 1:
        raise ValueError(f"--threads {args.threads}: expected 1 or more")
    seconds = args.step_seconds or (FULL_STEP_SECONDS if args.full else QUICK_STEP_SECONDS)
    if seconds < 1:
        raise ValueError(f"--step-seconds {seconds}: expected 1 or more")
    if not 0 < args.resolution < 100:
        raise ValueError(f"--resolution {args.resolution:g}: expected a percent above 0 and below 100")
    if args.cap is not None and args.cap < 1:
        raise ValueError(f"--cap {args.cap}: expected 1 or more")
    slas = tuple(parse_sla(s) for v in args.sla for s in v.split(","))
    return RateSettings(args.threads, seconds, tuple(sorted(fractions)), slas, args.resolution / 100)


def main(argv: list[str]) -> int:
    """`python -m analysis rate`."""
    args = parse_args(argv)
    os.environ.setdefault("YCSB_CLIENT", SUITE_CLIENT)
    known, writes = rate_workloads(), stall_workloads()
    stall_files = None if args.stalls is None else list(args.stalls or DEFAULT_STALL_FILES)
    workloads = args.workloads or ([] if stall_files is not None else list(DEFAULT_WORKLOADS))
    try:
        settings = settings_of(args)
        engines = select_engines(split_names(args.engines))
        unknown = [w for w in workloads if w not in known]
        if unknown:
            raise ValueError(f"--workloads {' '.join(unknown)}: expected some of {', '.join(known)}")
        unknown = [w for w in stall_files or [] if w not in writes]
        if unknown:
            raise ValueError(f"--stalls {' '.join(unknown)}: expected some of {', '.join(writes)}")
        if not 0 < args.stall_rate:
            raise ValueError(f"--stall-rate {args.stall_rate:g}: expected a percent above 0")
    except ValueError as e:
        print(f"rate: {e}", file=sys.stderr)
        return 2
    quick = not args.full
    out = (args.out or REPO / "results" / f"{datetime.now():%Y%m%d-%H%M%S}-rate").resolve()
    out.mkdir(parents=True, exist_ok=True)
    data = (args.data_dir or out / "data").resolve()
    options = RunOptions(
        repo=REPO,
        out=out / RATE_DIR,
        workloads=REPO / "workloads",
        data=data / RATE_DIR,
        quick=quick,
        cap=args.cap,
        keep_data=args.keep_data,
        step_timeout=600.0,
        warmup_seconds=args.warmup_seconds if args.warmup_seconds is not None else QUICK_WARMUP_SECONDS,
    )
    if not (out / "suite.json").is_file():  # a directory of its own: the report's header reads these
        suite = {
            "mode": "quick" if quick else "full",
            "repeat": 1,
            "cap": args.cap,
            "exporter": "json",
            "engines": engines,
            "scenarios": [],
            "command": ["python", "-m", "analysis", "rate", *argv],
            "revision": git_revision(REPO),
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
            "cells": [],
        }
        (out / "suite.json").write_text(json.dumps(suite, indent=2) + "\n")
        data.mkdir(parents=True, exist_ok=True)
        (out / "machine.json").write_text(json.dumps(collect_machine_info(data, out), indent=2) + "\n")

    def say(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    start = time.monotonic()
    record: dict = {
        "command": ["python", "-m", "analysis", "rate", *argv],
        "threads": settings.threads,
        "step_seconds": settings.seconds,
        "fractions": list(settings.fractions),
        "slas": [s.text for s in settings.slas],
        "resolution": settings.resolution,
        "ceilings": {},
        "sweeps": [],
        "stall_fraction": args.stall_rate / 100,
        "stalls": [],
    }
    for workload in workloads:
        scenario = known[workload]
        ceiling = harness_ceiling(options, scenario, settings, say)
        record["ceilings"][workload] = ceiling
        for engine in engines:
            sweep = sweep_engine(options, engine, scenario, settings, ceiling, say)
            if sweep.error:
                say(f"rate: FAILED {engine} {workload}: {sweep.error}")
            record["sweeps"].append(sweep.to_json())
            (out / RATE_DIR / RATE_FILE).write_text(json.dumps(record, indent=2) + "\n")
    for name in stall_files or []:
        scenario = writes[name]
        for engine in (e for e in engines if e in scenario.engines):
            stalled = stall_engine(options, engine, scenario, settings, args.stall_rate / 100, say)
            if stalled.error:
                say(f"rate: FAILED {engine} {name} at a fixed rate: {stalled.error}")
            record["stalls"].append(stalled.to_json())
            (out / RATE_DIR / RATE_FILE).write_text(json.dumps(record, indent=2) + "\n")
    record["seconds"] = round(time.monotonic() - start, 1)
    (out / RATE_DIR / RATE_FILE).write_text(json.dumps(record, indent=2) + "\n")
    failed = [s for s in record["sweeps"] + record["stalls"] if s["error"]]
    runs = len(record["sweeps"]) + len(record["stalls"])
    say(
        f"rate: {runs - len(failed)} of {runs} sweeps and stall runs ok in "
        f"{format_duration(time.monotonic() - start)}; raw outputs in {out / RATE_DIR}"
    )
    if args.no_report:
        print(out)
    else:
        from ..report.report import write_report

        print(write_report(out, partial=True).markdown)
    return 1 if failed else 0
