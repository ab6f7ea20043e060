"""One JVM for all the steps of a cell: `bin/ycsb cell <engine> -` (the driver, harness/.../Driver.java) reads a
step from its stdin, runs it with its own measurements and output files, answers with the step's exit status on a
line of its stdout, and waits for the next. Between the answers the JVM is idle, so each step's costs are measured
from outside as the runner measures a JVM of its own (resources.py), as differences of the process's counters:
CPU from /proc/<pid>/stat, bytes from /proc/<pid>/io, the peak resident set from VmHWM after resetting it through
/proc/<pid>/clear_refs. The JVM's start, its class loading and its exit fall between steps and count in none.
"""

from __future__ import annotations

import os
import select
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from ..catalogue.model import Scenario, binding_of
from ..results.engine_lines import parse_size
from .plan import ResolvedStep, RunOptions
from .resources import CLOCK_TICKS, ProcessUsage, read_proc_io

# bin/ycsb's command for a cell's JVM; its steps' lines follow on stdin.
CELL_COMMAND = "cell"


@dataclass
class Counters:
    """One sample of a process's cumulative counters."""

    user_ticks: int
    system_ticks: int
    io: dict[str, int]


def read_counters(pid: int) -> Counters | None:
    """The process's CPU ticks and I/O counters so far, or None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # after the command name, which may hold blanks
    io = read_proc_io(pid) or {}
    return Counters(int(fields[11]), int(fields[12]), io)


def peak_rss_bytes(pid: int) -> int | None:
    """VmHWM of the process in bytes: its peak resident set since start or since the last reset."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def reset_peak_rss(pid: int) -> None:
    """Starts the process's peak resident set anew from its current one (clear_refs 5); nothing if refused."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
    except OSError:
        pass


def step_usage(before: Counters, after: Counters, peak: int | None) -> ProcessUsage:
    """What the process used between two samples (pure)."""

    def delta(name: str) -> int | None:
        if name in before.io and name in after.io:
            return after.io[name] - before.io[name]
        return None

    written = delta("write_bytes")
    return ProcessUsage(
        user_seconds=round((after.user_ticks - before.user_ticks) / CLOCK_TICKS, 3),
        system_seconds=round((after.system_ticks - before.system_ticks) / CLOCK_TICKS, 3),
        peak_rss_bytes=peak or 0,
        written_bytes=written or 0,
        io_write_bytes=written,
        io_cancelled_write_bytes=delta("cancelled_write_bytes"),
        io_wchar=delta("wchar"),
        io_read_bytes=delta("read_bytes"),
        io_rchar=delta("rchar"),
    )


class CellJvm:
    """The JVM of one cell, started on the first step and closed after the last (or the first that fails)."""

    def __init__(self, command: list[str], stderr: Path, cwd: Path) -> None:
        self._err = stderr.open("w")
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._err,
            cwd=cwd,
            start_new_session=True,
            text=True,
            bufsize=1,
        )

    def step(self, line: str, timeout: float | None) -> tuple[int, bool, ProcessUsage | None]:
        """Runs one step (its stdout file, stderr file and YCSB arguments, tab-separated): (exit status, timed out,
        what it used). A JVM that died answers with its exit status; a step past its timeout kills the JVM."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        pid = self.proc.pid
        reset_peak_rss(pid)
        before = read_counters(pid)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except OSError:  # the JVM is gone
            return self.close(), False, None
        deadline = None if timeout is None else time.monotonic() + timeout
        answer = ""
        while not answer.endswith("\n"):
            wait = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.proc.stdout], [], [], wait)
            if not ready:
                self.kill()
                return self.close(), True, None
            got = self.proc.stdout.readline()
            if not got:  # the JVM exited without answering
                return self.close(), False, None
            answer += got
        after = read_counters(pid)
        usage = step_usage(before, after, peak_rss_bytes(pid)) if before and after else None
        return int(answer.strip()), False, usage

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass

    def close(self) -> int:
        """Ends the JVM (its stdin closed: it exits after the last step) and returns its exit status."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            code = self.proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.kill()
            code = self.proc.wait()
        self._err.close()
        return code


def one_jvm(options: RunOptions, engine: str) -> bool:
    """Whether a cell's steps share one JVM: ours, without a memory budget (which wants a cgroup per step)."""
    # bin/ycsb's cell runs the driver: with YCSB_CLIENT=upstream every step gets YCSB's own Client in a JVM of its own
    return (
        options.one_jvm
        and engine not in options.peers
        and options.memory is None
        and os.environ.get("YCSB_CLIENT", "driver") == "driver"
    )


class CellJvms:
    """The JVM of one repeat of a cell: started at its first step, with the largest heap its steps ask for."""

    def __init__(
        self, options: RunOptions, engine: str, scenario: Scenario, steps: list[ResolvedStep], repeat_dir: Path
    ) -> None:
        binding = scenario.binding_for(engine) or binding_of(engine)
        self.command = [str(options.launcher), CELL_COMMAND, binding, "-"]
        heaps = [s.step.heap for s in steps if s.step.heap]
        if heaps:
            largest = max(heaps, key=lambda h: parse_size(h) or 0)
            self.command = ["env", f"JAVA_OPTS={os.environ.get('JAVA_OPTS', '')} -Xmx{largest}".strip(), *self.command]
        self.stderr = repeat_dir / "cell.err"
        self.cwd = options.repo
        self.jvm: CellJvm | None = None

    def get(self) -> CellJvm:
        if self.jvm is None:
            self.jvm = CellJvm(self.command, self.stderr, self.cwd)
        return self.jvm

    def close(self) -> None:
        if self.jvm is not None:
            self.jvm.close()
            self.jvm = None

    def kill(self) -> None:
        if self.jvm is not None:
            self.jvm.kill()
            self.jvm.close()
            self.jvm = None
