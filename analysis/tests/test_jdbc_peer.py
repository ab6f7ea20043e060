"""Upstream's JDBC binding as a peer: it expects its table and creates none, so each repeat of a cell
first runs the same jar's JdbcDBCreateTable in the cell's fresh database (`{dir}` in db.url).

Upstream's jdbc-binding jar is not on Maven Central and not in this checkout, so the runs below use a
YCSB 0.17-shaped tree from this project's own jars: one whose jdbc-binding/lib lacks the class (the cell
fails naming it, before any YCSB step), and one where a stand-in of that class only prints the arguments
it was given (what upstream's JdbcDBCreateTable reads: -p connection properties, -n table, -f fields)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from analysis.peers import JDBC_CREATE_TABLE, Peer, find_common_jar, make_peers, prepare_command
from analysis.runner import RunOptions, run_cell
from analysis.scenarios import SCENARIOS_BY_ID

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
