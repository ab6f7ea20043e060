"""Every engine refuses a data directory that another engine loaded, and leaves it byte-identical.

Each engine loads a tiny workload through bin/ycsb; then each of the others runs on that
directory (20 pairs). The refusal must name the engine whose files they are, and the directory
must keep every name, byte and mtime: no lock file, no database of its own, no rotated LOG.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

import pytest

TOP = Path(__file__).resolve().parents[2]
TITLES = {"leveldb": "LevelDB", "rocksdb": "RocksDB", "sqlite": "SQLite", "kyoto": "Kyoto Cabinet", "lmdb": "LMDB"}
TINY = ["-P", str(TOP / "workloads" / "workloada"), "-p", "recordcount=50", "-p", "operationcount=50"]


def ycsb(command: str, engine: str, path: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, YCSB_QUIET="1")
    return subprocess.run(
        [str(TOP / "bin" / "ycsb"), command, engine, *TINY, "-p", f"path={path}"],
        capture_output=True,
        text=True,
        check=False,
        cwd=path.parent,
        env=env,
        timeout=120,
    )


def snapshot(directory: Path) -> dict[str, tuple[int, str, int]]:
    """Every entry under the directory: size, SHA-256 of its bytes and mtime in ns."""
    out: dict[str, tuple[int, str, int]] = {}
    for p in sorted([directory, *directory.rglob("*")]):
        st = p.stat()
        digest = "dir" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
        out[str(p.relative_to(directory))] = (st.st_size if p.is_file() else 0, digest, st.st_mtime_ns)
    return out


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One data directory per engine, loaded by that engine."""
    top = tmp_path_factory.mktemp("engines")
    dirs = {}
    for engine in TITLES:
        path = top / engine
        load = ycsb("load", engine, path)
        assert load.returncode == 0 and "[INSERT], Return=OK, 50" in load.stdout, load.stderr[-2000:]
        dirs[engine] = path
    return dirs


@pytest.mark.parametrize("owner", list(TITLES))
def test_every_other_engine_refuses_the_directory_and_leaves_it_as_it_was(loaded: dict[str, Path], owner: str) -> None:
    path = loaded[owner]
    before = snapshot(path)
    for engine in TITLES:
        if engine == owner:
            continue
        run = ycsb("run", engine, path)
        said = run.stdout + run.stderr
        assert f"holds {TITLES[owner]} files" in said and str(path) in said, (
            f"{engine} on {owner}'s files (exit {run.returncode}):\n{said[-3000:]}"
        )
        assert "[READ], Return=" not in run.stdout, f"{engine} ran operations on {owner}'s files"
        assert run.returncode == 3, f"{engine} on {owner}'s files exits 3 (refused), not {run.returncode}"
        assert snapshot(path) == before, f"{engine} changed {owner}'s directory"
    own = ycsb("run", owner, path)
    assert own.returncode == 0 and "[READ], Return=OK" in own.stdout and "NOT_FOUND" not in own.stdout, (
        f"{owner} reads its own files:\n{own.stdout[-2000:]}{own.stderr[-2000:]}"
    )
