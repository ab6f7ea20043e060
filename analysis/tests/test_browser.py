"""The HTML report in a real browser (Debian's chromium, headless): it fits a 1280-pixel window without
scrolling sideways, whatever its tables hold. scripts/setup.sh installs chromium; without it this fails."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from analysis.render import Block, Heading, Paragraph, Table, to_html

WINDOW = (1280, 900)
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    f"--window-size={WINDOW[0]},{WINDOW[1]}",
]


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail("chromium is not installed: scripts/setup.sh installs it (apt-get install chromium)")
    return path


def page_widths(html_file: Path, profile: Path) -> tuple[int, int]:
    """(document scroll width, window inner width) of a page as chromium lays it out."""
    page = html_file.read_text()
    probe = (
        "<script>window.addEventListener('load', () => { document.body.setAttribute('data-widths', "
        "document.documentElement.scrollWidth + ' ' + window.innerWidth); });</script>"
    )
    html_file.write_text(page.replace("</body>", probe + "</body>"))
    result = subprocess.run(
        [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", html_file.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    match = re.search(r'data-widths="(\d+) (\d+)"', result.stdout)
    assert match, f"chromium gave no layout (exit {result.returncode}): {result.stderr[-2000:]}"
    return int(match.group(1)), int(match.group(2))


def wide_blocks() -> list[Block]:
    """What made the report scroll sideways: many columns of long numbers and notes, long code spans."""
    long_path = "`/work/results/20261122-204500-quick/leveldb/kv1000/r1/01-load-kv1000.err" + "/x" * 40 + "`"
    headers = ["Test", "Engine", "today, this host", "write stalls", "level shape at close", "background writes"]
    headers += ["RocksDB vs LevelDB, 2018", "published notes", "inside ops/sec", "CPU s / 1,000 ops", "peak RSS (MB)"]
    row = ["8-byte keys, 1,000-byte values", "RocksDB", "123,456 ops/sec [120,001–130,002], 123.45 MB/s"]
    row += ["45 stops, 12 slowdowns, 6.8 s stalled", "L0 4 · L1 17 · L2 39 · L3 120; L1 ~34 MB vs 10 MB (3.40x)"]
    row += ["flush 1,234 MB + compaction 5,678 MB", "123,456 ops/sec", "RocksDB stalls: " + "long_note_" * 20]
    row += ["1,234,567", "0.123", "1,234.5"]
    return [
        Heading(1, "A wide report"),
        Paragraph("Results in " + long_path),
        Table(headers, [row] * 5, align_right_from=2, text_columns=frozenset({4, 7})),
    ]


def test_the_report_fits_a_1280_pixel_window(tmp_path):
    html_file = tmp_path / "report.html"
    html_file.write_text(to_html(wide_blocks(), "wide"))
    scroll_width, inner_width = page_widths(html_file, tmp_path / "profile")
    assert inner_width == WINDOW[0]
    assert scroll_width <= inner_width, (
        f"the page scrolls sideways: {scroll_width} px wide in a {inner_width} px window"
    )
