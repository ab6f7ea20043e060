"""A new user's first steps: scripts/setup.sh says what it is doing, stage by stage, and `bin/ycsb --help` prints the
usage and exits 0."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from .conftest import REPO


def _stub(directory: Path, name: str, script: str = "exit 0") -> None:
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\n{script}\n")
    path.chmod(0o755)


def test_setup_prints_a_line_per_stage(tmp_path: Path) -> None:
    """A copy of scripts/setup.sh in a tree of stubs (every package installed, the build and the archive training
    instant): it printed nothing for minutes on a first run; now a line per stage on stderr, with the time."""
    tree = tmp_path / "tree"
    (tree / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "setup.sh", tree / "scripts" / "setup.sh")
    (tree / "lmdb-binding").mkdir()
    _stub(tree, ".venv/bin/python")
    _stub(tree, "bin/ycsb")
    shutil.copy(REPO / "bin" / "bindings.properties", tree / "bin" / "bindings.properties")  # the engines' packages
    stubs = tmp_path / "stubs"
    for tool in ("javac", "mvn", "python3", "gcc", "make", "shellcheck"):
        _stub(stubs, tool)
    _stub(stubs, "dpkg-query", "echo 'install ok installed'")
    _stub(stubs, "apt-get", "echo apt-get must not run >&2; exit 1")
    env = {**os.environ, "PATH": f"{stubs}:{os.environ['PATH']}"}
    done = subprocess.run(
        ["bash", str(tree / "scripts" / "setup.sh")], capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    stages = [line.split("] ", 1)[1].split(":")[0] for line in lines if line.startswith("setup [0:0")]
    assert stages == [
        "1/4 system packages",
        "1/4 system packages",
        "2/4 the analysis' Python environment",
        "3/4 the Java modules",
        "4/4 each binding's class-data-sharing archive (bin/ycsb cds-archive)",
        "done",
    ], done.stderr
    assert "1/4 system packages: all there" in done.stderr
    assert "mvn -q -DskipTests install (quiet: several minutes on a first run" in done.stderr


def test_bin_ycsb_help_prints_the_usage_and_exits_0() -> None:
    for flag in ("--help", "-h"):
        done = subprocess.run([str(REPO / "bin" / "ycsb"), flag], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("usage: ycsb load|run|shell <engine>") and "engines: " in done.stdout
        assert done.stderr == ""
    wrong = subprocess.run([str(REPO / "bin" / "ycsb"), "lod"], capture_output=True, text=True, timeout=30)
    assert wrong.returncode == 2 and wrong.stderr.startswith("usage: ycsb") and wrong.stdout == ""
