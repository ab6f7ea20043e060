"""bin/ycsb preloads libycsb_mmap_space.so for the leveldb engine only (leveldbjni writes through mmap: without
it a disk another process fills is a SIGBUS), and leaves it out when YCSB_NO_MMAP_SPACE=1. A stand-in JVM
prints the LD_PRELOAD it was started with."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from .conftest import REPO

SHIM = REPO / "leveldb-binding" / "target" / "native" / "libycsb_mmap_space.so"


def preload_seen(tmp_path: Path, engine: str, **env: str) -> str:
    fake = tmp_path / "java"
    fake.write_text('#!/bin/sh\nprintf "%s" "${LD_PRELOAD:-}"\n')
    fake.chmod(0o755)
    environment = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"} | {"JAVA": str(fake)} | env
    done = subprocess.run(
        [str(REPO / "bin" / "ycsb"), "load", engine, "-p", "path=x"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=30,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("engine", ["leveldb", "rocksdb"])
def test_the_launcher_preloads_the_shim_for_leveldb_only(tmp_path, engine):
    assert SHIM.is_file(), f"{SHIM} is built by `mvn -pl leveldb-binding -am install -DskipTests`"
    seen = preload_seen(tmp_path, engine)
    assert seen == (str(SHIM) if engine == "leveldb" else "")
    assert preload_seen(tmp_path, engine, YCSB_NO_MMAP_SPACE="1") == ""
    assert preload_seen(tmp_path, engine, LD_PRELOAD="/x/other.so") == (
        f"{SHIM} /x/other.so" if engine == "leveldb" else "/x/other.so"
    )
