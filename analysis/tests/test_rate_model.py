"""The rate sweep's model (analysis/rate.py): the SLA's syntax, a step's intended and service latencies from
YCSB's lines and of all its operations from their HdrHistogram logs merged, a step that could not hold its rate,
the rates asked of each client, and the capacity search on a known latency curve."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.results.parse import parse_measurement_lines
from analysis.results.rate import (
    DRIVER_RATE_DIGITS,
    FRACTIONS,
    WHOLE_RATES,
    RateStep,
    Sla,
    Sweep,
    achieved_rate,
    asked_rate,
    capacity,
    next_probe,
    parse_sla,
    passes,
    rate_text,
    search,
    step_latencies,
    sweep_of,
    sweep_rates,
)
from analysis.running.plan import RunOptions
from analysis.running.rate_cell import overall_latencies, rate_digits, rate_variant

from .conftest import REPO
from .test_scale import write_log

FLAT_OUT = 100_000.0


def test_an_sla_names_a_percentile_a_bound_with_its_unit_and_maybe_an_operation() -> None:
    assert parse_sla("p99=2ms") == Sla(99.0, 2000.0, None)
    assert parse_sla("p99.9=500us") == Sla(99.9, 500.0, None)
    assert parse_sla("read:p50=1.5ms") == Sla(50.0, 1500.0, "READ")
    assert parse_sla("p99=2ms").text == "p99=2ms" and parse_sla("READ:p99.9=500us").text == "READ:p99.9=500us"
    for bad in ("p99=2", "99=2ms", "p100=2ms", "p99=0ms", "p99<2ms"):
        with pytest.raises(ValueError, match="--sla"):
            parse_sla(bad)


YCSB_LINES = """\
[OVERALL], Throughput(ops/sec), 4999.2
[READ], Operations, 5000
[READ], MaxLatency(us), 20123
[READ], 50thPercentileLatency(us), 3
[READ], 99thPercentileLatency(us), 9
[READ], 99.9PercentileLatency(us), 20000
[READ], Return=OK, 5000
[READ-FAILED], 99thPercentileLatency(us), 77
[READ-MODIFY-WRITE], 99thPercentileLatency(us), 15
[Intended-READ], MaxLatency(us), 20200
[Intended-READ], 50thPercentileLatency(us), 4
[Intended-READ], 99thPercentileLatency(us), 19000
[Intended-READ], 99.9PercentileLatency(us), 20100
[Intended-READ-MODIFY-WRITE], 99thPercentileLatency(us), 18000
[CLEANUP], 99thPercentileLatency(us), 1000
"""


def test_a_steps_intended_and_service_latencies_come_from_ycsbs_both_mode_lines() -> None:
    intended, service = step_latencies(parse_measurement_lines(YCSB_LINES))
    assert service == {
        "READ": {"max": 20123, "p50": 3, "p99": 9, "p99.9": 20000},
        "READ-MODIFY-WRITE": {"p99": 15},
    }
    assert intended == {
        "READ": {"max": 20200, "p50": 4, "p99": 19000, "p99.9": 20100},
        "READ-MODIFY-WRITE": {"p99": 18000},
    }
    step = RateStep("sweep", 5000, 4999.2, intended, service)
    assert step.latency(parse_sla("p99=1ms")) == 19000  # without the logs merged: the slowest operation's
    assert step.latency(parse_sla("read-modify-write:p99=1ms")) == 18000
    # READ-MODIFY-WRITE is a read and an update, measured as READ and UPDATE too: all operations leave it out
    assert step.latency("p99", intended=False) == 9
    assert step.latency(parse_sla("read-modify-write:p99=1ms"), intended=False) == 15  # still its own


def test_the_achieved_rate_leaves_the_close_out_of_the_steps_time() -> None:
    lines = (
        "[OVERALL], RunTime(ms), 1033\n[OVERALL], Throughput(ops/sec), 146818.97\n[CLEANUP], MaxLatency(us), 19784\n"
    )
    assert achieved_rate(parse_measurement_lines(lines)) == pytest.approx(151_664 / 1.013216, rel=1e-4)
    assert achieved_rate(parse_measurement_lines(lines.rsplit("[CLEANUP]", 1)[0])) == pytest.approx(146_818.97)
    assert (
        achieved_rate(parse_measurement_lines("[OVERALL], RunTime(ms), 0\n[OVERALL], Throughput(ops/sec), NaN")) is None
    )


def test_a_step_that_could_not_hold_its_rate_is_marked_and_never_meets_a_bound() -> None:
    fast = {"READ": {"p99": 100.0}}
    held = RateStep("sweep", 10_000, 9_900, fast, fast)
    short = RateStep("sweep", 10_000, 9_000, fast, fast)
    assert held.held and not short.held
    sla = parse_sla("p99=2ms")
    assert passes(held, sla) and not passes(short, sla)
    assert not RateStep("sweep", 10_000, None, problem="above the harness's ceiling").held


KNEE = 0.62 * FLAT_OUT  # the rate past which the synthetic engine queues


def synthetic(rate: float) -> RateStep:
    """An engine whose p99 is 300 us up to the knee and grows 1 ms per 1 % of flat out beyond it; above flat out
    it cannot keep up. Service time stays flat: only the intended time sees the queue."""
    p99 = 300.0 + max(0.0, rate - KNEE) / (0.01 * FLAT_OUT) * 1000.0
    achieved = min(rate, FLAT_OUT) * 0.999
    return RateStep("sweep", rate, achieved, {"READ": {"p99": p99}}, {"READ": {"p99": 300.0}}, rate / FLAT_OUT)


def test_the_capacity_search_finds_the_knee_of_a_known_curve_within_one_sweep_step() -> None:
    sla = parse_sla("p99=2ms")  # met up to KNEE + 1.7 % of flat out
    steps = [RateStep("flat", None, FLAT_OUT, {}, {})]
    steps += [synthetic(rate) for _, rate in sweep_rates(FLAT_OUT)]
    before = capacity(steps, sla)
    assert (before.passed, before.failed) == (50_000, 75_000)  # the sweep's own neighbours
    probes: list[float] = []

    def run(rate: float) -> RateStep:
        probes.append(rate)
        return synthetic(rate)

    found = search(steps, sla, resolution=0.025 * FLAT_OUT, run=run)
    true_capacity = KNEE + 0.017 * FLAT_OUT
    step = min(b - a for a, b in zip(FRACTIONS, FRACTIONS[1:], strict=False)) * FLAT_OUT
    assert found.rate is not None and found.failed is not None
    assert found.rate <= true_capacity < found.failed  # the neighbours bracket it
    assert true_capacity - found.rate < step  # within one sweep step, indeed within the resolution
    assert found.failed - found.rate <= 0.025 * FLAT_OUT
    assert probes == [62_500, 68_750, 65_625, 64_062]
    assert found.share == pytest.approx(found.rate / FLAT_OUT)


def test_a_bound_met_everywhere_or_nowhere_says_so() -> None:
    steps = [RateStep("flat", None, FLAT_OUT)] + [synthetic(rate) for _, rate in sweep_rates(FLAT_OUT)]
    everywhere = search(steps, parse_sla("p99=1s"), 2500, synthetic)
    # met wherever the rate was held: up to flat out, the 110 % step could not hold its rate
    assert everywhere.rate is not None and everywhere.failed is not None
    assert FLAT_OUT <= everywhere.rate < everywhere.failed <= 1.1 * FLAT_OUT
    assert everywhere.failed - everywhere.rate <= 2500
    nowhere = search(list(steps), parse_sla("p99=100us"), 2500, synthetic)
    assert nowhere.rate is None and nowhere.passed is None and nowhere.failed is not None
    assert nowhere.failed <= 2500  # searched down to the resolution


def test_a_sweep_round_trips_through_its_json_record() -> None:
    sweep = Sweep("lmdb", "workloadc", 1, [synthetic(1000)], [capacity([synthetic(1000)], parse_sla("p99=2ms"))])
    again = sweep_of(sweep.to_json())
    assert again == sweep


def test_a_bound_without_an_operation_is_on_all_operations_merged_not_the_slowest(tmp_path: Path) -> None:
    # 995 reads at 100 us and 5 updates at 5 ms: the updates' own p99 is 5 ms, but they are half a percent of all
    # requests, so the p99 of all of them together is a read's; workload F's read-modify-writes (their read and
    # update are in READ and UPDATE already), failed reads and the close are not requests of their own.
    stem = "03-run-workloada-sweep-1000"
    write_log(tmp_path / f"{stem}.Intended-READ.hdr", [(1.0, [100] * 500), (2.0, [100] * 495)])
    write_log(tmp_path / f"{stem}.Intended-UPDATE.hdr", [(1.0, [5000] * 3), (2.0, [5000] * 2)])
    write_log(tmp_path / f"{stem}.READ.hdr", [(1.0, [80] * 500), (2.0, [80] * 495)])
    write_log(tmp_path / f"{stem}.UPDATE.hdr", [(1.0, [90] * 5)])
    for other in ("Intended-READ-MODIFY-WRITE", "Intended-READ-FAILED", "Intended-CLEANUP", "CLEANUP"):
        write_log(tmp_path / f"{stem}.{other}.hdr", [(1.0, [900_000] * 50)])
    intended = {"READ": {"p99": 100.0, "max": 120.0}, "UPDATE": {"p99": 5000.0, "max": 5003.0}}
    intended["READ-MODIFY-WRITE"] = {"p99": 900_000.0, "max": 900_000.0}
    service = {"READ": {"p99": 80.0, "max": 85.0}, "UPDATE": {"p99": 90.0, "max": 95.0}}
    quantiles = [50.0, 99.0, 99.9]
    merged_intended = overall_latencies(tmp_path, stem, quantiles, intended, intended=True)
    merged_service = overall_latencies(tmp_path, stem, quantiles, service, intended=False)
    assert merged_intended["p50"] == pytest.approx(100, rel=1e-3) and merged_intended["p99"] == pytest.approx(
        100, rel=1e-3
    )
    assert merged_intended["p99.9"] == pytest.approx(5000, rel=1e-3) and merged_intended["max"] == 5003.0
    assert merged_service["p99"] == pytest.approx(80, rel=1e-3) and merged_service["max"] == 95.0

    sla = parse_sla("p99=2ms")
    step = RateStep("sweep", 1000, 999.0, intended, service, overall_intended=merged_intended)
    step.overall_service = merged_service
    assert step.merged and step.latency(sla) == merged_intended["p99"] and passes(step, sla)
    assert step.latency("p99", intended=False) == merged_service["p99"]
    assert step.latency(parse_sla("UPDATE:p99=2ms")) == 5000.0 and not passes(step, parse_sla("UPDATE:p99=2ms"))
    # The same step without its logs: the slowest operation's p99 (READ-MODIFY-WRITE aside), over the bound.
    unmerged = RateStep("sweep", 1000, 999.0, intended, service)
    assert not unmerged.merged and unmerged.latency(sla) == 5000.0 and not passes(unmerged, sla)
    assert sweep_of(Sweep("lmdb", "workloada", 1, [step]).to_json()).steps == [step]  # kept in rate.json
    assert overall_latencies(tmp_path, "no-such-step", quantiles, intended, intended=True) == {}


def test_rates_are_asked_whole_of_ycsbs_client_and_to_a_tenth_of_the_driver() -> None:
    assert sweep_rates(12_345.67, (0.1, 0.5)) == [(0.1, 1235), (0.5, 6173)]
    assert sweep_rates(12_345.67, (0.1, 0.5), DRIVER_RATE_DIGITS) == [(0.1, 1234.6), (0.5, 6172.8)]
    assert asked_rate(0.3, WHOLE_RATES) == 1 and asked_rate(0.3, DRIVER_RATE_DIGITS) == 1.0  # at least 1 a second
    assert asked_rate(17.25, DRIVER_RATE_DIGITS) == 17.2  # to a tenth
    assert rate_text(1500) == "1500" and rate_text(1500.0) == "1500" and rate_text(1500.5) == "1500.5"
    assert rate_text(1_500_000.5, grouped=True) == "1,500,000.5" and rate_text(1500, grouped=True) == "1,500"
    assert rate_variant("sweep", 1500) == "sweep-1500" and rate_variant("search", 62.5) == "search-62.5"
    # The search between a passing 10 and a failing 15 operations a second: whole numbers stop a step sooner.
    slow = [
        RateStep("sweep", rate, rate, {"READ": {"p99": 100.0 if rate <= 12.2 else 9000.0}}, {}) for rate in (10, 15)
    ]
    sla = parse_sla("p99=1ms")
    assert next_probe(slow, sla, resolution=0.1) == 12  # round(12.5): to even
    assert next_probe(slow, sla, resolution=0.1, digits=DRIVER_RATE_DIGITS) == 12.5
    probes: list[float] = []

    def run(rate: float) -> RateStep:
        probes.append(rate)
        return RateStep("search", rate, rate, {"READ": {"p99": 100.0 if rate <= 12.2 else 9000.0}}, {})

    found = search(list(slow), sla, resolution=0.1, run=run, digits=DRIVER_RATE_DIGITS)
    assert probes == [12.5, 11.2, 11.8, 12.2, 12.3] or probes[:2] == [12.5, 11.2], probes
    assert found.rate == 12.2 and found.failed == 12.3
    whole = search(list(slow), sla, resolution=0.1, run=run)
    assert whole.rate == 12 and whole.failed == 13


def test_the_rate_command_asks_a_tenth_of_the_driver_and_whole_rates_of_ycsbs_client(monkeypatch, tmp_path) -> None:
    options = RunOptions(repo=REPO, out=tmp_path, workloads=REPO / "workloads", data=tmp_path / "data")
    monkeypatch.setenv("YCSB_CLIENT", "driver")
    assert rate_digits(options, "lmdb") == DRIVER_RATE_DIGITS
    monkeypatch.setenv("YCSB_CLIENT", "upstream")
    assert rate_digits(options, "lmdb") == WHOLE_RATES
