"""What a workload class says of its stream: TraceWorkload's `[TRACE]` and MixGraphWorkload's `[MIXGRAPH]` lines,
parsed from lines a real run printed (fixtures/workload-lines), the expectation of a trace step, and the report's
tables made of them."""

from __future__ import annotations

from analysis.report.report_own import mixgraph_rows, trace_rows, value_size_panel
from analysis.results.parse import Expectation, traced_expectation
from analysis.results.workload_lines import (
    MIXGRAPH_PREFIX,
    TRACE_PREFIX,
    last_line,
    parse_mixgraph_line,
    parse_trace_line,
    workload_summary_line,
)

from .conftest import FIXTURES

LINES = FIXTURES / "workload-lines"


def _phases(name: str, prefix: str) -> tuple[str, str]:
    lines = [line for line in (LINES / name).read_text().splitlines() if line.startswith(prefix)]
    assert len(lines) == 2, lines
    return lines[0], lines[1]


def test_a_trace_line_gives_what_the_trace_was() -> None:
    load_line, run_line = _phases("trace.err", TRACE_PREFIX)
    run = parse_trace_line(run_line)
    assert run is not None
    assert (run.phase, run.format, run.lines, run.malformed, run.distinct_keys, run.span_s) == (
        "run",
        "twitter",
        10,
        0,
        5,
        9.0,
    )
    assert run.mix == {"delete": 1, "insert": 3, "read": 3, "update": 3}
    assert run.trace_ops == {
        "add": 1,
        "append": 1,
        "delete": 1,
        "get": 2,
        "gets": 1,
        "incr": 1,
        "replace": 1,
        "set": 2,
    }
    assert (run.loaded, run.replayed, run.updates_inserted) == (0, 10, 0)
    assert run.keysize == {"min": 20, "p50": 20, "p90": 21, "p99": 22, "max": 22, "mean": 20.3}
    assert run.valuesize["p50"] == 100 and run.valuesize["max"] == 300 and run.valuesize["mean"] == 111.8
    load = parse_trace_line(load_line)
    assert load is not None and (load.phase, load.loaded, load.replayed) == ("load", 2, 0)
    assert parse_trace_line(run_line.replace("[TRACE]", "[MIXGRAPH]")) is None
    assert parse_trace_line("[trace] ten.csv, format twitter") is None


def test_a_trace_line_with_no_operations_reads_its_empty_blocks() -> None:
    line = (
        "[TRACE] phase=load, format=kvtrace, lines=0, malformed=3, distinct_keys~=0, span_s=0.000, mix=none, "
        "trace_ops=none, loaded=0, replayed=0, updates_inserted=0, seen_filter_fp~=0.0000, keysize=none, valuesize=none"
    )
    empty = parse_trace_line(line)
    assert empty is not None and (empty.lines, empty.malformed, empty.mix, empty.keysize) == (0, 3, {}, {})


def test_a_mixgraph_line_gives_the_generated_stream_beside_the_model() -> None:
    load_line, run_line = _phases("mixgraph.err", MIXGRAPH_PREFIX)
    run = parse_mixgraph_line(run_line)
    assert run is not None and (run.phase, run.ops) == ("run", 2000)
    assert run.mix == {"get": 0.841, "put": 0.149, "seek": 0.01}
    assert run.model_mix == {"get": 0.85, "put": 0.14, "seek": 0.01}
    assert run.valuesize == {"p10": 3, "p50": 20, "p90": 80, "p99": 214, "n": 298}
    assert run.model_valuesize == {"p10": 3, "p50": 20, "p90": 81, "p99": 228}
    assert run.scanlength["n"] == 20 and run.model_scanlength["p99"] == 10000
    assert len(run.keyrange_share) == len(run.model_keyrange_share) == 30
    assert run.model_keyrange_share[:2] == (0.7913, 0.0561) and run.keyrange_share[0] == 0.795
    assert abs(sum(run.keyrange_share) - 1) < 0.01
    load = parse_mixgraph_line(load_line)
    assert load is not None and load.ops == 0 and load.valuesize["n"] == 2000 and load.scanlength == {}
    assert parse_mixgraph_line(run_line.replace("[MIXGRAPH]", "[TRACE]")) is None


def test_the_step_line_is_the_last_of_its_kind_on_stderr() -> None:
    text = (LINES / "trace.err").read_text()
    assert last_line(text, TRACE_PREFIX) == _phases("trace.err", TRACE_PREFIX)[1]
    assert workload_summary_line(text) == last_line(text, TRACE_PREFIX)
    assert workload_summary_line("[lmdb] opened\n") is None


def test_a_trace_step_expects_what_its_line_says_never_more_than_its_count() -> None:
    load_line, run_line = _phases("trace.err", TRACE_PREFIX)
    capped = Expectation(10_000, traced=True)
    assert traced_expectation(capped, "load", load_line) == (Expectation(2, traced=True), [])
    assert traced_expectation(capped, "run", run_line) == (Expectation(10, traced=True), [])
    over, problems = traced_expectation(Expectation(6, traced=True), "run", run_line)
    assert over.operations == 10 and problems == ["the trace replay did 10 operations, more than the step's 6"]
    assert traced_expectation(capped, "run", "[lmdb] closed")[1] == [
        "no [TRACE] line on stderr: the trace replay did not say what it read"
    ]


def test_the_report_rows_say_what_the_trace_and_the_model_were() -> None:
    load_line, run_line = _phases("trace.err", TRACE_PREFIX)
    rows = dict(trace_rows(parse_trace_line(load_line), parse_trace_line(run_line)))
    assert rows["Lines replayed"] == "10 (0 malformed, skipped)"
    assert rows["Mix (what the lines became)"] == "insert 3, read 3, update 3, delete 1"
    assert rows["Distinct keys (HyperLogLog estimate)"] == "~5"
    assert rows["Keys the load inserted (read before written)"] == "2"
    mg_load, mg_run = _phases("mixgraph.err", MIXGRAPH_PREFIX)
    table = {
        what: (model, generated)
        for what, model, generated in mixgraph_rows(parse_mixgraph_line(mg_load), parse_mixgraph_line(mg_run))
    }
    assert table["Share of get"] == ("85.0 %", "84.1 %")
    assert table["Value size p10 / p50 / p90 / p99, puts"] == ("3 / 20 / 81 / 228", "3 / 20 / 80 / 214 (298 puts)")
    assert table["Value size p10 / p50 / p90 / p99, loaded"][1] == "3 / 19 / 81 / 232 (2,000 values)"
    assert table["Share of requests, hottest key range"] == ("79.1 %", "79.5 %")


def test_the_value_size_chart_sets_the_model_beside_the_generated_quantiles() -> None:
    load, run = (parse_mixgraph_line(line) for line in _phases("mixgraph.err", MIXGRAPH_PREFIX))
    panel = value_size_panel(load, run, "LMDB")
    assert panel is not None and panel.categories == ["p10", "p50", "p90", "p99"]
    assert [(s.name, s.values, s.published) for s in panel.series] == [
        ("model (FAST 2020)", [3, 20, 81, 228], True),
        ("loaded values, LMDB", [3, 19, 81, 232], False),
        ("puts, LMDB", [3, 20, 80, 214], False),
    ]
    assert value_size_panel(None, None, "LMDB") is None
