"""Verdicts that know their noise with one run: the run repeats a cell of each kind of step, and a finding
decided by a margin inside that spread is too close to call, in the Findings table and the summary alike."""

from __future__ import annotations

from dataclasses import replace

from analysis.catalogue.scenarios import SCENARIOS_BY_ID
from analysis.report.findings import NOT_REPRODUCED, REPRODUCED, TOO_CLOSE, evaluate_finding
from analysis.report.reference import load_findings
from analysis.report.render import to_markdown
from analysis.report.report import build_report
from analysis.results.noise import NO_NOISE, kind_of, measure_noise, probe_cells
from analysis.results.results import Figure

from .test_report import constructed_run

FINDINGS = {f.id: f for f in load_findings()}


def figure(engine: str, scenario: str, *runs: float) -> Figure:
    s = SCENARIOS_BY_ID[scenario]
    values = list(runs)
    median = sorted(values)[len(values) // 2]
    return Figure(engine, scenario, "", s.section, s.metric, s.unit, median, len(values), values, status="ok")


def test_each_scenario_s_measured_step_has_a_kind():
    assert [kind_of(s) for s in ("seqwrite", "kv1000", "randread", "seqread", "workloada", "workloade")] == [
        "load",
        "load",
        "read",
        "scan",
        "write",
        "scan",
    ]
    assert kind_of("pk-update", "1000-rows-per-txn") == "write" and kind_of("no-such-scenario") is None


def test_the_run_repeats_one_cheap_cell_per_kind_on_its_first_engine():
    scenarios = [SCENARIOS_BY_ID[s] for s in ("seqwrite", "randread", "pk-query-threads", "kv1000")]
    rows = ["leveldb", "kyoto", "sqlite"]
    assert probe_cells(rows, scenarios, dict.fromkeys(["seqwrite", "randread"], 1)) == {
        ("leveldb", "seqwrite"): 3,
        ("leveldb", "randread"): 3,
    }
    # A scenario already repeated (--full, --repeat 3) measures its own spread: no probe added.
    assert probe_cells(rows, scenarios, {"seqwrite": 3, "randread": 3}) == {}
    assert probe_cells(["sqlite"], scenarios, {}) == {("sqlite", "seqwrite"): 3, ("sqlite", "randread"): 3}


# The case this guards against: one run per figure, F4 called "reproduced" on a margin of 0.7 %.
F4_ONE_RUN = {
    "kyoto": figure("kyoto", "randread", 100_700.0),
    "leveldb": figure("leveldb", "randread", 100_000.0),
    "sqlite": figure("sqlite", "randread", 60_000.0),
}
PROBE = figure("leveldb", "randread", 98_000.0, 100_000.0, 104_000.0)  # spread 6 %


def _judge(figures: dict[str, Figure], noise=NO_NOISE):
    keyed = {(f.engine, f.scenario, f.variant): f for f in figures.values()}
    values = {k: f.value for k, f in keyed.items() if f.value is not None}
    return evaluate_finding(FINDINGS["F4"], values, None, keyed, noise=noise)


def test_a_margin_inside_the_measured_spread_is_too_close_to_call_with_one_run():
    assert _judge(F4_ONE_RUN).status == REPRODUCED  # before: no spread known, the 0.7 % margin decided
    figures = {**F4_ONE_RUN, "leveldb": PROBE}
    noise = measure_noise(figures.values())
    assert noise.bands["read"].spread == 0.06 and set(noise.bands) == {"read"}
    result = _judge(figures, noise)
    assert result.status == TOO_CLOSE
    assert result.evidence.startswith("too close to call on this machine (margin 0.7 %, spread 6.0 %)")
    assert (
        "Kyoto TreeDB one run, judged by this machine's run-to-run spread for a read step, 6.0 % "
        "(LevelDB 1.13 (leveldbjni) randread, 3 runs)"
    ) in result.evidence
    # The same band with a margin outside it decides.
    clear = {**figures, "kyoto": figure("kyoto", "randread", 120_000.0)}
    assert _judge(clear, noise).status == REPRODUCED


def test_a_band_of_another_kind_does_not_judge_a_read():
    load_probe = figure("leveldb", "seqwrite", 90.0, 100.0, 110.0)
    noise = measure_noise([load_probe])
    assert set(noise.bands) == {"load"}
    assert _judge(F4_ONE_RUN, noise).status == REPRODUCED


def test_the_summary_counts_the_findings_the_table_calls_too_close(tmp_path):
    run = constructed_run(tmp_path)
    figures = [f for f in run.figures if f.scenario != "randread"]
    run = replace(run, figures=figures + [F4_ONE_RUN["kyoto"], PROBE, F4_ONE_RUN["sqlite"]])
    markdown = to_markdown(build_report(run, tmp_path))
    assert "**Published findings**: 2 reproduced (F1, F2); 0 not reproduced; 1 too close to call (F4);" in markdown
    assert "Each published finding checked against this run: 2 reproduced, 0 not reproduced, 1 too close" in markdown
    assert "| F4 | Kyoto TreeDB has the fastest random reads (leveldb-benchmarks-2011) | **too close to call** |" in (
        markdown
    )
    # The summary and a section of its own say how the spread was measured.
    assert "repeated a cell of each kind of step to measure this machine's run-to-run spread: read 6.0 %" in markdown
    assert "## Run-to-run spread" in markdown
    assert "| read | 6.0 % | LevelDB 1.13 (leveldbjni) randread: 98,000, 100,000, 104,000 ops/sec |" in markdown
    assert "| scan | — | not measured (no repeated figure of this kind) |" in markdown


def _judge_f6(sqlite_random_gain: float) -> tuple[str, str]:
    """F6 on one-run figures but for LevelDB's seqwrite, repeated (a load step's spread of 10 %)."""
    figures = [
        figure("leveldb", "seqwrite", 95_000.0, 100_000.0, 105_000.0),
        figure("leveldb", "batch-seqwrite", 110_000.0),
        figure("leveldb", "randwrite", 50_000.0),
        figure("leveldb", "batch-randwrite", 100_000.0),  # LevelDB's random gain: 2.00x
        figure("sqlite", "seqwrite", 10_000.0),
        figure("sqlite", "batch-seqwrite", 25_000.0),  # 2.50x against LevelDB's 1.10x: far outside the spread
        figure("sqlite", "randwrite", 10_000.0),
        figure("sqlite", "batch-randwrite", 10_000.0 * sqlite_random_gain),
    ]
    keyed = {(f.engine, f.scenario, f.variant): f for f in figures}
    values = {k: f.value for k, f in keyed.items() if f.value is not None}
    result = evaluate_finding(FINDINGS["F6"], values, None, keyed, noise=measure_noise(figures))
    return result.status, result.evidence


def test_batching_gains_within_the_spread_are_too_close_to_call():
    # Random: SQLite's 2.20x against LevelDB's 2.00x, a 10 % margin inside the 20 % a gain can move (10 % + 10 %).
    status, evidence = _judge_f6(2.2)
    assert status == TOO_CLOSE, evidence
    assert evidence.startswith("too close to call on this machine (random: margin 10.0 %, spread 20.0 %;"), evidence
    assert "sequential: SQLite3 2.50x, LevelDB 1.13 (leveldbjni) 1.10x of unbatched" in evidence
    assert _judge_f6(3.0)[0] == REPRODUCED  # a 50 % margin decides
    assert _judge_f6(1.0)[0] == NOT_REPRODUCED  # LevelDB's gain twice SQLite's: outside the spread, against
