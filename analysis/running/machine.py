"""What machine a run was on: CPU, cores, memory, kernel, the filesystem and disk under the data,
the disk's flush rate, and the JDK. Every probe degrades to "unknown" rather than failing a run."""

from __future__ import annotations

import os
import platform
import re
import subprocess
import time
from pathlib import Path


def cpu_model(cpuinfo: str) -> str:
    for line in cpuinfo.splitlines():
        if line.lower().startswith(("model name", "hardware", "processor\t: arm")):
            return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def memory_bytes(meminfo: str) -> int | None:
    m = re.search(r"^MemTotal:\s+(\d+) kB", meminfo, re.M)
    return int(m.group(1)) * 1024 if m else None


def mount_of(path: Path, mounts: str) -> tuple[str, str, str]:
    """(device, mount point, filesystem type) of the longest /proc/mounts entry containing path."""
    best = ("unknown", "/", "unknown")
    resolved = str(path.resolve())
    for line in mounts.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        device, point, fstype = parts[0], parts[1].replace("\\040", " "), parts[2]
        inside = resolved == point or resolved.startswith(point.rstrip("/") + "/")
        if inside and len(point) >= len(best[1]):
            best = (device, point, fstype)
    return best


def _disk(device: str, sys_root: Path) -> Path | None:
    """The /sys directory of the disk under a device (a partition's disk is its parent), or None."""
    block = sys_root / "class" / "block" / Path(device).name
    if not block.exists():
        return None
    return block.resolve().parent if (block / "partition").exists() else block.resolve()


def read_ahead_kb(device: str, sys_root: Path = Path("/sys")) -> int | None:
    """The disk's read-ahead window: how much the kernel reads around a page fault on a memory-mapped
    file (LevelDB maps its table files), so a floor under the read amplification of mapped reads."""
    disk = _disk(device, sys_root)
    ahead = _read(disk / "queue" / "read_ahead_kb").strip() if disk else ""
    return int(ahead) if ahead.isdigit() else None


def disk_description(device: str, sys_root: Path = Path("/sys")) -> str:
    """Model and rotational flag of the block device under a mount, from /sys."""
    disk = _disk(device, sys_root)
    if disk is None:
        return "unknown"
    model = _read(disk / "device" / "model").strip()
    rotational = _read(disk / "queue" / "rotational").strip()
    kind = {"0": "non-rotational", "1": "rotational or virtual"}.get(rotational, "")
    described = ", ".join(part for part in (model, kind) if part)
    return f"{disk.name} ({described})" if described else disk.name


def _read(path: Path) -> str:
    try:
        return path.read_text()
    except OSError:
        return ""


def fsync_rate(directory: Path, writes: int = 100) -> float | None:
    """Small appends each followed by fsync, per second: the disk's flush rate, which bounds
    synchronous writes (the 2011 page: about 100 per second)."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / ".fsync-probe"
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            start = time.perf_counter()
            for _ in range(writes):
                os.write(fd, b"x" * 100)
                os.fsync(fd)
            seconds = time.perf_counter() - start
        finally:
            os.close(fd)
            probe.unlink(missing_ok=True)
        return writes / seconds if seconds > 0 else None
    except OSError:
        return None


def java_version(java: str = "java") -> str:
    try:
        done = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown (no java)"
    lines = [line.strip() for line in done.stderr.splitlines() if line.strip()]
    return "; ".join(lines[:2]) if lines else "unknown"


def collect_machine_info(data_dir: Path, results_dir: Path | None = None, java: str | None = None) -> dict:
    """A JSON-able description of this machine, the disk under data_dir (where the engines do their
    I/O) and, when elsewhere, the filesystem of the results."""
    mounts = _read(Path("/proc/mounts"))
    device, point, fstype = mount_of(data_dir, mounts)
    results_device, _, results_fstype = mount_of(results_dir or data_dir, mounts)
    java = java or os.environ.get("JAVA", "java")  # the JVM bin/ycsb runs
    return {
        "hostname": platform.node(),
        "cpu": cpu_model(_read(Path("/proc/cpuinfo"))),
        "cores": os.cpu_count(),
        "memory_bytes": memory_bytes(_read(Path("/proc/meminfo"))),
        "kernel": f"{platform.system()} {platform.release()}",
        "os": _os_name(),
        "data_dir": str(data_dir.resolve()),
        "filesystem": fstype,
        "mount_point": point,
        "device": device,
        "disk": disk_description(device),
        "read_ahead_kb": read_ahead_kb(device),
        "results_dir": str((results_dir or data_dir).resolve()),
        "results_filesystem": f"{results_fstype} on {results_device}",
        "fsync_per_sec": fsync_rate(data_dir),
        "jdk": java_version(java),
        "python": platform.python_version(),
    }


def _os_name() -> str:
    m = re.search(r'^PRETTY_NAME="?([^"\n]*)', _read(Path("/etc/os-release")), re.M)
    return m.group(1) if m else platform.platform()
