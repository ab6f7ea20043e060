"""What a step cost, measured from outside the JVM: the operating system's account of the child
process (CPU, peak memory, bytes written) and the database's size on disk afterwards.

bin/ycsb `exec`s java, so the child the runner starts *is* the JVM: `os.wait4` reports its user and
system CPU (every thread: YCSB's clients, the engine's background compaction and flush threads, the
JIT and the garbage collector), its peak resident set (the Java heap, native memory, the engine's
caches and memtables; not the page cache) and `ru_oublock`, the 512-byte blocks it sent towards the
disk: every page it dirtied in a file, counted once when dirtied (a page rewritten before the
kernel writes it back counts once; a page dirtied again after an fsync counts again), whether the
kernel writes it back during or after the step; the filesystem's own blocks that the writes dirty count
too. `/proc/<pid>/io` says the same from another angle
while the process runs (it is gone once reaped): `write_bytes` is `ru_oublock` in bytes,
`cancelled_write_bytes` what was dirtied and then deleted or truncated before it reached the disk,
`wchar` every byte passed to write(2) (files and pipes, cached or not).
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

BLOCK_BYTES = 512  # ru_oublock's unit (the kernel reports write_bytes >> 9)
POLL_SECONDS = 0.2  # how often /proc/<pid>/io is read while the child runs


@dataclass
class ProcessUsage:
    """The operating system's account of one finished child process."""

    user_seconds: float
    system_seconds: float
    peak_rss_bytes: int  # ru_maxrss (KiB on Linux) in bytes
    written_bytes: int  # ru_oublock x 512
    io_write_bytes: int | None = None  # /proc/<pid>/io, last sample before exit (None: unreadable)
    io_cancelled_write_bytes: int | None = None
    io_wchar: int | None = None
    io_read_bytes: int | None = None  # bytes the process made the kernel read from the disk (not the page cache)
    io_rchar: int | None = None  # every byte passed by read(2), cached or not

    @property
    def cpu_seconds(self) -> float:
        return self.user_seconds + self.system_seconds


def read_proc_io(pid: int) -> dict[str, int] | None:
    """The counters of /proc/<pid>/io, or None when the process is gone or the file is not readable."""
    try:
        text = Path(f"/proc/{pid}/io").read_text()
    except OSError:
        return None
    counters = {}
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if value.strip().isdigit():
            counters[name.strip()] = int(value)
    return counters


def usage_of(rusage: resource.struct_rusage | None, io: dict[str, int] | None) -> ProcessUsage | None:
    if rusage is None:
        return None
    io = io or {}
    return ProcessUsage(
        user_seconds=round(rusage.ru_utime, 3),
        system_seconds=round(rusage.ru_stime, 3),
        peak_rss_bytes=rusage.ru_maxrss * 1024,
        written_bytes=rusage.ru_oublock * BLOCK_BYTES,
        io_write_bytes=io.get("write_bytes"),
        io_cancelled_write_bytes=io.get("cancelled_write_bytes"),
        io_wchar=io.get("wchar"),
        io_read_bytes=io.get("read_bytes"),
        io_rchar=io.get("rchar"),
    )


def run_measured(
    command: list[str],
    stdout: Path,
    stderr: Path,
    cwd: Path,
    timeout: float | None,
    on_poll: Callable[[int], None] | None = None,
) -> tuple[int, bool, ProcessUsage | None]:
    """Runs one process with its output going to files: (exit code, timed out, its usage). on_poll is
    called with the child's pid at each poll while it runs (a systemd scope's usage is read so).

    The child gets its own session, so a timeout or Ctrl-C kills it and nothing else.
    """
    with stdout.open("w") as out, stderr.open("w") as err:
        proc = subprocess.Popen(command, stdout=out, stderr=err, cwd=cwd, start_new_session=True)
        deadline = None if timeout is None else time.monotonic() + timeout
        io: dict[str, int] | None = None
        timed_out = False
        try:
            while True:
                pid, status, rusage = os.wait4(proc.pid, os.WNOHANG)
                if pid == proc.pid:
                    break
                io = read_proc_io(proc.pid) or io  # the last readable sample before exit
                if on_poll is not None:
                    on_poll(proc.pid)
                if deadline is not None and time.monotonic() > deadline:
                    os.killpg(proc.pid, signal.SIGKILL)
                    timed_out = True
                    _, status, rusage = os.wait4(proc.pid, 0)
                    break
                time.sleep(POLL_SECONDS)
        except BaseException:
            # Ctrl-C reaches only us (the child has its own session): do not leave it running.
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            raise
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        return proc.returncode, timed_out, usage_of(rusage, io)


def flush_directory(directory: Path, evict: bool = False) -> int:
    """fsyncs every file under directory, so that the next step's writes are its own: a page still dirty
    from the step before (a load seconds earlier) would not be counted again when the next one rewrites it.
    evict: then drop the files' pages from the page cache too (posix_fadvise DONTNEED), so that the next
    step reads from disk what it reads. Returns the files' total size."""
    total = 0
    if not directory.is_dir():
        return 0
    for root, _, names in os.walk(directory):
        for name in names:
            try:
                fd = os.open(os.path.join(root, name), os.O_RDONLY)
            except OSError:  # removed meanwhile, or not ours to read
                continue
            try:
                os.fsync(fd)
                if evict:
                    os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                total += os.fstat(fd).st_size
            except OSError:
                pass
            finally:
                os.close(fd)
    return total


def busy_cpu_ticks(stat: str) -> tuple[int, int] | None:
    """(busy, all) clock ticks of every core since boot from /proc/stat's `cpu` line: busy is all but
    idle and iowait (pure)."""
    for line in stat.splitlines():
        fields = line.split()
        if fields and fields[0] == "cpu":
            ticks = [int(v) for v in fields[1:9]]
            return sum(ticks) - ticks[3] - ticks[4], sum(ticks)
    return None


def read_busy_cpu_ticks() -> tuple[int, int] | None:
    try:
        return busy_cpu_ticks(Path("/proc/stat").read_text())
    except OSError:
        return None


@dataclass
class MachineCpu:
    """The whole machine's busy CPU while a step ran, beside the step's own: other processes' share
    shows whether a figure was taken on a busy machine."""

    machine_cpu_seconds: float  # every core's busy time over the step
    other_cpu_cores: float  # (machine - the step's own CPU) / wall time: cores others kept busy


CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def machine_cpu(
    before: tuple[int, int] | None, after: tuple[int, int] | None, own_cpu_seconds: float | None, seconds: float
) -> MachineCpu | None:
    """The machine's busy CPU between two /proc/stat samples, and what others used of it (pure)."""
    if before is None or after is None or own_cpu_seconds is None or seconds <= 0:
        return None
    busy = (after[0] - before[0]) / CLOCK_TICKS
    return MachineCpu(round(busy, 2), round(max(busy - own_cpu_seconds, 0.0) / seconds, 3))


@dataclass
class DiskSize:
    allocated_bytes: int  # blocks allocated (what `du` counts): compression and sparse files show here
    apparent_bytes: int  # sum of the files' lengths (what `ls -l` counts)
    files: int


def disk_size(directory: Path) -> DiskSize | None:
    """The size of everything under directory, or None when it does not exist."""
    if not directory.is_dir():
        return None
    allocated = apparent = files = 0
    for root, _, names in os.walk(directory):
        for name in names:
            try:
                st = os.lstat(os.path.join(root, name))
            except OSError:  # removed while we walked
                continue
            allocated += st.st_blocks * 512
            apparent += st.st_size
            files += 1
    return DiskSize(allocated, apparent, files)
