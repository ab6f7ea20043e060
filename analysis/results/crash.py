"""The crash check's model: what each engine and sync mode promises, a round and its verdict, the
summary table, and a results directory's crash.json as the report reads it (pure; the run is in
running/crash.py)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..catalogue.engines import REGISTERED

CRASH_DIR = "crash"  # under a results directory
RESULTS_JSON = "crash.json"
ROUNDS_CSV = "crash.csv"
DEFAULT_KILL_WINDOW = (0.3, 2.0)  # seconds after the first acknowledgement
ROUND_FIELDS = (
    "engine",
    "sync",
    "round",
    "kill_after_s",
    "killed",
    "acknowledged",
    "present",
    "lost",
    "wrong",
    "errors",
    "reopen_failed",
    "open_error",
    "close_failed",
    "file_check",
    "file_check_failed",
    "problem",
    "lost_keys",
    "seconds",
    "promised",
)
# An engine's own checker of its files, run on a copy of the crashed directory before the reopen (which may
# repair what it finds): (file pattern, commands run on each file in turn; {file} is replaced). From the
# registry's crash.filecheck; engines without one have none here.
FILE_CHECKS: dict[str, tuple[str, tuple[tuple[str, ...], ...]]] = {
    e.name: e.file_check for e in REGISTERED.engines if e.file_check is not None
}


def file_check_name(engine: str) -> str:
    """How the report names an engine's checker: `kctreemgr check`, `mdb_stat -efn` and `mdb_dump -n`."""
    return " and ".join(f"`{' '.join(a for a in command if a != '{file}')}`" for command in FILE_CHECKS[engine][1])


# What the project promises a killed process (SIGKILL) keeps, per engine and sync mode, with each binding's
# defaults: the registry's crash.promise.sync and crash.promise.async, in the words of the README's "Durability:
# what a crash costs" table and the binding READMEs. A round that breaks its promise fails the check; an engine
# or mode with none has no promise beyond the project's rule that a write acknowledged under sync=true survives
# kill -9.
PROMISES: dict[tuple[str, bool], str] = {
    (e.name, sync): text
    for e in REGISTERED.engines
    for sync, text in ((False, e.promise_async), (True, e.promise_sync))
    if text
}
SYNCED_WRITES_SURVIVE = "project rule: a write acknowledged under sync=true survives kill -9"
# Properties under which the binding READMEs withdraw the promise (the registry's crash.withdrawn).
NO_PROMISE_WITH: dict[str, tuple[tuple[str, str], ...]] = {
    e.name: e.withdrawn for e in REGISTERED.engines if e.withdrawn
}


def promise(engine: str, sync: bool, properties: tuple[str, ...] = ()) -> str:
    """What a killed process must keep for this engine, mode and -p properties; "" when nothing is promised."""
    given = {name.strip(): value.strip().lower() for name, _, value in (p.partition("=") for p in properties)}
    if any(given.get(name) == value for name, value in NO_PROMISE_WITH.get(engine, ())):
        return ""
    return PROMISES.get((engine, sync), SYNCED_WRITES_SURVIVE if sync else "")


@dataclass(frozen=True)
class Verification:
    """What `bin/ycsb crash-verify` printed (its `name=value` lines)."""

    acknowledged: int
    present: int
    lost: int
    wrong: int
    errors: int
    open_ok: bool
    open_error: str = ""
    close_ok: bool = True
    close_error: str = ""
    lost_keys: tuple[str, ...] = ()


def parse_verifier_output(text: str) -> Verification | None:
    """The verifier's counts, or None when it printed none (it crashed or was never run)."""
    values: dict[str, str] = {}
    for line in text.splitlines():
        name, sep, value = line.partition("=")
        if sep and name.isidentifier():
            values.setdefault(name, value)
    counts = ("acknowledged", "present", "lost", "wrong", "errors")
    if any(not values.get(c, "").isdigit() for c in counts) or values.get("open") not in ("ok", "failed"):
        return None
    acknowledged, present, lost, wrong, errors = (int(values[c]) for c in counts)
    return Verification(
        acknowledged,
        present,
        lost,
        wrong,
        errors,
        open_ok=values["open"] == "ok",
        open_error=values.get("open_error", ""),
        close_ok=values.get("close", "ok") == "ok",
        close_error=values.get("close_error", ""),
        lost_keys=tuple(k for k in values.get("lost_keys", "").split(",") if k),
    )


@dataclass
class Round:
    engine: str
    sync: bool
    round: int
    kill_after_s: float
    killed: bool = False  # the SIGKILL hit a writer that was still writing
    acknowledged: int = 0
    present: int = 0
    lost: int = 0
    wrong: int = 0
    errors: int = 0  # reads that failed
    reopen_failed: bool = False
    open_error: str = ""
    close_failed: bool = False
    file_check: str = ""  # the engine's own file checker: "" (none), "ok" or what it said
    file_check_failed: bool = False
    problem: str = ""  # the round could not be run as a crash test (see `problem`)
    lost_keys: str = ""
    seconds: float = 0.0
    # What this engine and mode promise a killed process keeps ("" nothing); None: `promise` without properties.
    promised: str | None = None

    def __post_init__(self) -> None:
        if self.promised is None:
            self.promised = promise(self.engine, self.sync)

    @property
    def damaged(self) -> int:
        """Acknowledged writes not read back intact."""
        return self.lost + self.wrong + self.errors

    @property
    def harmed(self) -> bool:
        """An acknowledged write not read back intact, the database gone or its file rejected."""
        return not self.problem and (self.damaged > 0 or self.reopen_failed or self.file_check_failed)

    @property
    def durability_failure(self) -> bool:
        """Harmed in a mode that promised it would not be: the engine broke its promise."""
        return bool(self.promised) and self.harmed


@dataclass(frozen=True)
class Summary:
    """One engine and sync mode over all its rounds."""

    engine: str
    sync: bool
    rounds: int
    acknowledged: int
    lost: int
    wrong: int
    errors: int
    reopen_failures: int
    file_check_failures: int | None  # None: the engine has no file checker here
    rounds_with_loss: int
    problems: int
    promised: bool = True

    @property
    def verdict(self) -> str:
        if self.problems:
            return "NOT CHECKED" if self.problems == self.rounds else "PARTLY CHECKED"
        if self.lost + self.wrong + self.errors or self.reopen_failures or self.file_check_failures:
            return "FAILED" if self.promised else "lost (nothing promised)"
        return "kept everything"


def summarise(rounds: list[Round]) -> list[Summary]:
    """Per engine and sync mode, in the order first run (pure)."""
    keys: list[tuple[str, bool]] = []
    for r in rounds:
        if (r.engine, r.sync) not in keys:
            keys.append((r.engine, r.sync))
    out = []
    for engine, sync in keys:
        mine = [r for r in rounds if r.engine == engine and r.sync == sync]
        ran = [r for r in mine if not r.problem]
        out.append(
            Summary(
                engine,
                sync,
                len(mine),
                sum(r.acknowledged for r in ran),
                sum(r.lost for r in ran),
                sum(r.wrong for r in ran),
                sum(r.errors for r in ran),
                sum(1 for r in ran if r.reopen_failed),
                sum(1 for r in ran if r.file_check_failed) if any(r.file_check for r in ran) else None,
                sum(1 for r in ran if r.damaged),
                len(mine) - len(ran),
                all(r.promised for r in mine),
            )
        )
    return out


def failures(rounds: list[Round]) -> list[str]:
    """Why the check fails, one line per round: a broken promise or a round that could not run (pure)."""
    lines = []
    for r in rounds:
        where = f"{r.engine} sync={str(r.sync).lower()} round {r.round}"
        if r.problem:
            lines.append(f"{where}: not checked: {r.problem}")
        elif r.durability_failure:
            what = []
            if r.reopen_failed:
                what.append(f"reopen failed: {r.open_error}")
            if r.damaged:
                what.append(
                    f"{r.damaged:,} of {r.acknowledged:,} acknowledged writes lost or changed "
                    f"(lost {r.lost:,}, wrong {r.wrong:,}, unreadable {r.errors:,}; first: {r.lost_keys})"
                )
            if r.file_check_failed:
                what.append(f"file check failed: {r.file_check}")
            lines.append(f"{where}: {'; '.join(what)}; promised: {r.promised}")
    return lines


def unpromised_losses(rounds: list[Round]) -> list[str]:
    """Rounds harmed in a mode with no promise: reported, not failures (pure)."""
    return [
        f"{r.engine} sync={str(r.sync).lower()} round {r.round}: {r.damaged:,} of {r.acknowledged:,} acknowledged "
        f"writes lost or changed"
        + (", reopen failed" if r.reopen_failed else "")
        + (", file check failed" if r.file_check_failed else "")
        for r in rounds
        if r.harmed and not r.promised
    ]


def format_table(summaries: list[Summary]) -> str:
    """The printed table (pure)."""
    headers = [
        "engine",
        "sync",
        "rounds",
        "acknowledged",
        "lost",
        "wrong",
        "unreadable",
        "reopen failed",
        "file check failed",
        "rounds with loss",
        "verdict",
    ]
    rows = [
        [
            s.engine,
            str(s.sync).lower(),
            str(s.rounds),
            f"{s.acknowledged:,}",
            f"{s.lost:,}",
            f"{s.wrong:,}",
            f"{s.errors:,}",
            str(s.reopen_failures),
            "—" if s.file_check_failures is None else str(s.file_check_failures),
            str(s.rounds_with_loss),
            s.verdict,
        ]
        for s in summaries
    ]
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i in (0, 1, 10) else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return "\n".join([line(headers), *(line(r) for r in rows)])


@dataclass
class CrashResults:
    """A results directory's crash check, as the report reads it."""

    seed: int
    rounds_per_mode: int
    kill_window_s: tuple[float, float]
    rounds: list[Round] = field(default_factory=list)

    @property
    def summaries(self) -> list[Summary]:
        return summarise(self.rounds)


def load_crash_results(results_dir: Path) -> CrashResults | None:
    path = Path(results_dir) / CRASH_DIR / RESULTS_JSON
    if not path.is_file():
        return None
    doc = json.loads(path.read_text())
    names = set(Round.__dataclass_fields__)
    rounds = [Round(**{k: v for k, v in r.items() if k in names}) for r in doc.get("rounds", [])]
    properties = tuple(doc.get("properties", []))
    for r, raw in zip(rounds, doc.get("rounds", []), strict=True):
        if "promised" not in raw:  # written before the promises were recorded per round
            r.promised = promise(r.engine, r.sync, properties)
    window = doc.get("kill_window_s", list(DEFAULT_KILL_WINDOW))
    return CrashResults(doc.get("seed", 0), doc.get("rounds_per_mode", 0), (window[0], window[1]), rounds)
