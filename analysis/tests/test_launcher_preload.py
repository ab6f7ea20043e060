"""bin/ycsb preloads libycsb_mmap_space.so for the leveldb and kyoto engines only (leveldbjni and Kyoto's TreeDB
write through mmap: without it a disk another process fills is a SIGBUS), each binding's own copy, and leaves it
out when YCSB_NO_MMAP_SPACE=1. A stand-in JVM prints the LD_PRELOAD it was started with."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from .conftest import REPO

PRELOADED = {"leveldb", "kyoto"}


def shim(engine: str) -> Path:
    return REPO / f"{engine}-binding" / "target" / "native" / "libycsb_mmap_space.so"


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


@pytest.mark.parametrize("engine", ["leveldb", "kyoto", "rocksdb", "lmdb"])
def test_the_launcher_preloads_the_shim_for_leveldb_and_kyoto_only(tmp_path, engine):
    expected = str(shim(engine)) if engine in PRELOADED else ""
    if expected:
        assert shim(engine).is_file(), f"{shim(engine)} is built by `mvn -pl {engine}-binding -am install -DskipTests`"
    seen = preload_seen(tmp_path, engine)
    assert seen == expected
    assert preload_seen(tmp_path, engine, YCSB_NO_MMAP_SPACE="1") == ""
    assert preload_seen(tmp_path, engine, LD_PRELOAD="/x/other.so") == (
        f"{expected} /x/other.so" if expected else "/x/other.so"
    )


@pytest.mark.parametrize(
    "engine, library",
    [("leveldb", "leveldbjni"), ("leveldb", "system"), ("rocksdb", ""), ("sqlite", "")] + [("kyoto", ""), ("lmdb", "")],
)
def test_a_killed_jvm_leaves_no_native_library_in_the_temporary_directory(tmp_path, engine, library):
    """Each engine's JVM loads its native code from the build (<engine>-binding/target/native), not from a copy
    unpacked into java.io.tmpdir at each start: that costs the start time, and a JVM killed as the crash check
    kills them (SIGKILL, no exit hooks) left the copy behind, one file per kill."""
    temporary = tmp_path / "tmp"
    temporary.mkdir()
    environment = os.environ | {"YCSB_TMPDIR": str(temporary), "YCSB_QUIET": "1"}
    command = [
        str(REPO / "bin" / "ycsb"),
        "load",
        engine,
        "-p",
        f"path={tmp_path / 'db'}",
        "-p",
        "recordcount=100000000",
    ]
    command += ["-p", "warmup.operations=0", "-p", "workload=site.ycsb.workloads.CoreWorkload"]
    command += ["-p", f"leveldb.library={library}"] if library else []
    with subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment
    ) as jvm:
        said = []
        assert jvm.stderr is not None
        for line in jvm.stderr:  # the binding prints "[<engine>] opened <path> ..." once its library is loaded
            said.append(line)
            if line.startswith(f"[{engine}") and " opened " in line:
                break
        jvm.kill()
        jvm.wait(timeout=60)
    assert any(" opened " in line for line in said), "".join(said)
    assert sorted(p.name for p in temporary.iterdir()) == []
