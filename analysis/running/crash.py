"""The crash check: does an engine keep every write it acknowledged when its process is killed?

    python -m analysis crash                                   3 rounds per engine, sync=true and sync=false
    python -m analysis crash --engines ENGINE --rounds 10 --sync true --seed 7
    python -m analysis crash --out results/<run>               beside a suite run: its report gets a Durability section

Per engine and sync mode, each round: a fresh data directory; `bin/ycsb crash-write <engine>`
inserts records (the value a function of the key) and prints each key once the binding returned
OK for it; a SIGKILL at a random moment (seeded, uniformly 0.3-2 s after the first
acknowledgement); `bin/ycsb crash-verify <engine>` reopens the directory with the same properties
and reads back every acknowledged key.

Exit status: 1 when a round broke what the project promises for its engine and sync mode (`PROMISES`,
the README's durability table and the binding READMEs: an acknowledged write lost, changed or unreadable,
a database that does not reopen, a file its checker rejects), or when a round could not be run at all;
losses in a mode with no promise (an engine's `crash.withdrawn` properties in bin/bindings.properties, such as
Kyoto's autotran=false) are reported and are not failures. 2: usage.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from ..catalogue.model import ENGINE_PROPS, ENGINES, binding_of
from ..results.crash import (
    CRASH_DIR,
    DEFAULT_KILL_WINDOW,
    FILE_CHECKS,
    RESULTS_JSON,
    ROUND_FIELDS,
    ROUNDS_CSV,
    Round,
    failures,
    format_table,
    parse_verifier_output,
    promise,
    summarise,
    unpromised_losses,
)

REPO = Path(__file__).resolve().parents[2]
FIRST_ACK_TIMEOUT = 60.0  # a writer that acknowledges nothing for this long is stuck
VERIFY_TIMEOUT = 300.0


# --- running -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CrashOptions:
    out: Path  # results directory; raw outputs go to <out>/crash/
    data: Path  # where the rounds' databases go
    engines: list[str]
    rounds: int = 3
    syncs: tuple[bool, ...] = (True, False)
    seed: int = 0
    kill_window: tuple[float, float] = DEFAULT_KILL_WINDOW
    properties: tuple[str, ...] = ()  # extra -p name=value for writer and verifier alike
    launcher: Path = REPO / "bin" / "ycsb"
    keep_data: bool = False


def _tail(path: Path, lines: int = 3) -> str:
    text = path.read_text(errors="replace").strip() if path.is_file() else ""
    return " | ".join(text.splitlines()[-lines:]) or "(no output)"


def count_acknowledged(path: Path) -> int:
    """Complete lines of the writer's stdout: the keys it acknowledged before the kill."""
    if not path.is_file():
        return 0
    data = path.read_bytes()
    return data[: data.rfind(b"\n") + 1].count(b"\n") if b"\n" in data else 0


def _kill(proc: subprocess.Popen) -> None:
    """SIGKILL the writer's process group (the launcher execs the JVM, so that is the JVM itself)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def run_round(options: CrashOptions, engine: str, sync: bool, number: int, kill_after: float) -> Round:
    """One round: fresh directory, writer, SIGKILL `kill_after` s after the first ack, verifier."""
    started = time.monotonic()
    mode = f"sync-{str(sync).lower()}"
    raw = options.out / CRASH_DIR / engine / mode / f"r{number}"
    data = options.data / CRASH_DIR / engine / mode / f"r{number}"
    for d in (raw, data):
        shutil.rmtree(d, ignore_errors=True)
    raw.mkdir(parents=True)
    data.parent.mkdir(parents=True, exist_ok=True)  # the binding creates the directory itself
    # A suite engine is a binding plus the properties that pick its library (the registry's props).
    chosen = [f"{name}={value}" for name, value in ENGINE_PROPS.get(engine, ())]
    settings = (f"path={data}", f"sync={str(sync).lower()}", *chosen, *options.properties)
    props = [a for p in settings for a in ("-p", p)]
    result = Round(engine, sync, number, round(kill_after, 3), promised=promise(engine, sync, options.properties))
    acked = raw / "acked.txt"
    with open(acked, "wb") as out, open(raw / "writer.err", "wb") as err:
        writer = subprocess.Popen(
            [str(options.launcher), "crash-write", binding_of(engine), *props],
            stdout=out,
            stderr=err,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + FIRST_ACK_TIMEOUT
        while acked.stat().st_size == 0 and writer.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        if acked.stat().st_size == 0:
            why = (
                f"the writer exited with status {writer.returncode} before acknowledging anything"
                if writer.poll() is not None
                else f"the writer acknowledged nothing in {FIRST_ACK_TIMEOUT:.0f} s"
            )
            result.problem = f"{why}: {_tail(raw / 'writer.err')}"
        else:
            kill_at = time.monotonic() + kill_after
            while writer.poll() is None and time.monotonic() < kill_at:
                time.sleep(0.005)
            if writer.poll() is not None:
                result.problem = f"the writer exited with status {writer.returncode} before the kill: " + _tail(
                    raw / "writer.err"
                )
            result.killed = not result.problem
    finally:
        if writer.poll() is None:
            _kill(writer)
    result.acknowledged = count_acknowledged(acked)
    if not result.problem:
        check_files(engine, data, result)
        _verify(options, engine, props, raw, acked, result)
    result.seconds = round(time.monotonic() - started, 2)
    if not options.keep_data:
        shutil.rmtree(data, ignore_errors=True)
        # The acknowledged keys are worth keeping only as the evidence of a durability failure.
        if not result.durability_failure:
            acked.unlink(missing_ok=True)
    return result


def check_files(engine: str, data: Path, result: Round) -> None:
    """Runs the engine's own file checker, if it has one here, on a copy of what the kill left."""
    if engine not in FILE_CHECKS:
        return
    pattern, commands = FILE_CHECKS[engine]
    copy = data.with_name(data.name + "-copy")
    shutil.rmtree(copy, ignore_errors=True)
    try:
        # holes stay holes: with LMDB's writemap data.mdb is as long as the whole map (64 GiB by default)
        subprocess.run(["cp", "-a", "--sparse=always", str(data), str(copy)], check=True, timeout=VERIFY_TIMEOUT)
        # the project's own files (.ycsb-embedded.layout.ycsb.kct, the layout record) are not the engine's
        files = sorted(f for f in copy.glob(pattern) if not f.name.startswith("."))
        if not files:
            result.file_check, result.file_check_failed = f"no {pattern} file in {data}", True
            return
        said = []
        for f in files:
            for command in commands:
                args = [a.replace("{file}", str(f)) for a in command]
                try:
                    done = subprocess.run(args, capture_output=True, text=True, timeout=VERIFY_TIMEOUT)
                except FileNotFoundError:
                    raise SystemExit(
                        f"crash: {args[0]}, the {engine} file checker, is not installed (scripts/setup.sh installs it)"
                    ) from None
                if done.returncode != 0:
                    # what it said on stderr, else the end of its report (mdb_dump's report is every record)
                    text = " | ".join((done.stderr.strip() or done.stdout.strip()).splitlines()[-3:])
                    said.append(f"{' '.join(command[:2])} {f.name}: exit {done.returncode}: {text}")
        result.file_check, result.file_check_failed = ("; ".join(said), True) if said else ("ok", False)
    finally:
        shutil.rmtree(copy, ignore_errors=True)


def _verify(options: CrashOptions, engine: str, props: list[str], raw: Path, acked: Path, result: Round) -> None:
    try:
        done = subprocess.run(
            [str(options.launcher), "crash-verify", binding_of(engine), *props, "-acked", str(acked)],
            capture_output=True,
            stdin=subprocess.DEVNULL,
            timeout=VERIFY_TIMEOUT,
        )
        stdout, stderr, status = done.stdout, done.stderr, str(done.returncode)
    except subprocess.TimeoutExpired as e:
        stdout, stderr, status = e.stdout or b"", e.stderr or b"", f"timeout after {VERIFY_TIMEOUT:.0f} s"
    (raw / "verify.txt").write_bytes(stdout)
    (raw / "verify.err").write_bytes(stderr)
    verification = parse_verifier_output(stdout.decode(errors="replace"))
    if verification is None:
        result.problem = f"the verifier printed no counts (exit {status}): {_tail(raw / 'verify.err')}"
        return
    if verification.acknowledged != result.acknowledged:
        result.problem = (
            f"the verifier read {verification.acknowledged:,} acknowledged keys, the writer printed "
            f"{result.acknowledged:,}"
        )
        return
    result.present, result.lost = verification.present, verification.lost
    result.wrong, result.errors = verification.wrong, verification.errors
    result.reopen_failed, result.open_error = not verification.open_ok, verification.open_error
    result.close_failed = not verification.close_ok
    result.lost_keys = ",".join(verification.lost_keys)


def kill_moments(seed: int, count: int, window: tuple[float, float]) -> list[float]:
    """The kill delay of every round, in the order they run (pure: one seed, one sequence)."""
    rng = random.Random(seed)
    return [rng.uniform(*window) for _ in range(count)]


def run_check(options: CrashOptions, progress: TextIO | None = None) -> list[Round]:
    """Every engine x sync mode x round, in turn; writes crash.json and crash.csv after each round."""
    progress = progress or sys.stderr
    plan = [(e, s, n) for e in options.engines for s in options.syncs for n in range(1, options.rounds + 1)]
    moments = kill_moments(options.seed, len(plan), options.kill_window)
    rounds: list[Round] = []
    started = datetime.now(UTC).isoformat(timespec="seconds")
    for (engine, sync, number), kill_after in zip(plan, moments, strict=True):
        r = run_round(options, engine, sync, number, kill_after)
        rounds.append(r)
        state = (
            f"NOT CHECKED: {r.problem}"
            if r.problem
            else f"killed {r.kill_after_s:.2f} s after the first ack; {r.acknowledged:,} acknowledged, "
            f"{r.lost:,} lost, {r.wrong + r.errors:,} wrong"
            + (", REOPEN FAILED" if r.reopen_failed else "")
            + (", FILE CHECK FAILED" if r.file_check_failed else "")
        )
        print(
            f"crash: {engine} sync={str(sync).lower()} round {number}/{options.rounds}: {state}",
            file=progress,
            flush=True,
        )
        write_results(options, rounds, started)
    return rounds


def write_results(options: CrashOptions, rounds: list[Round], started: str) -> Path:
    directory = options.out / CRASH_DIR
    directory.mkdir(parents=True, exist_ok=True)
    document = {
        "started": started,
        "seed": options.seed,
        "rounds_per_mode": options.rounds,
        "kill_window_s": list(options.kill_window),
        "engines": options.engines,
        "sync": [str(s).lower() for s in options.syncs],
        "properties": list(options.properties),
        "summary": [asdict(s) | {"verdict": s.verdict} for s in summarise(rounds)],
        "rounds": [asdict(r) for r in rounds],
    }
    (directory / RESULTS_JSON).write_text(json.dumps(document, indent=2) + "\n")
    with open(directory / ROUNDS_CSV, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=ROUND_FIELDS)
        w.writeheader()
        for r in rounds:
            w.writerow(asdict(r))
    return directory / RESULTS_JSON


# --- command line --------------------------------------------------------------------------------


def _split(values: list[str] | None) -> list[str]:
    return [v for value in values or [] for v in value.split(",") if v]


def _window(text: str) -> tuple[float, float]:
    low, sep, high = text.partition("-")
    try:
        window = (float(low), float(high if sep else low))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--kill-after takes MIN-MAX seconds, got '{text}'") from None
    if not 0 <= window[0] <= window[1]:
        raise argparse.ArgumentTypeError(f"--kill-after needs 0 <= MIN <= MAX, got '{text}'")
    return window


def parse_args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m analysis crash", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--engines", nargs="+", metavar="ENGINE", help=f"default: {' '.join(ENGINES)} (commas work too)")
    p.add_argument("--rounds", type=int, default=3, metavar="N", help="rounds per engine and sync mode (default 3)")
    p.add_argument("--sync", default="true,false", metavar="MODES", help="true, false or true,false (default)")
    p.add_argument("--out", type=Path, help="results directory (default results/<time>-crash); a suite's works")
    p.add_argument("--data-dir", type=Path, help="where the databases go (default <out>/data)")
    p.add_argument("--seed", type=int, help="seed of the kill moments (default: a new one, printed)")
    p.add_argument(
        "--kill-after",
        type=_window,
        default=DEFAULT_KILL_WINDOW,
        metavar="MIN-MAX",
        help="seconds after the first acknowledgement (default 0.3-2)",
    )
    p.add_argument(
        "-p",
        dest="properties",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a binding property for writer and verifier (e.g. -p batchsize=100)",
    )
    p.add_argument(
        "--launcher",
        type=Path,
        default=REPO / "bin" / "ycsb",
        help="the bin/ycsb to run (default: this checkout's; a distribution's works)",
    )
    p.add_argument("--keep-data", action="store_true", help="keep every round's database and acknowledged keys")
    args = p.parse_args(argv)
    if args.rounds < 1:
        p.error("--rounds must be at least 1")
    modes = _split([args.sync])
    if not modes or any(m not in ("true", "false") for m in modes):
        p.error(f"--sync takes true, false or true,false; got '{args.sync}'")
    args.syncs = tuple(dict.fromkeys(m == "true" for m in modes))
    for prop in args.properties:
        name = prop.partition("=")[0]
        if "=" not in prop or name in ("path", "sync"):
            p.error(f"-p takes NAME=VALUE other than path and sync (the check sets them), got '{prop}'")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    out = (args.out or REPO / "results" / f"{datetime.now():%Y%m%d-%H%M%S}-crash").resolve()
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
    options = CrashOptions(
        out=out,
        data=(args.data_dir or out / "data").resolve(),
        engines=_split(args.engines) or list(ENGINES),
        rounds=args.rounds,
        syncs=args.syncs,
        seed=seed,
        kill_window=args.kill_after,
        properties=tuple(args.properties),
        launcher=args.launcher.resolve(),
        keep_data=args.keep_data,
    )
    print(
        f"crash: {len(options.engines)} engine(s) x sync={','.join(str(s).lower() for s in options.syncs)} x "
        f"{options.rounds} round(s), seed {seed}; results in {out / CRASH_DIR}",
        file=sys.stderr,
    )
    rounds = check_and_report(options)
    return 1 if failures(rounds) else 0


def check_and_report(options: CrashOptions, stream: TextIO | None = None) -> list[Round]:
    """Runs the check, prints the table and every failure (on stdout by default); what the suite calls too."""
    stream = stream or sys.stdout
    rounds = run_check(options)
    if not options.keep_data:
        shutil.rmtree(options.data / CRASH_DIR, ignore_errors=True)
        with contextlib.suppress(OSError):
            options.data.rmdir()  # only when nothing else is in it
    print(format_table(summarise(rounds)), file=stream)
    for line in failures(rounds):
        print(f"FAILED {line}", file=stream)
    for line in unpromised_losses(rounds):
        print(f"reported, not failed (nothing promised in this mode): {line}", file=stream)
    return rounds


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
