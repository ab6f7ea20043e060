"""What the distribution's tests share: the assembled tarball, and a YCSB 0.17-shaped tree.

The tree is what a user's upstream YCSB 0.17 release holds that matters here: `lib/` with
site.ycsb:core 0.17.0 and its dependencies (from Maven Central, through the Maven build) and a
`bin/bindings.properties` naming upstream's `basic` (site.ycsb.BasicDB, in core) and upstream's
`rocksdb` (whose jars the tests do not need: its line makes ours install beside it as `erocksdb`).
"""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

TOP = Path(__file__).resolve().parents[2]
UPSTREAM_BINDINGS = "basic:site.ycsb.BasicDB\nrocksdb:site.ycsb.db.rocksdb.RocksDBClient\n"


@pytest.fixture(scope="session")
def distribution(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The unpacked tarball of distribution/build.sh."""
    out = tmp_path_factory.mktemp("dist")
    built = subprocess.run(
        ["bash", str(TOP / "distribution" / "build.sh"), str(out)], capture_output=True, text=True, check=False
    )
    assert built.returncode == 0, built.stderr
    tarball = Path(built.stdout.strip().splitlines()[-1])
    with tarfile.open(tarball) as t:
        t.extractall(out / "unpacked", filter="data")
    (home,) = (out / "unpacked").iterdir()
    return home


def ycsb_017_tree(distribution: Path, home: Path) -> Path:
    """A YCSB 0.17 release's shape at `home`: core and its dependencies in lib/, upstream's binding list."""
    (home / "bin").mkdir(parents=True)
    shutil.copytree(distribution / "lib", home / "lib")
    assert sorted(p.name for p in (home / "lib").glob("core-*.jar")) == ["core-0.17.0.jar"]
    (home / "bin" / "bindings.properties").write_text(UPSTREAM_BINDINGS)
    return home


def install_into(home: Path, distribution: Path) -> subprocess.CompletedProcess[str]:
    """distribution/install-into-ycsb.sh, as a user runs it."""
    return subprocess.run(
        ["bash", str(TOP / "distribution" / "install-into-ycsb.sh"), str(home), str(distribution)],
        capture_output=True,
        text=True,
        check=False,
    )
