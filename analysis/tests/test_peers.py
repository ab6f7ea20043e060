"""The pure parts of running upstream YCSB bindings as peers: specs, the tree, names, properties.
(distribution/tests/test_peers.py runs real peers on a YCSB 0.17-shaped tree.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.catalogue.model import is_peer, peer_label
from analysis.catalogue.scenarios import SCENARIOS_BY_ID
from analysis.report.tables import engine_label
from analysis.running.peers import (
    Peer,
    binding_dir,
    find_common_jar,
    java_command,
    make_peers,
    our_binding_properties,
    parse_peer_spec,
    peer_properties,
    workload_class_properties,
)


def test_specs_split_on_commas_that_start_a_property() -> None:
    assert parse_peer_spec("rocksdb") == ("rocksdb", {})
    assert parse_peer_spec("jdbc:db.driver=org.sqlite.JDBC,db.url=jdbc:sqlite:{dir}/x.db") == (
        "jdbc",
        {"db.driver": "org.sqlite.JDBC", "db.url": "jdbc:sqlite:{dir}/x.db"},
    )
    # A comma inside a value (a server list, URL options) stays in it.
    assert parse_peer_spec("mongodb:mongodb.url=mongodb://a:1,b:2/ycsb?w=1,batchsize=10") == (
        "mongodb",
        {"mongodb.url": "mongodb://a:1,b:2/ycsb?w=1", "batchsize": "10"},
    )
    with pytest.raises(ValueError, match="not prop=value"):
        parse_peer_spec("redis:redis.host")


def test_binding_directories_follow_upstreams_launcher(tmp_path: Path) -> None:
    assert binding_dir(tmp_path, "basic") is None  # in core
    assert binding_dir(tmp_path, "cassandra-cql") == tmp_path / "cassandra-binding"
    assert binding_dir(tmp_path, "erocksdb") == tmp_path / "erocksdb-binding"


def tree(tmp_path: Path) -> Path:
    (tmp_path / "bin").mkdir()
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "core-0.17.0.jar").write_bytes(b"")
    (tmp_path / "bin" / "bindings.properties").write_text(
        "# upstream\nbasic:site.ycsb.BasicDB\njdbc:site.ycsb.db.JdbcDBClient\n"
    )
    return tmp_path


def test_peers_are_named_by_binding_and_version(tmp_path: Path) -> None:
    peers = make_peers(tree(tmp_path), ["basic", "jdbc:db.url=a", "jdbc:db.url=b"], None)
    assert [p.engine for p in peers] == ["basic@ycsb-0.17.0", "jdbc@ycsb-0.17.0", "jdbc-2@ycsb-0.17.0"]
    assert [p.properties for p in peers] == [{}, {"db.url": "a"}, {"db.url": "b"}]
    assert all(is_peer(p.engine) for p in peers) and not is_peer("rocksdb")
    assert peer_label("jdbc-2@ycsb-0.17.0") == "jdbc-2 (YCSB 0.17.0)" == engine_label("jdbc-2@ycsb-0.17.0")
    # jdbc-binding/lib is missing from this tree: its cells fail saying so; basic needs none.
    assert peers[0].unavailable() is None
    assert "jdbc-binding/lib missing" in (peers[1].unavailable() or "")
    with pytest.raises(ValueError, match="it has basic, jdbc"):
        make_peers(tmp_path, ["redis"], None)
    with pytest.raises(ValueError, match="not a YCSB release"):
        make_peers(tmp_path / "lib", ["basic"], None)


def test_classpath_is_upstreams_with_our_common_jar_beside_core(tmp_path: Path) -> None:
    (peer,) = make_peers(tree(tmp_path), ["jdbc"], tmp_path / "common.jar")
    assert peer.classpath().split(":") == [
        f"{tmp_path}/conf",
        f"{tmp_path}/lib/*",
        f"{tmp_path}/common.jar",
        f"{tmp_path}/jdbc-binding/conf",
        f"{tmp_path}/jdbc-binding/lib/*",
    ]


def touch(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"")
    return path


def test_our_launchers_jars_follow_the_common_jar_from_a_build_or_a_distribution(tmp_path: Path) -> None:
    """CheckedClient and NanoTimedDB live in the harness jar, the checks they call in the datadir jar: a peer's
    classpath gets both beside the common jar, from the build's modules or from a distribution's binding lib."""
    build = tmp_path / "build"
    common = touch(build / "common" / "target" / "ycsb-embedded-common-1.0.jar")
    touch(build / "common" / "target" / "ycsb-embedded-common-1.0-tests.jar")
    harness = touch(build / "harness" / "target" / "ycsb-embedded-harness-1.0.jar")
    touch(build / "harness" / "target" / "ycsb-embedded-harness-1.0-tests.jar")
    datadir = touch(build / "datadir" / "target" / "ycsb-embedded-datadir-1.0.jar")
    assert find_common_jar(build) == common
    for home in ("ycsb", "ycsb2", "ycsb3"):
        (tmp_path / home).mkdir()
    (peer,) = make_peers(tree(tmp_path / "ycsb"), ["jdbc"], common)
    assert peer.launcher_jars == (datadir, harness)
    assert peer.classpath().split(":")[2:5] == [str(common), str(datadir), str(harness)]

    lib = tmp_path / "dist" / "sqlite-binding" / "lib"
    jars = [touch(lib / f"ycsb-embedded-{m}-1.0.jar") for m in ("common", "datadir", "harness")]
    assert find_common_jar(tmp_path / "dist") == jars[0]
    (shipped,) = make_peers(tree(tmp_path / "ycsb2"), ["jdbc"], jars[0])
    assert shipped.launcher_jars == tuple(jars[1:])
    (without,) = make_peers(tree(tmp_path / "ycsb3"), ["jdbc"], None)
    assert without.launcher_jars == () and str(harness) not in without.classpath()


def test_a_cells_fresh_directory_reaches_the_peer(tmp_path: Path) -> None:
    rocksdb = Peer("rocksdb@ycsb-0.17.0", "rocksdb", "site.ycsb.db.rocksdb.RocksDBClient", tmp_path, "0.17.0")
    assert peer_properties(rocksdb, Path("/d/r1")) == {"rocksdb.dir": "/d/r1"}
    # with our common jar the launcher's warm-up puts its scratch directory beside that one
    warmed = Peer(rocksdb.engine, "rocksdb", rocksdb.binding_class, tmp_path, "0.17.0", {}, tmp_path / "common.jar")
    assert peer_properties(warmed, Path("/d/r1")) == {"rocksdb.dir": "/d/r1", "warmup.pathproperty": "rocksdb.dir"}
    assert "site.ycsb.embedded.CheckedClient" in java_command(warmed, "run")
    assert "site.ycsb.embedded.CheckedClient" not in java_command(rocksdb, "run")  # no common jar: YCSB's Client
    assert "site.ycsb.Client" in java_command(rocksdb, "run")
    jdbc = Peer("jdbc@ycsb-0.17.0", "jdbc", "c", tmp_path, "0.17.0", {"db.url": "jdbc:sqlite:{dir}/x.db"})
    assert peer_properties(jdbc, Path("/d/r1")) == {"db.url": "jdbc:sqlite:/d/r1/x.db"}


def test_what_only_our_classes_read_is_told_apart() -> None:
    files = {"workload": "site.ycsb.embedded.workload.EmbeddedWorkload", "keyformat": "decimal", "fieldcount": "1"}
    assert workload_class_properties(files) == {"keyformat": "decimal"}
    assert workload_class_properties({**files, "workload": "site.ycsb.workloads.CoreWorkload"}) == {}
    assert our_binding_properties({"sync": "true", "leveldb.cachesize": "4m", "fieldcount": "1"}) == {
        "sync": "true",
        "leveldb.cachesize": "4m",
    }


def test_a_peer_runs_the_scenarios_every_engine_of_ours_runs() -> None:
    assert SCENARIOS_BY_ID["seqwrite"].runs_on("basic@ycsb-0.17.0")
    assert SCENARIOS_BY_ID["workloada"].runs_on("basic@ycsb-0.17.0")
    assert not SCENARIOS_BY_ID["pk-query-threads"].runs_on("basic@ycsb-0.17.0")  # SQLite's own tuning
    assert not SCENARIOS_BY_ID["kv1000"].runs_on("basic@ycsb-0.17.0")
    assert not SCENARIOS_BY_ID["kv1000"].runs_on("sqlite")


def test_a_peer_without_our_workload_class_skips_the_cells_that_need_it(tmp_path: Path) -> None:
    from analysis.running.plan import RunOptions
    from analysis.running.runner import peer_skip_reason

    repo = Path(__file__).resolve().parents[2]
    basic = Peer("basic@ycsb-0.17.0", "basic", "site.ycsb.BasicDB", tmp_path, "0.17.0")  # no common jar found
    options = RunOptions(repo, tmp_path, repo / "workloads", tmp_path / "data", peers={basic.engine: basic})
    reason = peer_skip_reason(options, basic.engine, SCENARIOS_BY_ID["seqwrite"])
    assert reason is not None and reason.startswith(
        "skipped: seqwrite use site.ycsb.embedded.workload.EmbeddedWorkload"
    )
    assert peer_skip_reason(options, basic.engine, SCENARIOS_BY_ID["workloada"]) is None  # CoreWorkload
    with_jar = RunOptions(
        repo,
        tmp_path,
        repo / "workloads",
        tmp_path / "data",
        peers={basic.engine: Peer(**{**basic.__dict__, "common_jar": tmp_path / "c.jar"})},
    )
    assert peer_skip_reason(with_jar, basic.engine, SCENARIOS_BY_ID["seqwrite"]) is None
