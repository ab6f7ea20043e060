"""From tidy rows to figures: medians over repeats, failures, variants left out of a quick run."""

from __future__ import annotations

from pathlib import Path

from analysis.results.engine_lines import EngineStats
from analysis.results.results import figures_frame, figures_of
from analysis.results.tidy import LevelOne, level_one
from analysis.running.machine import cpu_model, disk_description, memory_bytes, mount_of, read_ahead_kb


def overall(
    engine: str,
    scenario: str,
    repeat: int,
    throughput: float,
    variant: str = "",
    ok: bool = True,
    measured: bool = True,
) -> dict:
    return {
        "engine": engine,
        "scenario": scenario,
        "variant": variant,
        "repeat": repeat,
        "measured": measured,
        "step_ok": ok,
        "operation": "OVERALL",
        "throughput_ops_per_sec": throughput,
        "runtime_ms": 1000.0,
        "slowest_interval_ops_per_sec": throughput / 2,
    }


def cell(engine: str, scenario: str, status: str = "ok", error: str | None = None) -> dict:
    return {"engine": engine, "scenario": scenario, "status": status, "error": error, "repeats": []}


def test_median_of_repeats():
    rows = [overall("leveldb", "seqwrite", r, v) for r, v in ((1, 100.0), (2, 300.0), (3, 200.0))]
    [figure] = figures_of([cell("leveldb", "seqwrite")], rows)
    assert (figure.value, figure.repeats, figure.status) == (200.0, 3, "ok")
    assert figure.values == [100.0, 300.0, 200.0]
    assert figure.slowest_interval_ops_per_sec == 100.0


def test_unmeasured_steps_and_failed_steps_give_no_figure():
    rows = [
        overall("leveldb", "randread", 1, 999.0, measured=False),  # the load before the reads
        overall("leveldb", "randread", 1, 50.0, ok=False),
    ]
    [figure] = figures_of([cell("leveldb", "randread", "failed", "READ: 3 NOT_FOUND")], rows)
    assert figure.value is None and figure.status == "failed" and figure.error == "READ: 3 NOT_FOUND"


def test_variants_have_their_own_figures_and_mb_per_sec():
    rows = [
        overall("sqlite", "pk-update", 1, 60.0, "one-row-per-txn"),
        overall("sqlite", "pk-update", 1, 600.0, "1000-rows-per-txn"),
    ]
    figures = {f.variant: f for f in figures_of([cell("sqlite", "pk-update")], rows)}
    assert figures["one-row-per-txn"].value == 60.0 and figures["1000-rows-per-txn"].value == 600.0
    assert figures["10000-rows-per-txn"].status == "not run"
    [kv] = figures_of([cell("leveldb", "kv1000")], [overall("leveldb", "kv1000", 1, 10_000.0)])
    assert kv.mb_per_sec == 10_000 * 1008 / 1e6


def test_machine_probes_parse_proc_files():
    assert (
        cpu_model("processor\t: 0\nmodel name\t: Intel(R) Xeon(R) CPU X5650 @ 2.67GHz\n")
        == "Intel(R) Xeon(R) CPU X5650 @ 2.67GHz"
    )
    assert memory_bytes("MemTotal:       24576000 kB\nMemFree: 1 kB\n") == 24576000 * 1024
    mounts = "/dev/vda / ext4 rw 0 0\ntmpfs /tmp tmpfs rw 0 0\n/dev/vdb /data xfs rw 0 0\n"
    assert mount_of(Path("/data/run/x"), mounts) == ("/dev/vdb", "/data", "xfs")
    assert mount_of(Path("/database"), mounts) == ("/dev/vda", "/", "ext4")


def with_close(row: dict, files: str, stops: int | None, l1_bytes: int | None, target: int | None = 10 * 2**20) -> dict:
    return {
        **row,
        "files_per_level": files,
        "stall_stops": stops,
        "stall_slowdowns": 0 if stops is not None else None,
        "stall_seconds": stops / 10 if stops is not None else None,
        "l1_bytes": l1_bytes,
        "l1_target_bytes": target,
        "l1_estimated": stops is not None,
    }


def test_statistics_at_close_are_medians_over_repeats():
    mb = 2**20
    rows = [
        with_close(overall("rocksdb", "kv1000", 1, 7000.0), "4,17,39,0,0,0,0", 45, 34 * mb),
        with_close(overall("rocksdb", "kv1000", 2, 8000.0), "3,2,8,0,0,0,0", 10, 4 * mb),
        with_close(overall("rocksdb", "kv1000", 3, 7500.0), "6,359,148", 60, 718 * mb),
    ]
    [figure] = figures_of([cell("rocksdb", "kv1000")], rows)
    close = figure.close
    assert (close.stall_stops, close.stall_slowdowns, close.stall_seconds) == (45, 0, 4.5)
    assert close.files_per_level == [4, 17, 39, 0, 0, 0, 0]  # level by level, a count that was seen
    assert close.l1_bytes == 34 * mb and close.l1_target_bytes == 10 * mb and close.l1_estimated
    assert close.l1_ratio == 3.4
    record = figures_frame([figure]).iloc[0]
    assert record["files_per_level"] == "4,17,39,0,0,0,0" and record["stall_stops"] == 45
    assert "close" not in record.index


def test_no_statistics_at_close_gives_no_close_figures():
    [figure] = figures_of([cell("sqlite", "seqwrite")], [overall("sqlite", "seqwrite", 1, 40_000.0)])
    assert figure.close is None
    record = figures_frame([figure]).iloc[0]
    assert record["files_per_level"] is None and record["l1_bytes"] is None


def test_level_one_estimate_and_target_from_the_configuration():
    stats = EngineStats(files_per_level=(4, 17, 39, 0, 0, 0, 0))
    static = {
        "rocksdb.targetfilesize": "2m",
        "rocksdb.maxbytesforlevelbase": "10m",
        "rocksdb.dynamiclevelbytes": "false",
    }
    assert level_one("rocksdb", stats, static) == LevelOne(34 * 2**20, 10 * 2**20, estimated=True)
    dynamic = {
        "rocksdb.targetfilesize": "67108864",
        "rocksdb.maxbytesforlevelbase": "268435456",
        "rocksdb.dynamiclevelbytes": "true",
    }
    assert level_one("rocksdb", stats, dynamic) == LevelOne(17 * 64 * 2**20, None, estimated=True)
    assert level_one("rocksdb", stats, {}) is None  # no target file size printed: no estimate
    leveldb = EngineStats(files_per_level=(9, 8, 12, 0, 0, 0, 0), level_bytes=(14 * 2**20, 16 * 2**20, 24 * 2**20))
    assert level_one("leveldb", leveldb, {}) == LevelOne(16 * 2**20, 10 * 2**20, estimated=False)


def test_the_disk_names_its_read_ahead_window(tmp_path):
    # A page fault on a memory-mapped file reads this much: the report's reader needs it to explain
    # LevelDB's read amplification beyond memory (it maps its tables).
    disk = tmp_path / "devices" / "vda"
    (disk / "queue").mkdir(parents=True)
    (disk / "device").mkdir()
    (disk / "queue" / "rotational").write_text("1\n")
    (disk / "queue" / "read_ahead_kb").write_text("8192\n")
    (disk / "device" / "model").write_text("\n")
    (tmp_path / "class" / "block").mkdir(parents=True)
    (tmp_path / "class" / "block" / "vda").symlink_to(disk)
    assert disk_description("/dev/vda", tmp_path) == "vda (rotational or virtual)"
    assert read_ahead_kb("/dev/vda", tmp_path) == 8192
    (disk / "queue" / "read_ahead_kb").unlink()
    assert read_ahead_kb("/dev/vda", tmp_path) is None
    assert read_ahead_kb("/dev/nothing", tmp_path) is None
