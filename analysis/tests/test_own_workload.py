"""`run --workload FILE`: a user's YCSB workload file as a scenario of the run. A file the suite cannot run
as written is refused before anything runs (no results directory, exit 2), a line per problem; one it can
runs on a real engine and is in the report like any scenario (tidy rows, the heat map, its own table)."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from analysis.catalogue.own_workloads import EMBEDDED_WORKLOAD, OWN_QUICK_COUNT, own_scenario
from analysis.catalogue.workloadfile import check_workload_file, class_on_classpath, parse_properties, read_properties
from analysis.report.report_costs import amplification_blocks
from analysis.report.report_tables import _own_label
from analysis.results.results import Figure
from analysis.running.suite import main as run_main
from analysis.running.suite import matrix_cells, shard_cells

from .conftest import REPO

GOOD = """# a service that mostly reads
workload=site.ycsb.workloads.CoreWorkload
recordcount=300
operationcount 300
fieldcount: 2
fieldlength=40
readproportion=0.9
updateproportion=0.1
requestdistribution=zipfian
"""


def refused(tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str], *more: str) -> str:
    """Runs the suite on a file of this text; asserts it refused before anything ran; its message."""
    path = tmp_path / "mine"
    path.write_text(text)
    out = tmp_path / "out"
    code = run_main(["--workload", str(path), "--engines", "lmdb", "--out", str(out), "--no-report", *more])
    err = capsys.readouterr().err
    assert code == 2, err
    assert not out.exists(), "a refused file leaves no results directory: nothing ran"
    assert f"--workload {path} refused, before anything ran:" in err
    return err


def test_a_line_java_would_guess_at_is_refused_with_its_number(tmp_path: Path, capsys) -> None:
    text = GOOD + "threadcount\npath=C:\\data\\db\nrecordcount=20\n=5\nx=\\u12\n"
    err = refused(tmp_path, text, capsys)
    path = tmp_path / "mine"
    assert f"{path}:10: 'threadcount' has no value" in err
    assert f"{path}:11: \\d is not an escape" in err
    assert f"{path}:12: recordcount set again (first on line 3" in err
    assert f"{path}:13: no property name" in err
    assert f"{path}:14: \\u12 is not \\u and four hex digits" in err
    assert f"{path}:4:" not in err, "a blank separates a name from its value, as Java reads it"


def test_a_file_without_recordcount_is_refused(tmp_path: Path, capsys) -> None:
    err = refused(tmp_path, GOOD.replace("recordcount=300\n", ""), capsys)
    assert f"{tmp_path / 'mine'}: no recordcount= line (read 8 lines)" in err
    err = refused(tmp_path, GOOD.replace("recordcount=300", "recordcount=3e2"), capsys)
    assert f"{tmp_path / 'mine'}:3: recordcount='3e2' is not a whole number of at least 1" in err


def test_a_workload_class_on_no_rows_classpath_is_refused(tmp_path: Path, capsys) -> None:
    text = GOOD.replace("site.ycsb.workloads.CoreWorkload", "com.example.NoSuchWorkload")
    err = refused(tmp_path, text, capsys)
    assert f"{tmp_path / 'mine'}:2: workload=com.example.NoSuchWorkload is not on the classpath of lmdb" in err


def test_a_file_named_like_a_catalogue_scenario_is_refused(tmp_path: Path, capsys) -> None:
    path = tmp_path / "workloada"
    path.write_text(GOOD)
    assert run_main(["--workload", str(path), "--engines", "lmdb", "--out", str(tmp_path / "o")]) == 2
    assert "its scenario would be 'workloada', a scenario of the catalogue" in capsys.readouterr().err


def test_classes_are_found_in_jars_and_directories_of_a_classpath(tmp_path: Path) -> None:
    lib = REPO / "lmdb-binding" / "target" / "lib"
    assert lib.is_dir(), "the LMDB binding is not built: run scripts/setup.sh"
    assert class_on_classpath("site.ycsb.workloads.CoreWorkload", f"{lib}/*")
    assert class_on_classpath("site.ycsb.embedded.workload.EmbeddedWorkload", f"{lib}/*")
    assert not class_on_classpath("site.ycsb.workloads.NoSuch", f"{lib}/*")
    (tmp_path / "a" / "b").mkdir(parents=True)
    (tmp_path / "a" / "b" / "W.class").write_bytes(b"")
    assert class_on_classpath("a.b.W", f"{tmp_path / 'none'}:{tmp_path}")


def test_properties_are_read_as_javas_properties_load_reads_them(tmp_path: Path) -> None:
    """Checked against the JDK itself: a JVM loads the same text and prints what it read."""
    text = (
        "a=1\n  b : two words  \nc three\\\n    four\nd\\=e=5\n# comment\n! other\nf=\\t\\u0041\\\\\n"
        "g=x\\:y\nh =\n  i\\ j = k\n"
    )
    (tmp_path / "p.properties").write_text(text)
    dump = tmp_path / "Dump.java"
    dump.write_text(
        "import java.io.*; import java.util.*;\n"
        "public class Dump { public static void main(String[] a) throws Exception {\n"
        "  Properties p = new Properties(); try (InputStream in = new FileInputStream(a[0])) { p.load(in); }\n"
        "  for (String k : new TreeSet<>(p.stringPropertyNames())) {\n"
        '    System.out.println(k.replace("\\t", "<TAB>") + "|" + p.getProperty(k).replace("\\t", "<TAB>")); }\n'
        "} }\n"
    )
    java = subprocess.run(
        ["java", str(dump), str(tmp_path / "p.properties")], capture_output=True, text=True, check=True, timeout=120
    ).stdout.splitlines()
    props, problems = parse_properties(text)
    assert problems == []
    ours = sorted(f"{p.name}|{p.value}".replace("\t", "<TAB>") for p in props)
    assert ours == java
    assert read_properties(text)["b"] == "two words", "read_properties trims what Java keeps after a value"


def test_a_users_workload_file_runs_on_an_engine_and_is_in_the_report(tmp_path: Path, capsys) -> None:
    path = tmp_path / "reads.properties"
    text = GOOD + "lmdb.mapsise=1g\n"  # a typo LMDB's binding warns of and ignores
    path.write_text(text)
    out = tmp_path / "out"
    assert run_main(["--workload", str(path), "--engines", "lmdb", "--out", str(out), "--cap", "200"]) == 0
    capsys.readouterr()
    cell = json.loads((out / "lmdb" / "reads" / "cell.json").read_text())
    assert cell["status"] == "ok", cell["error"]
    copy = out / "workload-files" / "reads"
    assert copy.read_text() == text, "the results keep the file as it ran"
    ignored = "lmdb ignored lmdb.mapsise, a property its binding does not have"
    assert cell["notes"] == [f"load-reads-load: {ignored}", f"run-reads: {ignored}"]
    steps = cell["repeats"][0]
    assert [(s["phase"], s["variant"], s["recordcount"], s["operationcount"]) for s in steps] == [
        ("load", "load", 200, 200),
        ("run", "", 200, 200),
    ]
    assert all(["-P", str(copy)] == s["command"][3:5] for s in steps), steps[0]["command"]
    suite = json.loads((out / "suite.json").read_text())
    assert suite["scenarios"] == ["reads"]
    assert suite["workload_files"] == [
        {
            "id": "reads",
            "source": str(path),
            "copy": "workload-files/reads",
            "class": GOOD.split("=")[1].split()[0],
            "threads": None,
        }
    ]
    with (out / "tidy.csv").open() as f:
        rows = [r for r in csv.DictReader(f) if r["operation"] in ("INSERT", "READ", "UPDATE")]
    done = {(r["variant"], r["operation"]): int(r["count"]) for r in rows if r["scenario"] == "reads"}
    assert done[("load", "INSERT")] == 200
    assert done[("", "READ")] + done[("", "UPDATE")] == 200 and done[("", "READ")] > done[("", "UPDATE")]
    # A fresh process renders the report from the directory alone: the file's scenario comes back from its copy.
    subprocess.run(
        [sys.executable, "-m", "analysis", "report", str(out)], cwd=REPO, check=True, capture_output=True, timeout=300
    )
    report = (out / "report.md").read_text()
    glance = report[report.index("## At a glance") : report.index("## Summary")]
    # 200 operations are too short to show a steady part: the heat map marks them (◦).
    assert "| reads load | 1.00 ◦ |" in glance and "| reads | 1.00 ◦ |" in glance
    own = report[report.index("## 8. Your Workloads") :]
    assert f"Your workload file `{path}`" in own
    assert own.index("| LMDB (lmdbjava) |") < own.index("Not honoured as written:") < own.index("### What it cost")
    assert "- LMDB (lmdbjava): run-reads: lmdb ignored lmdb.mapsise" in own


def test_a_full_runs_paragraph_says_the_file_ran_at_its_own_counts(tmp_path: Path, capsys) -> None:
    """It said "with --quick at most 10,000 records" whatever the mode."""
    path = tmp_path / "small"
    path.write_text(GOOD.replace("300", "40"))  # recordcount and operationcount
    out = tmp_path / "out"
    assert run_main(["--workload", str(path), "--engines", "lmdb", "--full", "--out", str(out)]) == 0
    capsys.readouterr()
    own = (out / "report.md").read_text().split("## 8. Your Workloads")[1]
    paragraph = own[own.index("Your workload file") :].split("\n")[0]
    assert "With --full, the file's own counts." in paragraph and "--quick" not in paragraph, paragraph
    assert "This run: load 40 records; run 40 records, 40 operations." in paragraph, paragraph


def test_a_files_scenario_runs_on_every_row_with_the_suites_options() -> None:
    props = read_properties(GOOD)
    plain = own_scenario("reads", "/r/workload-files/reads", props)
    assert plain.section == "own" and plain.variants == ("load", "")
    assert (plain.quick_records, plain.quick_operations) == (300, 300)
    assert [s.name for s in plain.steps] == ["load-reads-load", "run-reads"]
    threads = own_scenario("reads", "/r/workload-files/reads", props, threads=(1, 4))
    assert threads.variants == ("load", "run-1t", "run-4t")
    assert [dict(s.props).get("threadcount") for s in threads.steps] == [None, "1", "4"]
    cells = matrix_cells(["leveldb", "lmdb", "rocksdb@ycsb-0.17.0"], [plain])
    assert [e for e, _ in cells] == ["leveldb", "lmdb", "rocksdb@ycsb-0.17.0"], "every engine row and every peer"
    assert [e for e, _ in shard_cells(cells, (2, 2))] == ["lmdb"]
    big = own_scenario("big", "/f", {**props, "recordcount": "5000000", "operationcount": "20000"})
    assert (big.quick_records, big.quick_operations) == (OWN_QUICK_COUNT, OWN_QUICK_COUNT)
    part = own_scenario("part", "/f", {**props, "insertcount": "100"})
    assert (part.quick_records, part.quick_operations) == (None, None), "a part of a split load keeps its counts"
    drawn = {**props, "workload": EMBEDDED_WORKLOAD, "loadorder": "replacement"}
    assert own_scenario("d", "/f", drawn).keys_drawn and not plain.keys_drawn
    assert "NOT_FOUND" in own_scenario("d", "/f", drawn).steps[1].allowed_returns
    assert "NOT_FOUND" not in plain.steps[1].allowed_returns


def test_the_projects_own_workload_files_pass_the_checks_a_users_file_must() -> None:
    files = [f for f in sorted((REPO / "workloads").rglob("*")) if f.is_file()]
    assert len(files) > 30
    for f in files:
        _, problems = parse_properties(f.read_text(encoding="latin-1"))
        assert problems == [], f
    for name in ("workloada", "randwrite", "scale/base"):
        checked = check_workload_file(REPO / "workloads" / name)
        assert checked.properties["recordcount"].isdigit(), name


def test_write_costs_of_variants_alone_draw_no_amplification_chart(tmp_path: Path) -> None:
    """A --workload file run with --threads-series measures only variants (load, run-1t, ...), as bulk-import
    does: their write amplification is in the cost tables, and the chart of variant-less figures is left out
    (it failed with an IndexError on an empty list of panels)."""
    figures = [
        Figure("lmdb", "bulk-import", v, "sqlite", "ops", "ops/sec", 10.0, costs={"write_amplification": 2.0})
        for v in ("one-row-per-txn", "all-rows-one-txn")
    ]
    assert amplification_blocks(SimpleNamespace(figures=figures), tmp_path) == []  # type: ignore[arg-type]
    labels = [_own_label(v) for v in ("load", "", "run-1t", "run-16t")]
    assert labels == ["load", "run", "run, 1 thread", "run, 16 threads"]


# Ten requests in the column order of the Twitter cache traces (common's TraceSamples.TWITTER_TEN):
# timestamp,key,key size,value size,client,op,TTL. a1 and c3 are read or deleted before any write: the load's keys.
TEN_LINE_TRACE = """0,nz:u:a1,20,100,7,get,0
0,nz:u:b2,20,200,7,set,3600
1,nz:u:a1,20,110,7,set,3600
1,nz:u:b2,20,200,9,gets,0
2,nz:u:c3,21,0,9,delete,0
3,nz:u:d4,22,8,7,incr,0
4,nz:u:b2,20,50,7,append,0
5,nz:u:e5,20,300,7,add,600
6,nz:u:a1,20,110,9,get,0
9,nz:u:e5,20,40,7,replace,0
"""


def _trace_file(tmp_path: Path) -> Path:
    """workloads/trace-replay, the template, with its trace.file set to a ten-line trace written here."""
    trace = tmp_path / "ten.csv"
    trace.write_text(TEN_LINE_TRACE)
    template = (REPO / "workloads" / "trace-replay").read_text()
    assert "trace.file=/path/to/your/trace.csv.gz\n" in template
    path = tmp_path / "ten-lines"
    path.write_text(template.replace("/path/to/your/trace.csv.gz", str(trace)))
    return path


def test_a_template_trace_without_its_file_is_refused(tmp_path: Path, capsys) -> None:
    template = (REPO / "workloads" / "trace-replay").read_text()
    err = refused(tmp_path, template, capsys)
    assert f"{tmp_path / 'mine'}:23: trace.file=/path/to/your/trace.csv.gz: no readable file there" in err
    err = refused(tmp_path, template.replace("/path/to/your/trace.csv.gz", "ten.csv"), capsys)
    assert "trace.file=ten.csv is not an absolute path" in err


def test_a_zstd_trace_is_refused_before_anything_runs(tmp_path: Path, capsys) -> None:
    trace = tmp_path / "cluster52.0.csv.zst"
    trace.write_bytes(b"\x28\xb5\x2f\xfd" + bytes(60))  # a zstd frame's magic, as the Twitter traces come
    template = (REPO / "workloads" / "trace-replay").read_text()
    err = refused(tmp_path, template.replace("/path/to/your/trace.csv.gz", str(trace)), capsys)
    assert f"{tmp_path / 'mine'}:23: trace.file={trace} is zstd-compressed" in err
    assert f"decompress it first (zstd -d {trace})" in err


# Every key written before it is read (the common case): the load has nothing to insert. Line 4 is malformed.
WRITTEN_FIRST_TRACE = """time,key,keysize,valuesize,op
0,a,1,100,set
0,b,1,100,set
not a trace line
1,a,1,0,get
1,b,1,0,get
2,a,1,50,set
3,b,1,0,get
"""


def test_a_trace_that_writes_every_key_first_runs_and_its_load_is_set_up_not_a_figure(tmp_path: Path, capsys) -> None:
    """Its load inserts nothing and its run starts on the empty database, which the bindings refused (exit 3, "0 of
    1 cells ok") when they judged the trace by CoreWorkload's read share. The load is set-up: not in the heat map,
    the Summary's ranking, the table or its chart; the malformed line is in the report, as the replay named it."""
    trace = tmp_path / "written-first.csv"
    trace.write_text(WRITTEN_FIRST_TRACE)
    path = tmp_path / "written-first"
    path.write_text((REPO / "workloads" / "trace-replay").read_text().replace("/path/to/your/trace.csv.gz", str(trace)))
    out = tmp_path / "out"
    assert run_main(["--workload", str(path), "--engines", "lmdb", "sqlite", "--out", str(out)]) == 0
    capsys.readouterr()
    for engine in ("lmdb", "sqlite"):
        assert _steps(out, engine, "written-first") == [("load", 0), ("run", 6)]
    report = (out / "report.md").read_text()
    glance = report[report.index("## At a glance") : report.index("## Summary")]
    assert "| written-first |" in glance and "load" not in glance
    summary = report[report.index("## Summary") : report.index("## This machine")]
    assert "| 8. Your Workloads | written-first: " in summary and "written-first load" not in summary
    own = report[report.index("## 8. Your Workloads") : report.index("### What it cost")]
    assert "| Engine | run: today, this host |" in own
    assert "The load is set-up, not a figure: it inserts the keys the trace reads before it writes them" in own
    assert "| Lines replayed | 6 (1 malformed, skipped) |" in own
    assert "| Keys the load inserted (read before written) | 0 |" in own
    assert "| First malformed lines skipped | line 4: `not a trace line` |" in own
    chart = (out / "charts" / "own-written-first.svg").read_text()
    assert ">ops/sec</text>" in chart and ">load</text>" not in chart, "the chart draws the run alone"


def _steps(out: Path, engine: str, scenario: str) -> list[tuple[str, int]]:
    cell = json.loads((out / engine / scenario / "cell.json").read_text())
    assert cell["status"] == "ok", cell["error"]
    return [(s["phase"], s["expected_operations"]) for s in cell["repeats"][0]]


def test_a_ten_line_trace_replays_through_the_suite_and_the_report_says_what_it_was(tmp_path: Path, capsys) -> None:
    """The load inserts the two keys read before written and the run replays the ten lines, with --quick's counts
    of 10,000 above them: each step ends with the trace, and its [TRACE] line says where. With --cap 6 the run
    stops at its sixth line."""
    path = _trace_file(tmp_path)
    out = tmp_path / "out"
    assert run_main(["--workload", str(path), "--engines", "lmdb", "--out", str(out)]) == 0
    capsys.readouterr()
    assert _steps(out, "lmdb", "ten-lines") == [("load", 2), ("run", 10)]
    with (out / "tidy.csv").open() as f:
        rows = [r for r in csv.DictReader(f) if r["scenario"] == "ten-lines"]
    done = {(r["phase"], r["operation"]): int(r["count"]) for r in rows if r["operation"] != "OVERALL"}
    assert done == {
        ("load", "INSERT"): 2,
        ("run", "READ"): 3,
        ("run", "INSERT"): 3,
        ("run", "UPDATE"): 3,
        ("run", "DELETE"): 1,
    }
    overall = [r for r in rows if r["operation"] == "OVERALL"]
    assert [r["workload_line"][:30] for r in overall] == [
        "[TRACE] phase=load, format=twi",
        "[TRACE] phase=run, format=twit",
    ]
    own = (out / "report.md").read_text().split("## 8. Your Workloads")[1]
    trace = own[own.index("What the trace was") : own.index("### What it cost")]
    assert "| Lines replayed | 10 (0 malformed, skipped) |" in trace
    assert "| Mix (what the lines became) | insert 3, read 3, update 3, delete 1 |" in trace
    assert "| Distinct keys (HyperLogLog estimate) | ~5 |" in trace
    assert "| Keys the load inserted (read before written) | 2 |" in trace
    assert "| Value size, bytes | min 0, p50 100, p90 200, p99 300, max 300, mean 111.8 |" in trace
    # The trace's records are not the file's fieldcount x fieldlength: no amplification is divided out of them.
    with (out / "tidy.csv").open() as f:
        amplification = [r["write_amplification"] for r in csv.DictReader(f) if r["scenario"] == "ten-lines"]
    assert amplification and all(a == "" for a in amplification), amplification

    capped = tmp_path / "capped"
    assert run_main(["--workload", str(path), "--engines", "lmdb", "--out", str(capped), "--cap", "6"]) == 0
    capsys.readouterr()
    assert _steps(capped, "lmdb", "ten-lines") == [("load", 2), ("run", 6)]
    assert "| Lines replayed | 6 (0 malformed, skipped) |" in (capped / "report.md").read_text()


def test_mixgraph_runs_as_a_users_file_and_the_report_puts_the_model_beside_what_it_generated(
    tmp_path: Path, capsys
) -> None:
    out = tmp_path / "out"
    code = run_main(
        ["--workload", str(REPO / "workloads" / "mixgraph"), "--engines", "lmdb", "--out", str(out), "--cap", "2000"]
    )
    assert code == 0, capsys.readouterr().err
    assert _steps(out, "lmdb", "mixgraph") == [("load", 2000), ("run", 2000)]
    own = (out / "report.md").read_text().split("## 8. Your Workloads")[1]
    model = own[own.index("The model (Cao et al., FAST 2020") : own.index("### What it cost")]
    assert "|  | Model | Generated, LMDB (lmdbjava) |" in model
    assert "| Share of get | 85.0 % |" in model
    assert "| Value size p10 / p50 / p90 / p99, puts | 3 / 20 / 81 / 228 |" in model
    assert "(2,000 values) |" in model and "| Share of requests, hottest key range | 79.1 % |" in model
    assert "![mixgraph: value size, model and generated](charts/own-mixgraph-valuesize.svg)" in model
    assert "model (FAST 2020)" in (out / "charts" / "own-mixgraph-valuesize.svg").read_text()
