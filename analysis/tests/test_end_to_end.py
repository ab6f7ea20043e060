"""The suite for real: two scenarios on LevelDB (and a second built engine, if there is one) with tiny
counts, through bin/ycsb and the JVM, then the report. LevelDB must be built (scripts/setup.sh
does it): this test fails, it does not skip, when it is not."""

from __future__ import annotations

import csv
import json

from analysis.catalogue.keydraws import distinct_keys
from analysis.catalogue.model import ENGINES
from analysis.running.plan import engine_is_built

from .conftest import REPO, run_analysis

SCENARIOS = ("seqwrite", "randread")


def built_engines() -> list[str]:
    assert engine_is_built(REPO, "leveldb"), (
        "the LevelDB binding is not built: run `mvn -q -B package -DskipTests` (scripts/setup.sh does)"
    )
    others = [e for e in ENGINES if e != "leveldb" and engine_is_built(REPO, e)]
    return ["leveldb"] + others[:1]


def test_suite_runs_two_scenarios_and_renders_the_report(tmp_path):
    engines = built_engines()
    out = tmp_path / "results"
    done = run_analysis(
        *["run", "--quick", "--engines", *engines, "--scenarios", *SCENARIOS, "--cap", "2000", "--out", str(out)],
        timeout=240,
    )
    assert done.returncode == 0, done.stderr

    # The report's path is the last line on stdout; progress and the summary went to stderr.
    report = out / "report.md"
    assert done.stdout.strip().splitlines()[-1] == str(report)
    assert "100%" in done.stderr and "ETA" in done.stderr
    assert f"{len(engines) * len(SCENARIOS)} of {len(engines) * len(SCENARIOS)} cells ok" in done.stderr

    # Every raw output kept, per cell.
    for engine in engines:
        cell = json.loads((out / engine / "randread" / "cell.json").read_text())
        assert cell["status"] == "ok", cell["error"]
        assert [s["name"] for s in cell["repeats"][0]] == ["load-randwrite", "run-randread"]
        # Both steps in one JVM of the driver (bin/ycsb cell), each with its own output and 100 ms records.
        cell_err = (out / engine / "randread" / "r1" / "cell.err").read_text()
        assert cell_err.count("[ycsb-embedded] step ") == 2, cell_err
        assert "step 1: exit status 0" in cell_err and "step 2: exit status 0" in cell_err
        for step in cell["repeats"][0]:
            assert (out / step["stdout"]).with_suffix(".intervals.csv").is_file()
        for step in cell["repeats"][0]:
            assert step["recordcount"] == 2000 and step["exit_code"] == 0
            # stdout holds only what the workload prints when the JSON exporter takes the measurements.
            assert (out / step["stdout"]).is_file()
            assert "opened" in (out / step["stderr"]).read_text()
            # every property the suite passes is one some part of the run reads: none is warned about
            assert "is read by no part of this run" not in (out / step["stderr"]).read_text()
            assert '"metric" : "OVERALL"' in (out / step["json"]).read_text()
            # The timing layer around the binding: every call of the step, the open and the close apart.
            timing = json.loads((out / step["timing"]).read_text())
            op = "INSERT" if step["phase"] == "load" else "READ"
            assert timing["operations"][op]["count"] == 2000, timing
            assert timing["instances"] == 1 and timing["open_ns"] > 0 and timing["close_ns"] > 0
            assert 0 < timing["operations"][op]["ns"] <= timing["window_ns"]

    machine = json.loads((out / "machine.json").read_text())
    assert machine["cores"] and machine["filesystem"] and machine["jdk"].startswith(("openjdk", "java"))
    assert set(machine["engines"]) == set(engines)
    assert machine["engines"]["leveldb"].startswith("LevelDB 1.13 (leveldb.library=leveldbjni")
    assert "leveldb-system" in engines  # the second engine: LevelDB again, through the system library
    assert machine["engines"]["leveldb-system"].startswith("LevelDB 1.23 (leveldb.library=system")

    text = report.read_text()
    assert "### Baseline: Writes" in text and "### Baseline: Reads" in text
    assert "| LevelDB 1.13 (leveldbjni) | " in text and "ops/sec" in text
    assert "| LevelDB 1.23 (system library) | " in text
    assert "Sequential: 2011, X5650, ext3" in text
    # Beside the published figure, this host's on db_bench's clock, then YCSB's, and the open and close.
    assert "Sequential: today, this host, in operations" in text and "Sequential: YCSB" in text
    assert "Open / close (s, medians): LevelDB 1.13 (leveldbjni) sequential " in text
    assert (out / "charts" / "1-writes.svg").is_file() and (out / "report.html").is_file()

    tidy = (out / "tidy.csv").read_text().splitlines()
    assert tidy[0].startswith("engine,scenario,variant,repeat,step,phase")
    # randwrite drew its 2,000 keys with replacement (1,261 distinct), so about that share of the 2,000
    # uniform reads find theirs; YCSB counts only the found ones as [READ] operations.
    reads = [r for r in csv.DictReader(tidy) if r["engine"] == "leveldb" and r["operation"] == "READ"]
    # LevelDB's randread is the read probe: run three times to measure the run-to-run spread of a read.
    assert [r["repeat"] for r in reads] == ["1", "2", "3"]
    assert "| read | " in text and "LevelDB 1.13 (leveldbjni) randread: " in text
    read = reads[0]
    found, missed = int(float(read["ok"])), int(float(read["not_found"]))
    assert (read["step"], found + missed, int(float(read["count"]))) == ("run-randread", 2000, found)
    assert abs(found - 2000 * distinct_keys(2000) / 2000) < 6 * (2000 * 0.25) ** 0.5, (found, missed)
    assert "Keys drawn with replacement as db_bench does: about 63 % distinct; " in text
    figures = (out / "figures.csv").read_text()
    assert "leveldb,seqwrite,,1,ops,ops/sec," in figures


def test_report_command_rerenders_a_text_output_run(tmp_path):
    built_engines()
    out = tmp_path / "results"
    ran = run_analysis(
        *["run", "--engines", "leveldb", "--scenarios", "seqwrite", "--cap", "1000", "--out", str(out)],
        *["--no-report", "--exporter", "text"],
        timeout=120,
    )
    assert ran.returncode == 0, ran.stderr
    assert not (out / "report.md").exists()
    assert "[INSERT], Operations, 1000" in (out / "leveldb" / "seqwrite" / "r1" / "01-load-seqwrite.txt").read_text()
    done = run_analysis("report", str(out), timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(out / "report.md")
    compared = run_analysis("compare", str(out), str(out), timeout=120)
    assert compared.returncode == 0, compared.stderr
    assert "| LevelDB 1.13 (leveldbjni) | seqwrite |" in compared.stdout and "1.00x" in compared.stdout
    assert "ops/sec" in (out / "report.md").read_text()


def test_a_step_that_fails_in_a_cells_jvm_fails_only_its_cell(tmp_path):
    # Two workload files of one's own: the first refuses its distribution (YCSB's WorkloadException, exit 3) inside
    # the cell's JVM; the cell fails with that step's reason, its JVM ends, the second cell runs as usual.
    bad = tmp_path / "bogus"
    bad.write_text(
        "workload=site.ycsb.workloads.CoreWorkload\nrecordcount=1000\noperationcount=1000\n"
        "readproportion=1\nupdateproportion=0\nrequestdistribution=bogus\n"
    )
    good = tmp_path / "fine"
    good.write_text(
        "workload=site.ycsb.workloads.CoreWorkload\nrecordcount=1000\noperationcount=1000\n"
        "readproportion=1\nupdateproportion=0\n"
    )
    out = tmp_path / "results"
    done = run_analysis(
        *["run", "--engines", "lmdb", "--workload", str(bad), "--workload", str(good), "--out", str(out)],
        *["--crash-rounds", "0"],
        timeout=240,
    )
    assert "1 of 2 cells ok" in done.stderr, done.stderr[-3000:]
    cells = {p.parent.name: json.loads(p.read_text()) for p in (out / "lmdb").glob("*/cell.json")}
    failed = next(c for name, c in cells.items() if "bogus" in name)
    fine = next(c for name, c in cells.items() if "fine" in name)
    assert failed["status"] == "failed" and "exit code 3" in failed["error"], failed["error"]
    assert fine["status"] == "ok", fine["error"]
    # CoreWorkload refuses its distribution in the load already: the cell stops at that step, the run never starts
    assert [s["exit_code"] for s in failed["repeats"][0]] == [3]
    assert [s["exit_code"] for s in fine["repeats"][0]] == [0, 0]
