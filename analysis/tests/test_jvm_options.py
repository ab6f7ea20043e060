"""bin/jvm.options reaches every JVM the project starts: bin/ycsb's (the suite's cells run through it) and a peer's,
so a peer's binding runs under the same heap settings as ours; JAVA_OPTS, given after it, still wins. Each check
asks the real java for the value it took (-XX:+PrintFlagsFinal -version: the JVM prints its flags and exits)."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from ..running.peers import Peer, java_command
from .conftest import REPO

CAP = 64 << 20  # -XX:MaxNewSize=64m


def max_new_size(stdout: str) -> tuple[int, str]:
    found = re.search(r"\bMaxNewSize\s+=\s+(\d+)\s+\{product\}\s+\{([^}]+)\}", stdout)
    assert found, stdout[-2000:]
    return int(found.group(1)), found.group(2)


def launched(java_opts: str) -> str:
    done = subprocess.run(
        [str(REPO / "bin" / "ycsb"), "load", "lmdb", "-p", "path=x"],
        capture_output=True,
        text=True,
        env=os.environ | {"JAVA_OPTS": f"{java_opts} -XX:+PrintFlagsFinal -version".strip()},
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_bin_ycsb_starts_its_jvm_with_the_options_file_and_java_opts_overrides_it():
    assert "-XX:MaxNewSize=64m" in (REPO / "bin" / "jvm.options").read_text().splitlines()
    assert max_new_size(launched("")) == (CAP, "command line")
    assert max_new_size(launched("-XX:MaxNewSize=32m"))[0] == 32 << 20


def test_a_peers_jvm_takes_the_same_options_file(tmp_path: Path):
    peer = Peer("rocksdb@ycsb-0.17.0", "rocksdb", "site.ycsb.db.rocksdb.RocksDBClient", tmp_path, "0.17.0")
    command = java_command(peer, "run")
    assert f"@{REPO / 'bin' / 'jvm.options'}" in command
    # the JVM flags before the classpath, as the peer's JVM gets them, asked of the real java
    flags = command[: command.index("-cp")]
    done = subprocess.run([*flags, "-XX:+PrintFlagsFinal", "-version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert max_new_size(done.stdout) == (CAP, "command line")
