"""The registry of engines (bin/bindings.properties): how it is read, that it gives the suite what it ran
before, that nothing outside an engine's module and the registry writes an engine's name, and that an engine
registered by a test alone runs through the suite, the crash check and the report."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

from analysis.catalogue.engines import EXTRA_REGISTRIES, REGISTERED, REGISTRY, load_registry, parse_registry
from analysis.catalogue.model import ENGINE_LABELS, ENGINE_PROPS, ENGINES, binding_of
from analysis.catalogue.scenarios import SCENARIOS_BY_ID
from analysis.report.reference import ENGINE_NAMES
from analysis.report.tables import DISPLAY_ORDER
from analysis.results.crash import FILE_CHECKS, NO_PROMISE_WITH, PROMISES, SYNCED_WRITES_SURVIVE, promise
from analysis.running.peers import EMBEDDED_DIR_PROPERTIES, OUR_ENGINE_PREFIXES
from analysis.running.plan import engine_is_built

from .conftest import REPO, run_analysis


def test_parse_reads_bindings_and_facts_in_the_files_order():
    classes, facts = parse_registry(
        "# a comment\n! another\n\nb:x.B\na:x.A\na-two:x.A2\na.label=A: the first\na.props=p=1, q=2\n"
    )
    assert list(classes.items()) == [("b", "x.B"), ("a", "x.A"), ("a-two", "x.A2")]
    assert facts == {"a": {"label": "A: the first", "props": "p=1, q=2"}}


@pytest.mark.parametrize(
    ("line", "why"),
    [("a.label=C:\\new", "backslash"), ("just words", "neither name:class"), (":x.A", "neither name:class")],
)
def test_parse_refuses_what_java_would_read_otherwise(line, why):
    with pytest.raises(ValueError, match=why):
        parse_registry(line, "f")


def test_a_later_file_adds_an_engine_and_a_label_needs_a_binding(tmp_path):
    extra = tmp_path / "extra.properties"
    extra.write_text("z:site.Z\nz.label=Zed\nz.props=z.mode=fast\nz.report.order=0\nz.module=elsewhere\n")
    registry = load_registry([REGISTRY, extra])
    assert [e.name for e in registry.engines] == [*ENGINES, "z"]
    assert registry.by_name["z"].props == (("z.mode", "fast"),)
    assert registry.report_order[0] == "z"
    assert registry.module_of("z") == "elsewhere" and registry.module_of("sqlite-columns") == "sqlite-binding"
    extra.write_text("y.label=Why\n")
    with pytest.raises(ValueError, match="engine y: y has no name:class line"):
        load_registry([REGISTRY, extra])
    extra.write_text("z:site.Z\nz.label=Zed\nz.reads.mapped=yes\n")
    with pytest.raises(ValueError, match="engine z: reads.mapped is true or false, not 'yes'"):
        load_registry([REGISTRY, extra])
    extra.write_text("z:site.Z\nz.label=Zed\nz.reads.mapped=true\n")
    assert load_registry([REGISTRY, extra]).by_name["z"].mapped_reads
    assert [e.name for e in REGISTERED.engines if e.mapped_reads] == ["leveldb", "leveldb-system"]


def test_the_registry_gives_the_suite_what_it_ran_before():
    assert ENGINES == ("leveldb", "leveldb-system", "rocksdb", "sqlite", "kyoto", "lmdb")
    assert ENGINE_LABELS["leveldb-system"] == "LevelDB 1.23 (system library)" and ENGINE_LABELS["kyoto"] == (
        "Kyoto TreeDB"
    )
    assert binding_of("leveldb-system") == "leveldb" and binding_of("lmdb") == "lmdb"
    assert ENGINE_PROPS == {
        "leveldb": (("leveldb.library", "leveldbjni"),),
        "leveldb-system": (("leveldb.library", "system"),),
        "lmdb": (("lmdb.library", "system"),),
    }
    assert DISPLAY_ORDER == ("leveldb", "leveldb-system", "kyoto", "sqlite", "rocksdb", "lmdb", "fastdb")
    assert FILE_CHECKS == {
        "kyoto": ("*.kc[th]", (("kctreemgr", "check", "{file}"),)),
        "lmdb": ("data.mdb", (("mdb_stat", "-efn", "{file}"), ("mdb_dump", "-n", "{file}"))),
    }
    assert {(e, s) for e in ENGINES for s in (True, False)} == PROMISES.keys()
    assert PROMISES[("kyoto", False)].endswith("passes kctreemgr check (kyoto.autotran=true)")
    assert NO_PROMISE_WITH == {"rocksdb": (("rocksdb.disablewal", "true"),), "kyoto": (("kyoto.autotran", "false"),)}
    assert OUR_ENGINE_PREFIXES == ("leveldb.", "rocksdb.", "sqlite.", "kyoto.", "lmdb.")
    assert EMBEDDED_DIR_PROPERTIES == {"rocksdb": "rocksdb.dir"}
    assert SCENARIOS_BY_ID["bigwrite-randwrite"].engine_notes.keys() == {"sqlite", "lmdb"}
    assert SCENARIOS_BY_ID["batch-seqwrite"].engine_notes["kyoto"].startswith("TreeDB through transactions")
    assert SCENARIOS_BY_ID["nocomp-randread"].engine_notes["lmdb"].startswith("LMDB never compresses")
    assert SCENARIOS_BY_ID["bigread-seqread"].binding_for("sqlite") == "sqlite"
    assert SCENARIOS_BY_ID["pk-update"].binding_for("sqlite") == "sqlite-columns"
    assert {n: e for n, e in ENGINE_NAMES.items() if n != e and e != "fastdb"} == {
        "sqlite3": "sqlite",
        "kyoto-treedb": "kyoto",
    }


def test_every_fact_the_registry_gives_is_in_its_opening_comment():
    """A fact is listed by its name, or by a prefix and a capitalised placeholder for the rest (note.KNOB,
    launch.native.FILE)."""
    text = REGISTRY.read_text()
    comment = "\n".join(line for line in text.split("\n\n#", 1)[0].splitlines() if line.startswith("#"))
    _, facts = parse_registry(text)
    used = {fact for engine in facts.values() for fact in engine}
    listed = {f for f in used if re.search(rf"(?<![\w.]){re.escape(f)}(?![\w.])", comment)}
    prefixes = set(re.findall(r"(?<![\w.])([a-z][a-z.]*)\.[A-Z]+\b", comment))
    templated = {f for f in used if any(f.startswith(f"{prefix}.") for prefix in prefixes)}
    assert used - listed - templated == set()
    assert {"published.names", "note.batch", "scale.props.load", "launch.native.libjffi-1.2.so"} <= used


def test_bin_ycsb_and_the_distribution_read_only_the_bindings_lines(tmp_path):
    """bin/ycsb's usage lists the name:class lines' engines and no fact; the distribution's readers skip facts."""
    done = subprocess.run([str(REPO / "bin" / "ycsb"), "--help"], capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    listed = done.stdout.split("engines: ", 1)[1].split()
    assert listed == sorted(REGISTERED.classes)
    for script in ("build.sh", "install-into-ycsb.sh"):
        text = (REPO / "distribution" / script).read_text()
        assert "''|\\#*|*.*) continue ;;" in text, script


# An engine's name as code writes it: lowercase, as a whole word (a string, a property prefix, a package).
# Prose capitalises it ("LevelDB"), and docs, tests, workload files and published data may name engines.
NOT_SCANNED = re.compile(r"(^|/)tests?/|\.(md|csv|svg)$|^(workloads|docs)/")
# What still writes an engine's name outside its module and the registry: path -> (lines, why). A new line
# here needs a reason; a count that changes fails the test until this table says why.
ALLOWED: dict[str, tuple[int, str]] = {
    # The build: Maven's module list (each engine's library version is in its binding's pom.xml).
    "pom.xml": (
        10,
        "Maven's module list, which Maven cannot find by itself (each binding and its benchmark row: a new "
        "engine's two build lines, held to the registry by the test below)",
    ),
}


def test_the_root_pom_builds_each_registered_module_and_its_benchmark_row_and_no_other_engine():
    """Maven reads its module list from the root pom alone; this holds that list's engine lines to the registry."""
    listed = set(re.findall(r"<module>([^<]+)</module>", (REPO / "pom.xml").read_text()))
    engines = {m for m in listed if m.split("/", 1)[0].endswith("-binding")}
    modules = {REGISTERED.module_of(n) for n in REGISTERED.classes}
    assert engines == modules | {f"{m}/bench" for m in modules}, "pom.xml's <modules> against the registry's"
    assert ALLOWED["pom.xml"][0] >= len(engines)  # every engine line of the pom is one of these


def engine_name_lines() -> dict[str, int]:
    """path -> lines that write a registered engine's name, over the tracked files outside each engine's module,
    the registry, tests, docs, workload files and published data."""
    names = sorted({n.split("-", 1)[0] for n in REGISTERED.classes})
    word = re.compile(r"(?<![A-Za-z0-9_])(" + "|".join(map(re.escape, names)) + r")(?![A-Za-z0-9_])")
    modules = {REGISTERED.module_of(n) for n in REGISTERED.classes}
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    found = {}
    for path in tracked.decode().split("\0"):
        if not path or path.split("/", 1)[0] in modules or NOT_SCANNED.search(path):
            continue
        if (REPO / path).resolve() == REGISTRY or not (REPO / path).is_file():
            continue
        try:
            text = (REPO / path).read_text()
        except UnicodeDecodeError:
            continue
        count = sum(1 for line in text.splitlines() if word.search(line))
        if count:
            found[path] = count
    return found


def test_no_engine_name_outside_its_module_and_the_registry_but_the_allowed():
    found = engine_name_lines()
    new = {p: n for p, n in found.items() if p not in ALLOWED}
    assert not new, f"engine names outside their module and bin/bindings.properties: {new}"
    changed = {p: (n, ALLOWED[p][0]) for p, n in found.items() if n != ALLOWED[p][0]}
    assert not changed, f"(lines now, allowed): update ALLOWED with the reason: {changed}"
    assert not ALLOWED.keys() - found.keys(), f"allowed but gone: {sorted(ALLOWED.keys() - found.keys())}"


def test_the_scan_finds_a_name_written_outside_its_module(tmp_path, monkeypatch):
    """The scan is not blind: a file that writes an engine's name where code would is found."""
    monkeypatch.setattr(sys.modules[__name__], "REPO", tmp_path)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "analysis").mkdir()
    (tmp_path / "analysis" / "new.py").write_text('ENGINE = "lmdb"\nLABEL = "LMDB, in prose"\n')
    (tmp_path / "lmdb-binding").mkdir()
    (tmp_path / "lmdb-binding" / "x.py").write_text('ENGINE = "lmdb"\n')
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    assert engine_name_lines() == {"analysis/new.py": 1}


def _built_module() -> str:
    built = [e for e in REGISTERED.engines if engine_is_built(REPO, e.name)]
    assert built, "no binding is built: run `mvn -q -B package -DskipTests` (scripts/setup.sh does)"
    return REGISTERED.module_of(built[0].binding)


def _analysis(args: list[str], env: dict[str, str], timeout: int = 240) -> subprocess.CompletedProcess[str]:
    return run_analysis(*args, timeout=timeout, env=env)


def test_an_engine_registered_by_a_test_runs_through_the_suite_the_crash_check_and_the_report(tmp_path):
    """A do-nothing DB in a registry file of the test's own: no promise, so the crash check must report its
    losses (and fail it under sync=true, the project's rule), never pass it as durable."""
    registry = tmp_path / "nothing.properties"
    registry.write_text(
        "nothing:site.ycsb.embedded.NothingDB\n"
        f"nothing.module={_built_module()}\n"  # every binding's classpath holds the harness, and so NothingDB
        "nothing.label=Nothing (a do-nothing DB)\n"
    )
    env = {**os.environ, EXTRA_REGISTRIES: str(registry)}
    out = tmp_path / "results"

    listed = _analysis(["list", "--scenarios", "seqwrite"], env, timeout=60)
    assert listed.returncode == 0 and "nothing" in listed.stdout, listed.stdout + listed.stderr

    run = _analysis(
        ["run", "--quick", "--engines", "nothing", "--scenarios", "seqwrite", "workloadc", "--cap", "2000"]
        + ["--out", str(out)],
        env,
    )
    assert run.returncode == 0, run.stderr
    assert "2 of 2 cells ok" in run.stderr, run.stderr
    cell = json.loads((out / "nothing" / "workloadc" / "cell.json").read_text())
    assert cell["status"] == "ok" and [s["name"] for s in cell["repeats"][0]] == ["load-workloadc", "run-workloadc"]

    crash = _analysis(
        ["crash", "--engines", "nothing", "--rounds", "1", "--sync", "true,false", "--kill-after", "0.05-0.1"]
        + ["--seed", "7", "--out", str(out)],
        env,
    )
    # sync=true: the project's rule (an acknowledged synced write survives kill -9) is broken, so it fails;
    # sync=false: no promise, so its losses are reported, not failed and not called kept.
    assert crash.returncode == 1, crash.stdout + crash.stderr
    assert "FAILED nothing sync=true round 1: " in crash.stdout and SYNCED_WRITES_SURVIVE in crash.stdout
    assert "reported, not failed (nothing promised in this mode): nothing sync=false round 1: " in crash.stdout
    assert promise("nothing", False) == ""
    assert "kept everything" not in crash.stdout

    report = _analysis(["report", str(out)], env, timeout=120)
    assert report.returncode == 0, report.stderr
    text = (out / "report.md").read_text()
    assert "Nothing (a do-nothing DB)" in text
    rows = [line for line in text.splitlines() if line.startswith("| Nothing (a do-nothing DB) | sync=")]
    assert len(rows) == 2 and "**FAILED**" in rows[0] and "**lost (nothing promised)**" in rows[1], rows
