from __future__ import annotations

import io

from analysis.progress import ProgressBar, estimate_remaining, format_duration, format_progress


def test_durations():
    assert format_duration(None) == "--:--"
    assert format_duration(65) == "1:05"
    assert format_duration(3725) == "1:02:05"


def test_eta_follows_the_pace_so_far():
    assert estimate_remaining(0.0, 10) is None
    assert estimate_remaining(0.25, 30) == 90
    assert estimate_remaining(1.0, 30) == 0


def test_progress_line():
    line = format_progress(0.5, 3, 6, "leveldb/seqwrite load seqwrite", 60)
    assert line.startswith("[############............]  50% 3/6 cells")
    assert "elapsed 1:00" in line and "ETA 1:00" in line and line.endswith("leveldb/seqwrite load seqwrite")


def test_a_log_gets_one_line_per_cell():
    stream = io.StringIO()
    clock = iter(range(100)).__next__
    bar = ProgressBar(10.0, 2, stream, clock=lambda: float(clock()))
    bar.update(0, 0.0, "leveldb/a", "load")
    bar.update(0, 2.0, "leveldb/a", "run")
    bar.update(1, 5.0, "leveldb/b", "load")
    bar.message("FAILED leveldb/b: boom")
    bar.finish(2)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 4 and lines[2] == "FAILED leveldb/b: boom"
    assert "100% 2/2 cells" in lines[-1]
