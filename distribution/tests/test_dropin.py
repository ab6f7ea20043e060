"""The distribution tarball works on its own, and its bindings drop into a YCSB 0.17 tree.

Upstream's bin/ycsb.sh puts lib/* and <name>-binding/lib/* on the classpath of site.ycsb.Client
and sets no java.library.path; the drop-in test runs YCSB exactly that way.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import install_into, ycsb_017_tree

ENGINES = {
    "leveldb": "site.ycsb.embedded.leveldb.LevelDbClient",
    "rocksdb": "site.ycsb.embedded.rocksdb.RocksDbClient",
    "sqlite": "site.ycsb.embedded.sqlite.SqliteClient",
    "kyoto": "site.ycsb.embedded.kyoto.KyotoClient",
    "lmdb": "site.ycsb.embedded.lmdb.LmdbClient",
}


def ok_inserts(stdout: str) -> int:
    for line in stdout.splitlines():
        if line.startswith("[INSERT], Return=OK,"):
            return int(line.rsplit(",", 1)[1])
    return 0


def own_load(
    distribution: Path, engine: str, workload: str, records: int, cwd: Path
) -> subprocess.CompletedProcess[str]:
    """A load of `records` records of workloads/`workload` by the distribution's own bin/ycsb into cwd/db; asserts
    that it exited 0 having inserted every one."""
    run = subprocess.run(
        [str(distribution / "bin" / "ycsb"), "load", engine, "-P", str(distribution / "workloads" / workload)]
        + ["-p", f"recordcount={records}", "-p", f"path={cwd / 'db'}"],
        capture_output=True,
        text=True,
        check=False,
        cwd=cwd,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert ok_inserts(run.stdout) == records, run.stdout + run.stderr[-2000:]
    return run


def upstream_load(
    ycsb: Path, name: str, engine: str, distribution: Path, cwd: Path, *props: str
) -> subprocess.CompletedProcess[str]:
    """A 300-record load of workloads/randwrite the way upstream's bin/ycsb.sh starts YCSB: lib/* and
    <name>-binding/lib/* on the classpath, no java.library.path; `props` are extra name=value pairs."""
    classpath = f"{ycsb / 'lib'}/*:{ycsb / (name + '-binding') / 'lib'}/*"
    command = ["java", "--enable-native-access=ALL-UNNAMED", "-cp", classpath, "site.ycsb.Client"]
    command += ["-db", ENGINES[engine], "-load", "-P", str(distribution / "workloads" / "randwrite")]
    for prop in ("recordcount=300", *props):
        command += ["-p", prop]
    return subprocess.run(command, capture_output=True, text=True, check=False, cwd=cwd)


def test_layout_is_upstreams(distribution: Path) -> None:
    assert (distribution / "bin" / "ycsb").is_file()
    assert any(p.name.startswith("core-0.17") for p in (distribution / "lib").iterdir())
    for engine in ENGINES:
        jars = [p.name for p in (distribution / f"{engine}-binding" / "lib").iterdir()]
        assert any(j.startswith(f"{engine}-binding-") for j in jars), jars
        assert not any(j.startswith("core-0.17") for j in jars), "YCSB core belongs in lib/ only"
    assert (distribution / "kyoto-binding" / "lib" / "libkyotojni.so").is_file()
    assert (distribution / "leveldb-binding" / "lib" / "libleveldbjni_sys.so").is_file()


@pytest.mark.parametrize("engine", list(ENGINES))
def test_its_own_launcher_runs_every_engine(distribution: Path, tmp_path: Path, engine: str) -> None:
    own_load(distribution, engine, "randwrite", 500, tmp_path)


def test_its_own_launcher_runs_the_sqlite_columns_client(distribution: Path, tmp_path: Path) -> None:
    """sqlite-columns is a second client in sqlite-binding/: the launcher finds it there."""
    assert not (distribution / "sqlite-columns-binding").exists()
    run = own_load(distribution, "sqlite-columns", "bulk-import", 300, tmp_path)
    assert '[sqlite] table: CREATE TABLE "usertable" ("YCSB_KEY" INTEGER PRIMARY KEY' in run.stderr


def test_bindings_drop_into_a_ycsb_017_tree(distribution: Path, tmp_path: Path) -> None:
    ycsb = ycsb_017_tree(distribution, tmp_path / "ycsb-0.17.0")
    installed = install_into(ycsb, distribution)
    assert installed.returncode == 0, installed.stderr
    assert f"{ycsb}/bin/ycsb.sh load <engine> -P" in installed.stdout, "the launcher that works is named"
    assert "  (<engine>: leveldb erocksdb sqlite sqlite-columns kyoto lmdb)\n" in installed.stdout, installed.stdout
    # the engines the registry marks launch.mmapspace, by the names they were installed under
    assert "\nleveldb kyoto write through memory maps: with LD_PRELOAD=" in installed.stdout
    for engine in ("leveldb", "kyoto"):  # the preload upstream's launcher does not set, and where it is
        assert (ycsb / f"{engine}-binding" / "lib" / "libycsb_mmap_space.so").is_file(), engine
    assert f"LD_PRELOAD={ycsb}/<engine>-binding/lib/libycsb_mmap_space.so" in installed.stdout
    lines = (ycsb / "bin" / "bindings.properties").read_text().splitlines()
    assert "rocksdb:site.ycsb.db.rocksdb.RocksDBClient" in lines, "upstream's rocksdb is left alone"
    assert "sqlite-columns:site.ycsb.embedded.sqlite.SqliteColumnsClient" in lines
    assert not (ycsb / "sqlite-columns-binding").exists(), "upstream's bin/ycsb.sh finds it in sqlite-binding/"
    names = {"leveldb": "leveldb", "rocksdb": "erocksdb", "sqlite": "sqlite", "kyoto": "kyoto", "lmdb": "lmdb"}
    for engine, name in names.items():
        assert f"{name}:{ENGINES[engine]}" in lines
        run = upstream_load(ycsb, name, engine, distribution, tmp_path, f"path={tmp_path / engine}")
        assert ok_inserts(run.stdout) == 300, f"{engine}: {run.stdout}{run.stderr[-2000:]}"
        assert run.returncode == 0, run.stderr[-2000:]
    # Upstream's client exits 0 after a refused open; the dropped-in bindings make it 3, as the notes say.
    assert "3 the binding refused to open" in installed.stdout
    refused = upstream_load(
        ycsb, "kyoto", "kyoto", distribution, tmp_path, f"path={tmp_path / 'refused'}", "batchsize=ten"
    )
    assert refused.returncode == 3, refused.stderr[-2000:]
    assert "exit status 3: the binding refused to open: [kyoto] property batchsize" in refused.stderr
    # The system LevelDB's JNI library is found beside the binding's jar: upstream sets no java.library.path.
    run = upstream_load(
        ycsb,
        "leveldb",
        "leveldb",
        distribution,
        tmp_path,
        f"path={tmp_path / 'leveldb-system'}",
        "leveldb.library=system",
    )
    assert ok_inserts(run.stdout) == 300, f"leveldb.library=system: {run.stdout}{run.stderr[-2000:]}"
    assert "engine: LevelDB 1.23 (leveldb.library=system" in run.stderr, run.stderr[-2000:]
    again = install_into(ycsb, distribution)
    assert again.returncode == 0
    assert (ycsb / "bin" / "bindings.properties").read_text().splitlines() == lines, "installing twice adds nothing"
