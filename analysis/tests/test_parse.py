"""The parser on real captured outputs of every engine with fixtures (fixtures/capture.sh)."""

from __future__ import annotations

import pytest

from analysis.results.engine_lines import parse_engine_banner
from analysis.results.parse import (
    Expectation,
    OperationTimes,
    find_error_lines,
    parse_json_export,
    parse_measurement_lines,
    parse_operation_times,
    parse_status_lines,
    parse_ycsb_output,
    slowest_interval,
    step_problems,
)
from analysis.results.tidy import inside_columns, output_rows, step_costs

from .conftest import Captured, captured_engines

OK_ONLY = frozenset({"OK", "BATCHED_OK"})


def problems_of(captured, case: str, expected: Expectation, with_json: bool = False) -> list[str]:
    stdout, stderr = captured.stdout(case), captured.stderr(case)
    output = parse_ycsb_output(stdout, captured.json(case) if with_json else None)
    return step_problems(output, 0, find_error_lines(stdout, stderr), expected)


def test_leveldb_outputs_are_captured():
    assert "leveldb" in captured_engines()


def test_load_counts_every_insert(captured):
    output = parse_ycsb_output(captured.stdout("load"))
    insert = output.operations["INSERT"]
    assert insert.count == 2000
    assert insert.returns == {"OK": 2000}
    assert output.operations_done == 2000
    assert output.runtime_ms > 0 and output.throughput > 0
    assert 0 < insert.p95_us <= insert.p99_us
    assert insert.avg_us > 0
    assert "CLEANUP" not in output.operations  # closing the DB is not an operation
    assert problems_of(captured, "load", Expectation(2000)) == []


def test_run_with_reads(captured):
    output = parse_ycsb_output(captured.stdout("run-read"))
    assert set(output.operations) == {"READ"}
    read = output.operations["READ"]
    assert (read.count, read.ok, read.not_found, read.errors) == (2000, 2000, 0, 0)
    assert problems_of(captured, "run-read", Expectation(2000)) == []


def test_json_exporter_gives_the_same_shape_as_the_text(captured):
    measurements = parse_json_export(captured.json("run-read-json"))
    assert ("OVERALL", "RunTime(ms)") in {(m.metric, m.measurement) for m in measurements}
    from_json = parse_ycsb_output(captured.stdout("run-read-json"), captured.json("run-read-json"))
    from_text = parse_ycsb_output(captured.stdout("run-read"))
    assert set(from_json.operations) == set(from_text.operations) == {"READ"}
    assert from_json.operations["READ"].returns == {"OK": 2000}
    assert from_json.operations["READ"].p99_us is not None
    # With the exporter, stdout holds no measurements at all.
    assert parse_measurement_lines(captured.stdout("run-read-json")) == []


def test_status_lines_from_dash_s(captured):
    status = parse_status_lines(captured.stderr("run-status"))
    assert len(status) >= 3
    assert status[0].seconds == 0  # the first line comes at 0 s (possibly after a few operations)
    assert status[-1].operations == 600000
    assert [s.operations for s in status] == sorted(s.operations for s in status)
    assert any("READ" in s.per_operation and s.per_operation["READ"]["Count"] > 0 for s in status)
    assert slowest_interval(status) > 0
    # The status lines do not disturb the results on stdout.
    assert parse_ycsb_output(captured.stdout("run-status")).operations["READ"].count == 600000


def test_readseq_reports_entries_per_second(captured):
    for case, with_json in (("run-readseq", False), ("run-readseq-json", True)):
        output = parse_ycsb_output(captured.stdout(case), captured.json(case) if with_json else None)
        assert output.readseq.passes == 1
        assert output.readseq.entries == 2000
        assert output.readseq.entries_per_sec > 0
        assert output.operations["SCAN"].count == 1  # YCSB sees one operation per pass
        expected = Expectation(1, readseq_entries=2000)
        assert problems_of(captured, case, expected, with_json) == []
    wrong = problems_of(captured, "run-readseq", Expectation(1, readseq_entries=4000))
    assert wrong == ["full scans saw 2000 entries, expected 4000"]


def test_not_found_fails_a_step_unless_allowed(captured):
    output = parse_ycsb_output(captured.stdout("run-notfound"))
    read = output.operations["READ"]
    assert read.not_found > 0 and read.ok + read.not_found == 2000
    assert "READ-FAILED" not in output.operations
    problems = problems_of(captured, "run-notfound", Expectation(2000))
    assert problems == [f"READ: {read.not_found} NOT_FOUND"]
    assert problems_of(captured, "run-notfound", Expectation(2000, OK_ONLY | {"NOT_FOUND"})) == []


def test_batched_inserts_count_as_entries(captured):
    output = parse_ycsb_output(captured.stdout("load-batch"))
    insert = output.operations["INSERT"]
    assert insert.count == 5000 and insert.ok == 5000
    assert insert.returns.get("BATCHED_OK", 0) > insert.returns.get("OK", 0)
    rows = {r["operation"]: r for r in output_rows(output, None)}
    assert rows["INSERT"]["entries"] == 5000
    assert rows["OVERALL"]["entries_per_sec"] == output.throughput
    assert problems_of(captured, "load-batch", Expectation(5000)) == []


def test_a_bad_property_fails_the_step_although_ycsb_exits_0(captured):
    stdout, stderr = captured.stdout("failed-badprop"), captured.stderr("failed-badprop")
    errors = find_error_lines(stdout, stderr)
    assert errors and "cachesize" in errors[0] and "banana" in errors[0]
    assert len(errors) == len(set(errors))
    problems = problems_of(captured, "failed-badprop", Expectation(2000))
    assert problems[0] == errors[0]
    assert "0 of 2000 operations done" in problems


def test_a_missing_workload_file_fails_the_step(captured):
    problems = problems_of(captured, "failed-missing-workload", Expectation(1000))
    assert any("Unable to open the properties file" in p for p in problems)
    assert "no YCSB results in the output" in problems


def test_exit_code_is_a_problem_of_its_own(captured):
    output = parse_ycsb_output(captured.stdout("load"))
    assert step_problems(output, 2, [], Expectation(2000)) == ["exit code 2"]
    assert step_problems(output, 3, [], Expectation(2000)) == [
        "exit code 3 (the binding refused to open or the workload to start)"
    ]
    assert step_problems(output, 4, [], Expectation(2000)) == ["exit code 4 (operations returned ERROR)"]


def test_engine_banner_gives_version_configuration_and_timings(captured):
    banner = parse_engine_banner(captured.stderr("load"), captured.engine)
    assert banner.version and "opened" not in banner.version
    assert banner.open_ms is not None and banner.close_ms is not None
    assert f"{captured.engine}.path" in banner.configuration
    assert all(not v.endswith(")") or "(" in v for v in banner.configuration.values())
    assert parse_engine_banner(captured.stderr("failed-badprop"), captured.engine).version is None


def test_tidy_rows_of_a_run(captured):
    output = parse_ycsb_output(captured.stdout("run-read"))
    rows = {r["operation"]: r for r in output_rows(output, 1234.0)}
    assert set(rows) == {"OVERALL", "READ"}
    assert rows["OVERALL"]["count"] == 2000
    assert rows["OVERALL"]["slowest_interval_ops_per_sec"] == 1234.0
    read = rows["READ"]
    assert read["count"] == 2000 and read["ok"] == 2000 and read["errors"] == 0
    assert abs(read["throughput_ops_per_sec"] - 2000 / (output.runtime_ms / 1000)) < 1e-6
    assert read["p95_latency_us"] is not None and read["p99_latency_us"] is not None
    assert read["entries"] is None  # a point read covers one entry: no entries/s figure of its own


def test_text_parser_ignores_everything_but_measurement_lines():
    text = "YCSB Client 0.17.0\n[OVERALL], RunTime(ms), 10\nnoise, 1, 2\n[READ], Return=OK, 3\n"
    assert [(m.metric, m.measurement, m.value) for m in parse_measurement_lines(text)] == [
        ("OVERALL", "RunTime(ms)", 10.0),
        ("READ", "Return=OK", 3.0),
    ]


def test_a_bindings_start_up_note_is_not_an_error():
    stderr = (
        "[kyoto] NOTE: kctreemgr cannot name a compressor (it fails with 'invalid module checksum');"
        " inspect this file with: kcpolymgr inform -st 'x.kct#zcomp=lzo'\n"
        "[kyoto] insert of key 'k' failed: KyotoException: broken\n"
    )
    assert find_error_lines("", stderr) == ["[kyoto] insert of key 'k' failed: KyotoException: broken"]


def test_engine_line_names_the_version_whatever_notes_come_first():
    stderr = (
        "[sqlite] NOTE: writebuffersize = 2m is ignored: SQLite has no write buffer\n"
        "[sqlite] table: CREATE TABLE t (k BLOB)\n"
        "[sqlite] engine: SQLite 3.54.1 (sqlite-jdbc 3.54.1.0)\n"
        "[sqlite] opened /d in 3.5 ms; effective configuration:\n"
        "  sqlite.path = /d (from path)\n"
        "[sqlite] closed /d in 1.0 ms\n"
    )
    banner = parse_engine_banner(stderr, "sqlite")
    assert banner.version == "SQLite 3.54.1 (sqlite-jdbc 3.54.1.0)"
    assert banner.open_ms == 3.5 and banner.close_ms == 1.0
    assert banner.configuration == {"sqlite.path": "/d"}


def test_a_client_that_never_ran_counts_zero_operations() -> None:
    # YCSB prints NaN for 0 operations in 0 ms (a DB class it could not load); a step problem, not a crash
    output = parse_ycsb_output("[OVERALL], RunTime(ms), 0\n[OVERALL], Throughput(ops/sec), NaN\n")
    assert output.operations_done == 0
    assert "0 of 50 operations done" in step_problems(output, 0, [], Expectation(50))
    infinite = parse_ycsb_output("[OVERALL], RunTime(ms), 0\n[OVERALL], Throughput(ops/sec), Infinity\n")
    assert infinite.operations_done is None


def test_reads_after_a_drawn_fill_must_find_about_the_share_it_left(captured):
    output = parse_ycsb_output(captured.stdout("run-notfound"))
    read = output.operations["READ"]
    share = read.ok / (read.ok + read.not_found)
    allowed = OK_ONLY | {"NOT_FOUND"}
    assert problems_of(captured, "run-notfound", Expectation(2000, allowed, found_share=share)) == []
    # Far more misses than the fill's share explains: records lost (or reads of other keys).
    expected_share = min(1.0, share + 0.2)
    [problem] = problems_of(captured, "run-notfound", Expectation(2000, allowed, found_share=expected_share))
    assert problem.startswith(f"READ: {read.ok} of 2000 found, expected about {2000 * expected_share:.0f}")


def test_missed_reads_count_in_the_time_inside_operations(captured):
    output = parse_ycsb_output(captured.stdout("run-notfound"))
    read, missed = output.operations["READ"], output.failed["READ-FAILED"]
    assert missed.count == read.not_found and read.count == read.ok and missed.avg_us is not None
    # The timing layer times every call, found or not: 2,000 reads in 50 ms.
    times = OperationTimes(1, 3_000_000, 4_000_000, 60_000_000, {"READ": (2000, 50_000_000)})
    costs = step_costs({"resources": {}, "phase": "run", "recordcount": 2000}, output, times=times)
    assert costs["inside_ops_per_sec"] == pytest.approx(2000 / 0.05)
    assert (costs["open_seconds"], costs["close_seconds"]) == (0.003, 0.004)
    assert "inside_ops_per_sec" not in step_costs({"resources": {}, "phase": "run", "recordcount": 2000}, output)


TIMING_FILE = (  # as harness/.../NanoTimedDB.java writes it, for two client threads of workload F
    '{"instances": 2, "open_ns": 5000000, "close_ns": 7000000, "window_ns": 90000000, "operations": '
    '{"READ": {"count": 1000, "ns": 20000000}, "UPDATE": {"count": 1000, "ns": 30000000}}}\n'
)


def test_operation_times_are_shared_out_over_the_threads_and_count_ycsb_s_operations():
    times = parse_operation_times(TIMING_FILE)
    assert times is not None
    assert (times.instances, times.open_ns, times.close_ns, times.window_ns) == (2, 5_000_000, 7_000_000, 90_000_000)
    assert times.count == 2000 and times.busy_ns == 50_000_000
    # 2,000 calls in 50 ms spent by two threads: 25 ms each.
    assert times.per_sec() == pytest.approx(80_000)
    # 1,000 read-modify-writes, each a read and an update: 1,000 YCSB operations.
    assert times.per_sec(1000) == pytest.approx(40_000)
    assert parse_operation_times(TIMING_FILE[:60]) is None  # cut short by a killed JVM
    assert parse_operation_times("") is None


def test_a_real_timing_file_puts_the_pass_on_db_bench_s_clock():
    leveldb = Captured("leveldb")  # fixtures/capture.sh: bin/ycsb with -p nanotimed.file
    times = parse_operation_times((leveldb.directory / "run-readseq-timed.timing.json").read_text())
    output = parse_ycsb_output(leveldb.stdout("run-readseq-timed"))
    assert times is not None and output.readseq is not None and output.runtime_ms is not None
    assert set(times.operations) == {"SCAN"} and times.instances == 1
    passes, ns = times.operations["SCAN"]
    assert passes == output.readseq.passes == output.operations["SCAN"].count
    assert 0 < ns <= times.window_ns and times.open_ns > 0 and times.close_ns > 0
    # Inside YCSB's run time, which also holds the open and the close.
    assert ns / 1e6 <= output.runtime_ms + 1
    columns = inside_columns(output, times)
    assert columns["inside_entries_per_sec"] == pytest.approx(output.readseq.entries / (ns / 1e9))
    assert columns["open_seconds"] == times.open_ns / 1e9
