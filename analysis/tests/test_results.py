"""From tidy rows to figures: medians over repeats, failures, variants left out of a quick run."""

from __future__ import annotations

from pathlib import Path

from analysis.machine import cpu_model, memory_bytes, mount_of
from analysis.results import figures_of


def overall(engine: str, scenario: str, repeat: int, throughput: float, variant: str = "", ok: bool = True,
            measured: bool = True) -> dict:
    return {"engine": engine, "scenario": scenario, "variant": variant, "repeat": repeat, "measured": measured,
            "step_ok": ok, "operation": "OVERALL", "throughput_ops_per_sec": throughput, "runtime_ms": 1000.0,
            "slowest_interval_ops_per_sec": throughput / 2}


def cell(engine: str, scenario: str, status: str = "ok", error: str | None = None) -> dict:
    return {"engine": engine, "scenario": scenario, "status": status, "error": error, "repeats": []}


def test_median_of_repeats():
    rows = [overall("leveldb", "seqwrite", r, v) for r, v in ((1, 100.0), (2, 300.0), (3, 200.0))]
    [figure] = figures_of([cell("leveldb", "seqwrite")], rows)
    assert (figure.value, figure.repeats, figure.status) == (200.0, 3, "ok")
    assert figure.values == [100.0, 300.0, 200.0]
    assert figure.slowest_interval_ops_per_sec == 100.0


def test_unmeasured_steps_and_failed_steps_give_no_figure():
    rows = [overall("leveldb", "randread", 1, 999.0, measured=False),   # the load before the reads
            overall("leveldb", "randread", 1, 50.0, ok=False)]
    [figure] = figures_of([cell("leveldb", "randread", "failed", "READ: 3 NOT_FOUND")], rows)
    assert figure.value is None and figure.status == "failed" and figure.error == "READ: 3 NOT_FOUND"


def test_variants_have_their_own_figures_and_mb_per_sec():
    rows = [overall("sqlite", "pk-update", 1, 60.0, "one-row-per-txn"),
            overall("sqlite", "pk-update", 1, 600.0, "1000-rows-per-txn")]
    figures = {f.variant: f for f in figures_of([cell("sqlite", "pk-update")], rows)}
    assert figures["one-row-per-txn"].value == 60.0 and figures["1000-rows-per-txn"].value == 600.0
    assert figures["10000-rows-per-txn"].status == "not run"
    [kv] = figures_of([cell("leveldb", "kv1000")], [overall("leveldb", "kv1000", 1, 10_000.0)])
    assert kv.mb_per_sec == 10_000 * 1008 / 1e6


def test_machine_probes_parse_proc_files():
    assert cpu_model("processor\t: 0\nmodel name\t: Intel(R) Xeon(R) CPU X5650 @ 2.67GHz\n") \
        == "Intel(R) Xeon(R) CPU X5650 @ 2.67GHz"
    assert memory_bytes("MemTotal:       24576000 kB\nMemFree: 1 kB\n") == 24576000 * 1024
    mounts = "/dev/vda / ext4 rw 0 0\ntmpfs /tmp tmpfs rw 0 0\n/dev/vdb /data xfs rw 0 0\n"
    assert mount_of(Path("/data/run/x"), mounts) == ("/dev/vdb", "/data", "xfs")
    assert mount_of(Path("/database"), mounts) == ("/dev/vda", "/", "ext4")
