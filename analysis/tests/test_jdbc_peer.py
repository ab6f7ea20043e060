"""Upstream's JDBC binding as a peer: it expects its table and creates none, so each repeat of a cell
first runs the same jar's JdbcDBCreateTable in the cell's fresh database (`{dir}` in db.url).

Upstream's jdbc-binding jar is not on Maven Central and not in this checkout, so the runs below use a
YCSB 0.17-shaped tree from this project's own jars: one whose jdbc-binding/lib lacks the class (the cell
fails naming it, before any YCSB step), and one where a stand-in of that class only prints the arguments
it was given (what upstream's JdbcDBCreateTable reads: -p connection properties, -n table, -f fields)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from analysis.catalogue.keydraws import distinct_keys
from analysis.catalogue.scenarios import SCENARIOS_BY_ID
from analysis.report.render import BulletList
from analysis.report.report_context import peers_blocks
from analysis.results.results import load_runs
from analysis.running.peers import JDBC_CREATE_TABLE, Peer, find_common_jar, make_peers, prepare_command
from analysis.running.plan import RunOptions
from analysis.running.runner import run_cell

from .conftest import REPO

SQLITE_URL = "jdbc:sqlite:{dir}/ycsb.db"


def test_a_jdbc_peer_creates_its_table_per_cell_with_the_workloads_fields(tmp_path: Path) -> None:
    jdbc = Peer("jdbc@ycsb-0.17.0", "jdbc", "site.ycsb.db.JdbcDBClient", tmp_path, "0.17.0", {"db.url": SQLITE_URL})
    command = prepare_command(jdbc, Path("/d/r1"), {"fieldcount": "1"})
    assert command is not None
    assert command[command.index("-cp") + 1 :] == [
        jdbc.classpath(),
        JDBC_CREATE_TABLE,
        "-p",
        "db.user=",  # JdbcDBCreateTable refuses a missing user
        "-p",
        "db.url=jdbc:sqlite:/d/r1/ycsb.db",
        "-n",
        "usertable",
        "-f",
        "1",
    ]
    given = Peer(**{**jdbc.__dict__, "properties": {"db.url": SQLITE_URL, "db.user": "sa"}})
    named = prepare_command(given, Path("/d"), {"table": "t2"}) or []
    assert "db.user=sa" in named and named[-4:] == ["-n", "t2", "-f", "10"]  # YCSB's default fieldcount
    basic = Peer("basic@ycsb-0.17.0", "basic", "site.ycsb.BasicDB", tmp_path, "0.17.0")
    assert prepare_command(basic, Path("/d"), {}) is None


def jdbc_tree(home: Path) -> Path:
    """A YCSB 0.17-shaped tree (core and its dependencies, the SQLite driver) naming upstream's jdbc binding."""
    built = REPO / "sqlite-binding" / "target" / "lib"
    assert (built / "core-0.17.0.jar").is_file(), "the SQLite binding is not built: run scripts/setup.sh"
    (home / "bin").mkdir(parents=True)
    (home / "lib").mkdir()
    for jar in built.glob("*.jar"):
        if not jar.name.startswith("ycsb-embedded-"):
            shutil.copy(jar, home / "lib" / jar.name)
    (home / "jdbc-binding" / "lib").mkdir(parents=True)
    (home / "bin" / "bindings.properties").write_text("jdbc:site.ycsb.db.JdbcDBClient\n")
    return home


def run_jdbc_cell(tmp_path: Path, home: Path) -> tuple[dict, Path]:
    (peer,) = make_peers(home, [f"jdbc:db.driver=org.sqlite.JDBC,db.url={SQLITE_URL}"], find_common_jar(REPO))
    out = tmp_path / "out"
    options = RunOptions(REPO, out, REPO / "workloads", tmp_path / "data", cap=50, peers={peer.engine: peer})
    cell = run_cell(options, peer.engine, SCENARIOS_BY_ID["seqwrite"])
    return cell.to_json(), out / peer.engine / "seqwrite" / "r1"


def test_a_jdbc_peer_without_the_table_maker_fails_before_any_step(tmp_path: Path) -> None:
    cell, _ = run_jdbc_cell(tmp_path, jdbc_tree(tmp_path / "ycsb-0.17.0"))
    assert cell["status"] == "failed"
    assert cell["error"].startswith(f"preparing the store with {JDBC_CREATE_TABLE} failed, exit 1: "), cell["error"]
    assert f"Could not find or load main class {JDBC_CREATE_TABLE}" in cell["error"]
    assert cell["repeats"] == [[]], "no YCSB step runs on a store without its table"


def test_a_jdbc_peer_runs_the_table_maker_in_the_cells_directory_before_the_load(tmp_path: Path) -> None:
    home = jdbc_tree(tmp_path / "ycsb-0.17.0")
    source = tmp_path / "src" / "site" / "ycsb" / "db" / "JdbcDBCreateTable.java"
    source.parent.mkdir(parents=True)
    source.write_text(
        "package site.ycsb.db;\n"
        "public final class JdbcDBCreateTable {\n"
        "  public static void main(String[] args) {\n"
        "    for (String a : args) { System.out.println(a); }\n"
        "  }\n"
        "}\n"
    )
    classes = home / "jdbc-binding" / "classes"
    subprocess.run(["javac", "-d", str(classes), str(source)], check=True, timeout=120)
    subprocess.run(
        ["jar", "cf", str(home / "jdbc-binding" / "lib" / "stand-in.jar"), "-C", str(classes), "."],
        check=True,
        timeout=60,
    )
    cell, repeat_dir = run_jdbc_cell(tmp_path, home)
    args = (repeat_dir / "00-prepare.txt").read_text().splitlines()
    data = tmp_path / "data" / "jdbc@ycsb-0.17.0" / "seqwrite" / "r1"
    assert args == [
        "-p",
        "db.user=",
        "-p",
        "db.driver=org.sqlite.JDBC",
        "-p",
        f"db.url=jdbc:sqlite:{data}/ycsb.db",
        "-n",
        "usertable",
        "-f",
        "1",  # seqwrite's one field
    ]
    # Then the load ran (and failed: the stand-in tree has no JdbcDBClient to run it with).
    assert [step["phase"] for step in cell["repeats"][0]] == ["load"], cell
    assert "preparing the store" not in (cell["error"] or "")


# Stands in for upstream's JdbcDBClient where it matters here: its insert is SQL's INSERT INTO, so a key already in
# the table fails (upstream's returns ERROR on the SQLITE_CONSTRAINT_PRIMARYKEY). The keys live in a file at
# db.url's path between the cell's JVMs. Single-threaded, as the scenarios run it.
STAND_IN_CLIENT = """package site.ycsb.db;
import java.nio.file.*;
import java.util.*;
import site.ycsb.*;
public final class JdbcDBClient extends DB {
  private Path file;
  private final Set<String> keys = new TreeSet<>();
  @Override public void init() throws DBException {
    String url = getProperties().getProperty("db.url");
    file = Paths.get(url.substring(url.indexOf("sqlite:") + "sqlite:".length()));
    try { if (Files.exists(file)) { keys.addAll(Files.readAllLines(file)); } }
    catch (java.io.IOException e) { throw new DBException(e); }
  }
  @Override public void cleanup() throws DBException {
    try { Files.write(file, keys); } catch (java.io.IOException e) { throw new DBException(e); }
  }
  @Override public Status insert(String t, String key, Map<String, ByteIterator> v) {
    return keys.add(key) ? Status.OK : Status.ERROR;
  }
  @Override public Status update(String t, String key, Map<String, ByteIterator> v) {
    return keys.contains(key) ? Status.OK : Status.NOT_FOUND;
  }
  @Override public Status read(String t, String key, Set<String> f, Map<String, ByteIterator> r) {
    return keys.contains(key) ? Status.OK : Status.NOT_FOUND;
  }
  @Override public Status scan(String t, String k, int n, Set<String> f, Vector<HashMap<String, ByteIterator>> r) {
    return Status.NOT_IMPLEMENTED;
  }
  @Override public Status delete(String t, String key) {
    return keys.remove(key) ? Status.OK : Status.NOT_FOUND;
  }
}
"""
STAND_IN_TABLE_MAKER = """package site.ycsb.db;
public final class JdbcDBCreateTable {
  public static void main(String[] args) { }
}
"""


def test_an_insert_only_peer_gets_a_drawn_fills_repeats_as_updates_said_in_its_cell(tmp_path: Path) -> None:
    home = jdbc_tree(tmp_path / "ycsb-0.17.0")
    sources = tmp_path / "src" / "site" / "ycsb" / "db"
    sources.mkdir(parents=True)
    (sources / "JdbcDBClient.java").write_text(STAND_IN_CLIENT)
    (sources / "JdbcDBCreateTable.java").write_text(STAND_IN_TABLE_MAKER)
    classes = tmp_path / "classes"
    subprocess.run(
        ["javac", "-d", str(classes), "-cp", str(home / "lib" / "core-0.17.0.jar"), *map(str, sources.glob("*.java"))],
        check=True,
        timeout=120,
    )
    jar = home / "jdbc-binding" / "lib" / "stand-in.jar"
    subprocess.run(["jar", "cf", str(jar), "-C", str(classes), "."], check=True, timeout=60)
    (peer,) = make_peers(home, [f"jdbc:db.driver=org.sqlite.JDBC,db.url={SQLITE_URL}"], find_common_jar(REPO))
    out = tmp_path / "out"
    options = RunOptions(REPO, out, REPO / "workloads", tmp_path / "data", cap=300, peers={peer.engine: peer})
    distinct = distinct_keys(300)
    for scenario in ("randwrite", "randread"):
        cell = run_cell(options, peer.engine, SCENARIOS_BY_ID[scenario]).to_json()
        assert cell["status"] == "ok", cell["error"]
        (note,) = cell["notes"]
        assert note.startswith(
            "load-randwrite: the fill draws its 300 keys with replacement, as db_bench does, and "
            "upstream's JDBC binding inserts with INSERT INTO"
        ), note
        assert f"later draws ({300 - distinct:,}) were sent as updates (loadrepeats=update)" in note
        load = cell["repeats"][0][0]
        assert "loadrepeats=update" in load["command"]
        text = (out / load["stdout"]).read_text()
        assert f"[INSERT], Operations, {distinct}\n" in text and f"[UPDATE], Operations, {300 - distinct}\n" in text
        assert "[INSERT], Return=OK, " in text and "Return=ERROR" not in text
    # The report's paragraph on the peer says it.
    (out / "suite.json").write_text(json.dumps({"peers": [peer.describe()]}))
    (item,) = next(b for b in peers_blocks(load_runs([out])) if isinstance(b, BulletList)).items
    assert "Adapted to it: randwrite, load-randwrite: the fill draws its 300 keys" in item
    assert "; randread, load-randwrite: the fill draws" in item
    # Our own engines' inserts are upserts: nothing is changed for them.
    ours = RunOptions(REPO, tmp_path / "ours", REPO / "workloads", tmp_path / "d2", cap=300)
    own = run_cell(ours, "lmdb", SCENARIOS_BY_ID["randwrite"]).to_json()
    assert own["status"] == "ok" and own["notes"] == []
    assert "loadrepeats=update" not in own["repeats"][0][0]["command"]
