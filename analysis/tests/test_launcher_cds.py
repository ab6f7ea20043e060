"""bin/ycsb maps each binding's class-data-sharing archive (trained by `ycsb cds-archive`, which scripts/setup.sh
runs after the build) so that a JVM does not parse and verify the same classes at each start; it maps it only
while the archive is newer than the binding's jar and libraries, and uses the jar only while it is newer than
every compiled class: a stale archive or jar would otherwise start the classes of an older build. The JVM's own
class-loading log says where each class came from."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from .conftest import REPO

# Every binding of the checkout, built or not: an unbuilt one fails here rather than drop out of the list.
ENGINES = sorted(p.name.removesuffix("-binding") for p in REPO.glob("*-binding"))
SHARED = "source: shared objects file (top)"


def ycsb(root: Path, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("YCSB_CDS", "JAVA_OPTS"))}
    return subprocess.run(
        [str(root / "bin" / "ycsb"), *args],
        capture_output=True,
        text=True,
        env=environment | {"YCSB_QUIET": "1"} | env,
        timeout=120,
    )


def sources(root: Path, engine: str, tmp_path: Path, *classes: str, **env: str) -> tuple[dict[str, str], str]:
    """Where a short load's JVM loaded each of `classes` from (its class-loading log), and its stdout."""
    log = tmp_path / f"classes-{time.monotonic_ns()}.log"
    data = tmp_path / f"db-{time.monotonic_ns()}"
    done = ycsb(
        root,
        "load",
        engine,
        "-P",
        str(REPO / "workloads" / "randwrite"),
        "-p",
        "recordcount=200",
        "-p",
        "warmup.operations=0",
        "-p",
        f"path={data}",
        JAVA_OPTS=f"-Xlog:class+load=info:file={log}",
        **env,
    )
    assert done.returncode == 0, done.stderr
    found = {}
    for line in log.read_text().splitlines():
        for name in classes:
            if f" {name} source: " in line:
                found[name] = line.split(f" {name} ", 1)[1]
    assert set(found) == set(classes), f"not in the log: {set(classes) - set(found)}"
    return found, done.stdout


# A class of YCSB's core that every load runs, and bin/ycsb's main class (the project's driver).
CORE = "site.ycsb.workloads.CoreWorkload"
DRIVER = "site.ycsb.embedded.harness.Driver"


@pytest.mark.parametrize("engine", ENGINES)
def test_each_built_binding_starts_from_its_archive(tmp_path, engine):
    """scripts/setup.sh trained every binding's archive: YCSB's client and the binding come out of it."""
    found, _ = sources(REPO, engine, tmp_path, CORE, DRIVER)
    assert found == {CORE: SHARED, DRIVER: SHARED}
    off, _ = sources(REPO, engine, tmp_path, CORE, YCSB_CDS="0")
    assert off[CORE] != SHARED, "YCSB_CDS=0 must leave the archive out"


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    """A copy of the launcher and of the SQLite binding's build (times kept), whose files the tests may age."""
    root = tmp_path / "checkout"
    (root / "bin").mkdir(parents=True)
    for name in ("ycsb", "bindings.properties", "jvm.options"):
        shutil.copy2(REPO / "bin" / name, root / "bin" / name)
    (root / "workloads").symlink_to(REPO / "workloads")
    target = REPO / "sqlite-binding" / "target"
    for part in ("classes", "lib", "native"):
        shutil.copytree(target / part, root / "sqlite-binding" / "target" / part)
    for jar in target.glob("sqlite-binding-*.jar"):
        shutil.copy2(jar, root / "sqlite-binding" / "target" / jar.name)
    return root


def test_the_archive_is_trained_once_and_mapped_until_the_build_changes(checkout, tmp_path):
    jar = next((checkout / "sqlite-binding" / "target").glob("sqlite-binding-*.jar"))
    archive = checkout / "sqlite-binding" / "target" / "cds" / "classes.jsa"
    binding = "site.ycsb.embedded.sqlite.SqliteClient"
    classes = checkout / "sqlite-binding" / "target" / "classes"

    trained = ycsb(checkout, "cds-archive", "sqlite")
    assert trained.returncode == 0, trained.stderr
    assert trained.stdout.strip() == f"ycsb: trained {archive}"
    again = ycsb(checkout, "cds-archive", "sqlite")
    assert again.stdout.strip() == f"ycsb: {archive} is current"
    found, _ = sources(checkout, "sqlite", tmp_path, CORE, binding)
    assert found == {CORE: SHARED, binding: SHARED}

    # A jar rebuilt after the training (another time or size than the archive recorded): the launcher leaves the
    # archive out, and the jar with it, until retrained, rather than map it for the JVM to refuse at each start.
    built = jar.stat().st_mtime
    os.utime(jar, (built + 10, built + 10))
    assert sources(checkout, "sqlite", tmp_path, binding)[0][binding] == f"source: file:{classes}/"
    retrained = ycsb(checkout, "cds-archive", "sqlite")
    assert retrained.stdout.strip() == f"ycsb: trained {archive}"
    assert sources(checkout, "sqlite", tmp_path, binding)[0][binding] == SHARED

    # An archive the JVM refuses (here: not an archive at all): the step starts from the jar, and the JVM's
    # warning stays off YCSB's stdout, which holds its results.
    archive.chmod(0o644)
    archive.write_bytes(b"not a class-data-sharing archive")
    found, stdout = sources(checkout, "sqlite", tmp_path, binding)
    assert found[binding] == f"source: file:{jar}"
    assert "cds" not in stdout.lower() and "shared archive" not in stdout

    # A class compiled after the jar (mvn compile, no package): the launcher runs target/classes, not the jar.
    recompiled = next(classes.rglob("SqliteClient.class"))
    os.utime(recompiled, (1.8e9, 1.8e9))
    assert sources(checkout, "sqlite", tmp_path, binding)[0][binding] == f"source: file:{classes}/"
    refused = ycsb(checkout, "cds-archive", "sqlite")
    assert refused.returncode == 2
    assert "no sqlite jar newer than its compiled classes" in refused.stderr
