"""The engines' statistics at close (RocksDB's stats line, LevelDB's leveldb.stats) on real captured
stderr, and what the results make of them (level 1 against its target)."""

from __future__ import annotations

from analysis.results.engine_lines import EngineStats, parse_engine_stats, parse_size
from analysis.results.tidy import close_columns

from .conftest import Captured

MB = 2**20


def test_sizes_as_the_bindings_print_them():
    assert parse_size("2m") == 2 * MB
    assert parse_size("10m") == 10 * MB
    assert parse_size("4194304") == 4194304
    assert (parse_size("64k"), parse_size("1G")) == (64 * 1024, 2**30)
    assert parse_size("") is None and parse_size("snappy") is None and parse_size(None) is None


def test_only_leveldb_and_rocksdb_print_statistics_at_close(captured):
    stats = parse_engine_stats(captured.stderr("load"), captured.engine)
    assert parse_engine_stats(captured.stderr("failed-badprop"), captured.engine) is None  # never opened
    if captured.engine not in ("leveldb", "rocksdb"):
        assert stats is None
        return
    assert len(stats.files_per_level) == 7


def test_rocksdb_stats_line_of_a_kv1000_fill():
    stderr = Captured("rocksdb").stderr("load-kv1000")
    assert parse_engine_stats(stderr, "rocksdb") == EngineStats(
        files_per_level=(4, 7, 16, 0, 0, 0, 0),
        stall_stops=23,
        stall_slowdowns=0,
        stall_seconds=1.778532,
        flush_bytes=56853362,
        compaction_read_bytes=76824789,
        compaction_write_bytes=76711291,
        user_bytes=102400000,
    )
    # L1's 7 files x rocksdb.targetfilesize = 2m, against rocksdb.maxbytesforlevelbase = 10m.
    columns = close_columns("rocksdb", stderr)
    assert (columns["l1_bytes"], columns["l1_target_bytes"], columns["l1_estimated"]) == (14 * MB, 10 * MB, True)
    assert columns["files_per_level"] == "4,7,16,0,0,0,0" and columns["stall_stops"] == 23


def test_the_registry_says_which_reader_an_engine_s_close_takes():
    """report.closestats picks the reader, which finds the line under the binding's own prefix."""
    from analysis.catalogue.engines import REGISTERED
    from analysis.results.engine_lines import parse_stats_line

    assert {e.name: e.close_stats for e in REGISTERED.engines if e.close_stats} == {
        "leveldb": "table",
        "rocksdb": "line",
    }
    stderr = Captured("rocksdb").stderr("load-kv1000")
    assert parse_engine_stats(stderr, "leveldb-system") is None  # a table reader finds no table in it
    renamed = parse_stats_line(stderr.replace("[rocksdb] ", "[other] ").replace("rocksdb.", "other."), "other")
    assert renamed == parse_engine_stats(stderr, "rocksdb") and renamed.files_per_level == (4, 7, 16, 0, 0, 0, 0)
    assert parse_stats_line(stderr, "other") is None


def test_rocksdb_with_dynamic_level_sizes_has_no_fixed_l1_target():
    # The baseline workloads leave RocksDB 11's defaults: 64 MB files, dynamic level sizes.
    columns = close_columns("rocksdb", Captured("rocksdb").stderr("load"))
    assert columns["files_per_level"] == "1,0,0,0,0,0,0"
    assert (columns["l1_bytes"], columns["l1_target_bytes"]) == (0, None)


def test_leveldb_stats_table_of_a_kv1000_fill():
    stderr = Captured("leveldb").stderr("load-kv1000")
    stats = parse_engine_stats(stderr, "leveldb")
    assert stats.files_per_level == (7, 10, 13, 0, 0, 0, 0)
    assert stats.level_bytes == (11 * MB, 19 * MB, 24 * MB, 0, 0, 0, 0)
    assert stats.compaction_read_bytes == (0 + 60 + 36) * MB
    assert stats.compaction_write_bytes == (51 + 61 + 38) * MB  # flushes (level 0's row) included
    assert stats.stall_stops is None and stats.flush_bytes is None  # LevelDB counts neither
    columns = close_columns("leveldb", stderr)
    assert (columns["l1_bytes"], columns["l1_target_bytes"], columns["l1_estimated"]) == (19 * MB, 10 * MB, False)


def test_leveldb_stats_with_nothing_flushed_yet():
    stats = parse_engine_stats(Captured("leveldb").stderr("load"), "leveldb")  # 2,000 records: all in the memtable
    assert stats.files_per_level == (0,) * 7 and stats.compaction_write_bytes == 0


def test_leveldb_stats_survive_a_status_line_printed_in_between():
    stderr = (
        "[leveldb] leveldb.stats at close:\n"
        "                               Compactions\n"
        "Level  Files Size(MB) Time(sec) Read(MB) Write(MB)\n"
        "--------------------------------------------------\n"
        "  0        6        9         0        0        24\n"
        "2026-11-22 02:23:02:364 1 sec: 50000 operations; 50000 current ops/sec; [INSERT: Count=50000]\n"
        "  2       10       18         0       18        20\n"
        "[leveldb] closed /d in 167.9 ms\n"
        "  5        1        1         0        0         0\n"
    )  # after the table: not its row
    stats = parse_engine_stats(stderr, "leveldb")
    assert stats.files_per_level == (6, 0, 10, 0, 0, 0, 0)
    assert stats.compaction_write_bytes == 44 * MB


def test_an_older_rocksdb_line_without_its_statistics_object_reports_counts_but_no_bytes():
    stderr = (
        "[rocksdb] opened /d in 1.0 ms; effective configuration:\n"
        "  rocksdb.stats = false (set)\n"
        "[rocksdb] stats: stall_stops=3 stall_slowdowns=1 stall_micros=0 flush_bytes=0 compaction_read_bytes=0"
        " compaction_write_bytes=0 bytes_written=0 files_per_level=2,1,0,0,0,0,0\n"
    )
    stats = parse_engine_stats(stderr, "rocksdb")
    assert (stats.stall_stops, stats.stall_slowdowns, stats.files_per_level) == (3, 1, (2, 1, 0, 0, 0, 0, 0))
    assert stats.stall_seconds is None and stats.flush_bytes is None and stats.compaction_write_bytes is None


def test_a_rocksdb_line_from_properties_keeps_its_bytes_without_the_statistics_object():
    stderr = (
        "[rocksdb] opened /d in 1.0 ms; effective configuration:\n"
        "  rocksdb.stats = false (default)\n"
        "[rocksdb] stats: stall_stops=3 stall_slowdowns=1 stall_micros=72002 flush_bytes=3132105"
        " compaction_read_bytes=31366146 compaction_write_bytes=31312459 bytes_written=3084000"
        " files_per_level=2,1,0,0,0,0,0 source=properties\n"
    )
    assert parse_engine_stats(stderr, "rocksdb") == EngineStats(
        files_per_level=(2, 1, 0, 0, 0, 0, 0),
        stall_stops=3,
        stall_slowdowns=1,
        stall_seconds=0.072002,
        flush_bytes=3132105,
        compaction_read_bytes=31366146,
        compaction_write_bytes=31312459,
        user_bytes=3084000,
    )
    # The same line without its source is an older binding's: its zeros-or-not bytes are dropped.
    old = parse_engine_stats(stderr.replace(" source=properties", ""), "rocksdb")
    assert old.flush_bytes is None and old.user_bytes is None and old.stall_seconds is None


def test_a_level_table_is_found_under_whatever_property_the_binding_names():
    """The table reader keys on the binding's prefix and "<property> at close:", not on LevelDB's name."""
    from analysis.results.engine_lines import parse_level_table

    stderr = Captured("leveldb").stderr("load-kv1000")
    ours = parse_level_table(stderr, "leveldb")
    assert ours is not None and sum(ours.files_per_level) > 0
    renamed = stderr.replace("[leveldb] leveldb.stats at close:", "[other] other.levels at close:")
    assert parse_level_table(renamed, "other") == ours
    assert parse_level_table(renamed, "leveldb") is None
    assert parse_level_table(stderr.replace(" at close:", " at open:"), "leveldb") is None


def test_the_tests_layout_note_takes_each_engine_s_words_from_the_registry(monkeypatch):
    """Stats-line engines' words come before table engines'; the background-writes remark only when one says it."""
    from analysis.catalogue.engines import Engine, Registry
    from analysis.report import tables

    def engine(name, kind, levels, writes=""):
        return Engine(name, name.upper(), name, close_stats=kind, close_stats_levels=levels, close_stats_writes=writes)

    table, line = engine("t", "table", "for T its table", "t counts flushes"), engine("l", "line", "for L x")
    registry = Registry({}, (table, line))
    monkeypatch.setattr(tables, "REGISTERED", registry)
    note = tables._tests_layout_note()
    assert "its target: for L x, for T its table. Background writes: what flushes and compactions wrote " in note
    assert note.endswith("(t counts flushes). Medians over repeats.")
    monkeypatch.setattr(tables, "REGISTERED", Registry({}, (engine("l", "line", "for L x"),)))
    assert "compactions wrote. Medians" in tables._tests_layout_note()
    assert "leveldb.stats counts flushes with compactions" in tables.TESTS_LAYOUT_NOTE  # the registry's own
