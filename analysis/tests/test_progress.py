from __future__ import annotations

import io
import time

from analysis.running.progress import ProgressBar, estimate_remaining, format_duration, format_progress


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
    bar = ProgressBar(10.0, 2, stream, clock=lambda: float(clock()), ticking=False)
    bar.update(0, 0.0, "leveldb/a", "load")
    bar.update(0, 2.0, "leveldb/a", "run")
    bar.update(1, 5.0, "leveldb/b", "load")
    bar.message("FAILED leveldb/b: boom")
    bar.finish(2)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 4 and lines[2] == "FAILED leveldb/b: boom"
    assert "100% 2/2 cells" in lines[-1]


def test_a_log_gets_a_line_at_least_every_30_seconds_of_a_long_step():
    """Off a terminal the bar printed only when a cell ended: a step of many minutes left the log silent."""
    stream = io.StringIO()
    now = [0.0]
    bar = ProgressBar(10.0, 2, stream, clock=lambda: now[0], ticking=False)
    bar.update(0, 0.0, "kyoto/workloada", "load workloada")
    for now[0] in (10.0, 29.0, 31.0, 45.0, 60.0, 61.5):
        bar.tick()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3, lines
    assert "elapsed 0:31" in lines[1] and lines[1].endswith("kyoto/workloada load workloada (still running)")
    assert "elapsed 1:02" in lines[2]
    bar.finish(2)


def test_the_heartbeat_ticks_on_its_own_until_the_bar_is_closed():
    stream = io.StringIO()
    bar = ProgressBar(10.0, 1, stream, heartbeat=0.02)
    bar.update(0, 0.0, "lmdb/seqread", "run seqread")
    deadline = time.monotonic() + 10
    while stream.getvalue().count("(still running)") < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    bar.finish(1)
    printed = stream.getvalue().count("\n")
    time.sleep(0.1)
    assert stream.getvalue().count("(still running)") >= 2
    assert stream.getvalue().count("\n") == printed, "nothing after the bar finished"
