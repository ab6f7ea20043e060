"""A memory budget the kernel enforces: each step's JVM runs inside a memory cgroup of the budget's size,
so its heap, the engine's caches and the page cache of its files share that memory, as on a machine
with that much memory (`python -m analysis run --memory 1g`).

Where the controller is:
- cgroup v2 (the unified hierarchy mounted at /sys/fs/cgroup): `memory.max`, peak `memory.peak`,
  page cache `file` in `memory.stat`, OOM kills `oom_kill` in `memory.events`;
- cgroup v1 (a `memory` controller mounted at /sys/fs/cgroup/memory; these machines):
  `memory.limit_in_bytes`, peak `memory.max_usage_in_bytes`, page cache `total_cache` in `memory.stat`,
  `memory.failcnt` (plus `memory.memsw.failcnt`), and `oom_kill` in `memory.oom_control` (kernels from 4.13).
  `memory.memsw.limit_in_bytes` (memory and swap) is set to the budget only where the machine has swap:
  the kernel charges memsw before memory, so with both limits equal every refused charge is memsw's,
  `memory.failcnt` stays 0, and Linux 6.18 does not count `memory.memsw.failcnt` either (seen here: a
  child killed at a 32 MB budget read "limit hit 0 times" beside its OOM kill; without the memsw limit,
  103 times). Without swap the memory limit alone is the whole budget.
A step's group is made inside the group this process is in (so whatever limits that one has still
hold), the JVM joins it before it starts (a shell writes its own pid to `cgroup.procs` and `exec`s
bin/ycsb, which `exec`s java: one process all along), and the group is removed after the step.

Where neither is usable (v2 not delegated to this process's group, v1 not writable) but systemd manages
the cgroups (PID 1 is systemd and `systemd-run` is on PATH), the third mechanism: each step runs as
`systemd-run --scope --quiet --unit=ycsb-step-... -p MemoryMax=SIZE -p MemorySwapMax=0 -- COMMAND`
(on a v1 hierarchy systemd's `MemoryLimit=` instead, which it maps to `memory.limit_in_bytes`;
`--user` when not root). systemd-run `exec`s the command inside the scope it made, so the pid is the
JVM's as before. systemd removes the scope when its process ends, so its usage is read while the step
runs (each poll of the runner, `StepGroup.sample`): the scope's group is found from the JVM's
/proc/<pid>/cgroup, and the last reading is the step's.

The v1 controller charges a page of the page cache to the group that first touched it: pages a load
left cached stay outside a later step's budget. So before each step the data directory's pages are
evicted (fsync, then `posix_fadvise(DONTNEED)` on every file) and the step starts cold.

No memory controller, or none this process may write to: `--memory` is refused with the reason;
never run unlimited in silence. `YCSB_CGROUP_ROOT` points the probe at another directory (tests use
an empty one to see the refusal).
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import uuid
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..report.formatting import BINARY_UNITS, format_budget
from .resources import flush_directory

CGROUP_ROOT_ENV = "YCSB_CGROUP_ROOT"
DEFAULT_CGROUP_ROOT = Path("/sys/fs/cgroup")
GROUP_PREFIX = "ycsb-step-"
# Exit code of a JVM the kernel's OOM killer ended (SIGKILL), as os.waitstatus_to_exitcode gives it.
KILLED = -9


class BudgetRefused(Exception):
    """--memory cannot be enforced on this machine; the message says why."""


def parse_budget(text: str) -> int:
    """'1g' -> 1073741824; k, m, g, t (binary), an optional trailing 'b' or 'ib'; at least 16 MB (pure)."""
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", text.lower())
    if not m:
        raise ValueError(f"--memory {text!r}: not a size; use a number with k, m or g (e.g. 512m, 1g)")
    size = int(float(m.group(1)) * BINARY_UNITS[m.group(2)])
    if size < 16 << 20:
        raise ValueError(f"--memory {text!r}: at least 16m (a JVM does not start in less)")
    return size


def stat_values(text: str) -> dict[str, int]:
    """`name value` lines (memory.stat, memory.oom_control, memory.events) as a dict (pure)."""
    values = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if value.strip().lstrip("-").isdigit():
            values[name] = int(value)
    return values


def own_group(proc_cgroup: str, version: int) -> str:
    """This process's group path from /proc/self/cgroup: the `memory` line (v1) or the `0::` line (v2)."""
    for line in proc_cgroup.splitlines():
        _, controllers, path = line.split(":", 2)
        if (version == 1 and "memory" in controllers.split(",")) or (version == 2 and controllers == ""):
            return path
    return "/"


@dataclass(frozen=True)
class Controller:
    """Where step groups are made, and which file names this cgroup version uses."""

    version: int  # 1 or 2
    parent: Path  # the directory step groups are made in; with systemd_run, the hierarchy's root
    systemd_run: str | None = None  # systemd-run, when systemd makes each step's group (a transient scope)
    user: bool = False  # systemd-run --user: the user's service manager, for a process that is not root

    @property
    def mechanism(self) -> str:
        """How the budget is enforced, in words."""
        how = "systemd-run --user --scope" if self.user else "systemd-run --scope"
        return f"{how} (cgroup v{self.version})" if self.systemd_run else f"cgroup v{self.version}"

    @property
    def limit_file(self) -> str:
        return "memory.limit_in_bytes" if self.version == 1 else "memory.max"

    @property
    def peak_file(self) -> str:
        return "memory.max_usage_in_bytes" if self.version == 1 else "memory.peak"

    @property
    def cache_stat(self) -> str:
        return "total_cache" if self.version == 1 else "file"


def find_controller(
    root: Path | None = None,
    proc_cgroup: str | None = None,
    pid1: str | None = None,
    systemd_run: str | None = None,
    uid: int | None = None,
) -> Controller:
    """The memory controller this process may make groups under, or systemd-run where systemd may make
    them for it, or BudgetRefused saying why none of the three can. The arguments default to this
    machine's: its cgroup tree, /proc/self/cgroup, /proc/1/comm, `systemd-run` on PATH, the uid."""
    root = root or Path(os.environ.get(CGROUP_ROOT_ENV) or DEFAULT_CGROUP_ROOT)
    if proc_cgroup is None:
        try:
            proc_cgroup = Path("/proc/self/cgroup").read_text()
        except OSError:
            proc_cgroup = ""
    if pid1 is None:
        pid1 = _read(Path("/proc/1/comm")).strip()
    if systemd_run is None:
        systemd_run = shutil.which("systemd-run") or ""
    if uid is None:
        uid = os.getuid()
    candidates: list[tuple[int, Path]] = []
    if (root / "memory" / "memory.limit_in_bytes").is_file():
        candidates.append((1, root / "memory"))
    if "memory" in _read(root / "cgroup.controllers").split():
        candidates.append((2, root))
    if not candidates:
        raise BudgetRefused(
            f"--memory needs a memory cgroup controller and {root} has none "
            f"(no v1 {root}/memory/memory.limit_in_bytes, no v2 'memory' in {root}/cgroup.controllers)"
        )
    reasons = []
    for version, base in candidates:
        parent = base / own_group(proc_cgroup, version).lstrip("/")
        if not parent.is_dir():
            parent = base
        if version == 2 and "memory" not in _read(parent / "cgroup.subtree_control").split():
            reasons.append(f"v2: {parent} does not delegate the memory controller to its children")
            continue
        if not os.access(parent, os.W_OK):
            reasons.append(f"v{version}: {parent} is not writable by uid {uid} (run as root)")
            continue
        return Controller(version, parent)
    version, base = max(candidates)  # the unified hierarchy where there is one: systemd limits there
    why_not = systemd_refusal(pid1, systemd_run, version, uid)
    if why_not is None:
        return Controller(version, base, systemd_run=systemd_run, user=uid != 0)
    reasons.append(f"systemd-run: {why_not}")
    raise BudgetRefused("--memory cannot be enforced: " + "; ".join(reasons))


def systemd_refusal(pid1: str, systemd_run: str, version: int, uid: int) -> str | None:
    """Why systemd cannot make the steps' memory groups either, or None when it can (pure)."""
    if pid1 != "systemd":
        return f"PID 1 is {pid1 or 'unknown'!r}, not systemd, so no service manager makes scopes"
    if not systemd_run:
        return "PID 1 is systemd but there is no systemd-run on PATH"
    if version == 1 and uid != 0:
        return f"a user's scope cannot limit memory on cgroup v1 (uid {uid}; run as root)"
    return None


def scope_command(controller: Controller, unit: str, budget: int, command: list[str]) -> list[str]:
    """The command started in a transient systemd scope named unit with the budget as its memory limit
    and no swap: MemoryMax= and MemorySwapMax= on the unified hierarchy, MemoryLimit= on v1 (pure)."""
    if controller.systemd_run is None:
        raise ValueError("scope_command needs a controller that runs steps through systemd-run")
    if controller.version == 2:
        limits = ["-p", f"MemoryMax={budget}", "-p", "MemorySwapMax=0"]
    else:
        limits = ["-p", f"MemoryLimit={budget}"]
    user = ["--user"] if controller.user else []
    return [controller.systemd_run, *user, "--scope", "--quiet", f"--unit={unit}", *limits, "--", *command]


def scope_group(controller: Controller, proc_cgroup: str, unit: str) -> Path | None:
    """The scope's group directory from its process's /proc/<pid>/cgroup, or None while the process is not
    in that scope yet (systemd-run moves itself in before it execs the command) (pure)."""
    path = own_group(proc_cgroup, controller.version)
    if PurePosixPath(path).name != unit:
        return None
    return controller.parent / path.lstrip("/")


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


@dataclass
class BudgetUsage:
    """What a step's group used: cell.json's `resources` gets these fields."""

    budget_bytes: int
    cgroup_peak_bytes: int | None
    cgroup_cache_bytes: int | None  # page cache charged to the group at the end of the step
    cgroup_failcnt: int | None  # times the limit was hit (v1; v2: memory.events `max`)
    cgroup_oom_kills: int | None


class StepGroup:
    """One step's memory cgroup: made with its limit, joined by the JVM through `wrap`, read, removed."""

    def __init__(self, controller: Controller, budget: int, name: str | None = None) -> None:
        self.controller = controller
        self.budget = budget
        name = name or GROUP_PREFIX + uuid.uuid4().hex[:12]
        self.unit = name + ".scope"  # systemd-run's scope (the third mechanism)
        self.path = controller.parent / name  # with systemd-run: where the scope is, once sample() finds it
        self._last: BudgetUsage | None = None  # with systemd-run: the last reading while the step ran

    def __enter__(self) -> StepGroup:
        return self.create()

    def create(self) -> StepGroup:
        """Makes the group with its limit (and no swap beyond it); systemd-run makes its scope itself."""
        if self.controller.systemd_run is not None:
            return self
        self.path.mkdir()
        try:
            (self.path / self.controller.limit_file).write_text(str(self.budget))
            if self.controller.version == 1:
                # Without swap the limit is the whole budget; with swap, memsw keeps it from spilling there.
                # Only then: memsw is charged first, so an equal memsw limit takes every refusal from
                # memory.failcnt (see the module's docstring).
                memsw = self.path / "memory.memsw.limit_in_bytes"
                if memsw.exists() and machine_has_swap():
                    memsw.write_text(str(self.budget))
            else:
                swap = self.path / "memory.swap.max"
                if swap.exists():
                    swap.write_text("0")
        except OSError:
            self.remove()
            raise
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def wrap(self, command: list[str]) -> list[str]:
        """The command, started inside this group: the shell joins it and `exec`s the command (same pid);
        or systemd-run makes the scope and `exec`s the command in it (same pid too)."""
        if self.controller.systemd_run is not None:
            return scope_command(self.controller, self.unit, self.budget, command)
        procs = shlex.quote(str(self.path / "cgroup.procs"))
        return ["/bin/sh", "-c", f'echo $$ > {procs} && exec "$@"', "ycsb-budget", *command]

    def sample(self, pid: int, proc_cgroup: str | None = None) -> None:
        """With systemd-run, reads the scope's usage while its process lives (systemd removes the scope when
        it ends); a no-op for a group of our own, which stays until remove(). proc_cgroup: the process's
        /proc/<pid>/cgroup (read when not given)."""
        if self.controller.systemd_run is None:
            return
        if proc_cgroup is None:
            proc_cgroup = _read(Path(f"/proc/{pid}/cgroup"))
        path = scope_group(self.controller, proc_cgroup, self.unit)
        if path is None or not path.is_dir():
            return  # not in its scope yet, or the scope is gone: the last reading stays
        self.path = path
        reading = self._read_usage()
        if reading.cgroup_peak_bytes is None:  # no memory.peak (v2 before Linux 5.19): the most seen so far
            seen = [_int_or_none(_read(path / "memory.current"))]
            if self._last is not None:
                seen.append(self._last.cgroup_peak_bytes)
            reading.cgroup_peak_bytes = max((x for x in seen if x is not None), default=None)
        self._last = reading

    def usage(self) -> BudgetUsage:
        """What the group used; with systemd-run the last reading while the step ran (nothing read: None's)."""
        if self.controller.systemd_run is not None:
            return self._last or BudgetUsage(self.budget, None, None, None, None)
        return self._read_usage()

    def _read_usage(self) -> BudgetUsage:
        stat = stat_values(_read(self.path / "memory.stat"))
        if self.controller.version == 1:
            # a charge memsw refused never reaches memory's counter: each refusal is in one of the two
            counts = [_int_or_none(_read(self.path / f)) for f in ("memory.failcnt", "memory.memsw.failcnt")]
            failcnt = None if counts[0] is None else sum(c for c in counts if c is not None)
            oom = stat_values(_read(self.path / "memory.oom_control")).get("oom_kill")
        else:
            events = stat_values(_read(self.path / "memory.events"))
            failcnt, oom = events.get("max"), events.get("oom_kill")
        return BudgetUsage(
            self.budget,
            _int_or_none(_read(self.path / self.controller.peak_file)),
            stat.get(self.controller.cache_stat),
            failcnt,
            oom,
        )

    def remove(self) -> None:
        """Removes the group: v1 moves what it still charges to the parent; a live process keeps it (EBUSY).
        A systemd scope is systemd's to remove (it does when its process ends)."""
        if self.controller.systemd_run is not None:
            return
        if self.controller.version == 1:
            force = self.path / "memory.force_empty"
            try:
                force.write_text("0")  # drop the page cache it charges, so the parent does not inherit it
            except OSError:
                pass
        try:
            self.path.rmdir()
        except OSError:
            pass


def machine_has_swap(meminfo: str | None = None) -> bool:
    """Whether /proc/meminfo (or the text given) reports any swap (SwapTotal above 0)."""
    text = _read(Path("/proc/meminfo")) if meminfo is None else meminfo
    m = re.search(r"^SwapTotal:\s*(\d+)", text, re.MULTILINE)
    return bool(m and int(m.group(1)) > 0)


def _int_or_none(text: str) -> int | None:
    text = text.strip()
    return int(text) if text.lstrip("-").isdigit() else None


def evict_directory(directory: Path) -> int:
    """Writes back and drops every file's pages under directory from the page cache; the bytes evicted
    (the files' sizes). A step then reads from disk what it reads, inside its own budget."""
    return flush_directory(directory, evict=True)


def oom_problem(usage: BudgetUsage, exit_code: int) -> str | None:
    """The problem line of a step the budget killed, with what it had used; None if it was not (pure)."""
    if exit_code not in (KILLED, 137) and not usage.cgroup_oom_kills:
        return None
    if not usage.cgroup_oom_kills and not usage.cgroup_failcnt:
        return None  # killed by something else (a timeout says so itself)
    peak = f"{usage.cgroup_peak_bytes / 2**20:.0f} MB" if usage.cgroup_peak_bytes is not None else "unknown"
    return (
        f"killed by the memory budget (OOM, exit {exit_code}): peak {peak} of {format_budget(usage.budget_bytes)}, "
        f"limit hit {usage.cgroup_failcnt or 0} times, {usage.cgroup_oom_kills or 0} OOM kill(s)"
    )
