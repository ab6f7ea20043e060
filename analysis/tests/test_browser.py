"""The HTML report in a real browser (Debian's chromium, headless), at 1280 px and at a phone's 390 px: it
never scrolls sideways, its tables fit, no word breaks inside, its charts' text stays legible, and it opens
with the heat map, whose last rows are the capacities under a latency bound; the "Latency at a rate" section
renders its tables and charts. scripts/setup.sh installs chromium; without it this fails."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from analysis.catalogue.scenarios import SCENARIOS_BY_ID
from analysis.report.render import Block, Heading, HeatMap, Paragraph, Table, to_html
from analysis.report.report import TITLE, build_report
from analysis.report.report_costs import section_scenarios
from analysis.report.report_summary import short_label
from analysis.report.tables import engine_label
from analysis.results.rate import StallRun
from analysis.results.results import RunData
from analysis.results.tidy import TIDY_COLUMNS

from .test_report import figure
from .test_report_rate import _seconds, _sweep, write_rate

WINDOW = (1280, 900)
PHONE = 390
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
    "--allow-file-access-from-files",  # the frame page reads what the report's page measured
    f"--window-size={WINDOW[0]},{WINDOW[1]}",
]


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.fail("chromium is not installed: scripts/setup.sh installs it (apt-get install chromium)")
    return path


def measure(html_file: Path, profile: Path, width: int, script: str) -> dict:
    """Loads the page in a frame `width` px wide (chromium's windows are at least 500 px wide) and returns
    what `script` (the body of a JS function run once the page has loaded) returns, through JSON."""
    page = html_file.read_text()
    probe = (
        "<script>window.addEventListener('load', () => { document.body.setAttribute('data-probe', "
        "JSON.stringify((() => {" + script + "})())); });</script>"
    )
    html_file.write_text(page.replace("</body>", probe + "</body>"))
    frame = html_file.with_name("frame.html")
    frame.write_text(
        f'<!DOCTYPE html><html><body style="margin: 0"><iframe src="{html_file.name}" '
        f'style="width: {width}px; height: {WINDOW[1]}px; border: 0" onload="document.body.setAttribute('
        "'data-probe', this.contentDocument.body.getAttribute('data-probe'))\"></iframe></body></html>"
    )
    result = subprocess.run(
        [chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", frame.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
    )
    html_file.write_text(page)
    match = re.search(r'data-probe="([^"]*)"', result.stdout)
    assert match, f"chromium gave no layout (exit {result.returncode}): {result.stderr[-2000:]}"
    found: dict = json.loads(html.unescape(match.group(1)))
    return found


def page_widths(html_file: Path, profile: Path, width: int = WINDOW[0]) -> tuple[int, int]:
    """(document scroll width, window inner width) of a page as chromium lays it out."""
    found = measure(html_file, profile, width, "return [document.documentElement.scrollWidth, window.innerWidth];")
    return found[0], found[1]


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


@pytest.mark.parametrize("width", [WINDOW[0], PHONE])
def test_the_report_fits_its_window(tmp_path, width):
    html_file = tmp_path / "report.html"
    html_file.write_text(to_html(wide_blocks(), "wide"))
    scroll_width, inner_width = page_widths(html_file, tmp_path / "profile", width)
    assert inner_width == width
    assert scroll_width <= inner_width, (
        f"the page scrolls sideways: {scroll_width} px wide in a {inner_width} px window"
    )


ENGINES = ("leveldb", "leveldb-system", "kyoto", "sqlite", "rocksdb", "lmdb")


def all_tests() -> list[tuple[str, str]]:
    """(scenario, variant) of every test of the report, in its order."""
    return [(sc, v) for scs in section_scenarios().values() for sc in scs for v in SCENARIOS_BY_ID[sc].variants]


def full_run(directory: Path) -> RunData:
    """Every test of the report on each of six engines it runs on, with costs: the report as a full run draws
    it (SQLite's own tests on SQLite alone)."""
    figures = []
    for k, (scenario, variant) in enumerate(all_tests()):
        s = SCENARIOS_BY_ID[scenario]
        for j, engine in enumerate(e for e in ENGINES if s.runs_on(e)):
            value = 1000.0 * (1 + (7 * k + 3 * j) % 11) ** 2  # spread over two decades, no engine always best
            costs: dict[str, float | None] = {
                "inside_ops_per_sec": value * 1.3,
                "cpu_seconds_per_1000_ops": 0.123,
                "peak_rss_bytes": 123.4e6,
                "written_bytes": 56.7e6,
                "write_amplification": 1.5 + j,
                "db_bytes": 12.3e6,
                "space_amplification": 0.9 + j / 3,
                "open_seconds": 0.012 * (j + 1),
                "close_seconds": 0.345 * (j + 1),
            }
            inside = [value * 1.3] if s.metric != "elapsed_ms" else []  # the timing layer's figure, both clocks
            f = figure(engine, scenario, value, variant)
            f.costs, f.inside_values = costs, inside
            figures.append(f)
    cells: list[dict] = [
        {"engine": e, "scenario": sc, "status": "ok", "error": None, "repeats": []}
        for e, sc in dict.fromkeys((f.engine, f.scenario) for f in figures)
    ]
    machine = {"cpu": "Test CPU", "cores": 2, "data_dir": "/tmp/glance-run/data", "jdk": "openjdk 17.0.15 2025-04-15"}
    suite = {"mode": "full", "repeat": 1, "command": ["python", "-m", "analysis", "run", "--full"]}
    versions = {e: f"{e} 1.2.3 (test), /tmp/glance-run/data/{e}/seqwrite/r1/db: cache_size=4096" for e in ENGINES}
    return RunData(directory, suite, machine, cells, pd.DataFrame(columns=TIDY_COLUMNS), figures, versions)


RATE_WORKLOADS = ("workloada", "workloadc")


def write_rate_results(directory: Path) -> None:
    """`python -m analysis rate` on the six engines, both default workloads, with stall runs: its rate.json."""
    sweeps = [
        _sweep(engine, 40_000.0 * (j + 1), workload) for workload in RATE_WORKLOADS for j, engine in enumerate(ENGINES)
    ]
    stalls = [
        StallRun("rocksdb", "kv1000", 1, 80_000.0, 40_000, 39_900.0, 0.5, _seconds([900, 100, 120, 0, 400_000, 110])),
        StallRun("leveldb", "kv1000", 1, 60_000.0, 30_000, 30_000.0, 0.5, _seconds([900, 100, 120, 110, 100])),
    ]
    ceilings = {w: 3_580_000.0 for w in RATE_WORKLOADS}
    write_rate(directory, sweeps, ceilings=ceilings, stall_fraction=0.5, stalls=[r.to_json() for r in stalls])


@pytest.fixture(scope="module")
def full_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory: Path = tmp_path_factory.mktemp("full")
    write_rate_results(directory)
    html_file = directory / "report.html"
    html_file.write_text(to_html(build_report(full_run(directory), directory), TITLE, directory))
    return html_file


# Each table: is it wider than its container (so it scrolls inside itself)? Each word (a run of letters and
# digits: a break after '-', '/' or '_' is between words): does it span two line boxes?
LAYOUT_PROBE = """
const tables = [...document.querySelectorAll('table')];
const scrolling = tables.filter(t => t.scrollWidth > t.clientWidth + 1).map(t => t.innerText.slice(0, 60));
const broken = [];
const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  if (node.parentElement.closest('svg, script, style')) continue;
  for (const m of node.data.matchAll(/[A-Za-z0-9]{2,}/g)) {
    const range = document.createRange();
    range.setStart(node, m.index);
    range.setEnd(node, m.index + m[0].length);
    const tops = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
    if (tops.size > 1) broken.push(m[0]);
  }
}
const fonts = [...document.querySelectorAll('svg.chart text')].map(t => {
  const m = t.getScreenCTM();
  return parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b);
});
const top = e => e ? e.getBoundingClientRect().top : NaN;
const bottom = e => e ? e.getBoundingClientRect().bottom : NaN;
const heat = document.querySelector('table.heat');
const amplification = [...document.querySelectorAll('h2')].find(h => h.textContent.startsWith('Write and space'));
const section = [];
for (let e = amplification.nextElementSibling; e && e.tagName !== 'H2'; e = e.nextElementSibling) section.push(e);
const legend = section.find(e => e.classList.contains('legend'));
const charts = section.flatMap(e => e.matches('svg.chart, img') ? [e] : [...e.querySelectorAll('svg.chart, img')]);
const heads = [...heat.querySelectorAll('thead th')];
const alone = [...document.querySelectorAll('h3')].find(h => h.textContent === 'Tests of one engine');
const aloneTable = alone ? alone.nextElementSibling.nextElementSibling : null;
const rateHeading = [...document.querySelectorAll('h2')].find(h => h.textContent === 'Latency at a rate');
const rate = [];
for (let e = rateHeading ? rateHeading.nextElementSibling : null; e && e.tagName !== 'H2'; e = e.nextElementSibling) {
  rate.push(e);
}
const inRate = selector => rate.flatMap(e => e.matches(selector) ? [e] : [...e.querySelectorAll(selector)]);
const heatRows = [...heat.tBodies[0].rows];
return {
  tables: tables.length, scrolling, broken,
  charts: document.querySelectorAll('svg.chart').length, images: document.querySelectorAll('img').length,
  smallestFont: fonts.length ? Math.min(...fonts) : 0, texts: fonts.length,
  heatBeforeSummary: bottom(heat) < top(document.getElementById('summary')),
  heatColumns: heads.map(h => h.innerText), heatRows: heatRows.length,
  capacityRows: heatRows.filter(r => r.cells[0].innerText.includes('capacity under')).map(
    r => [...r.cells].map(c => c.innerText)),
  rateTables: inRate('table').map(t => t.rows[0].cells[0].innerText),
  rateCharts: inRate('svg.chart').length,
  rateHeadings: inRate('h3').map(h => h.textContent),
  lastColumnShown: heads.at(-1).getBoundingClientRect().right
    - Math.min(heat.getBoundingClientRect().right, window.innerWidth),
  aloneBetween: bottom(heat) < top(alone) && bottom(aloneTable) < top(document.getElementById('summary')),
  aloneTests: aloneTable ? [...aloneTable.tBodies[0].rows].map(r => r.cells[0].innerText) : [],
  firstTableIsHeat: tables[0] === heat,
  contents: [...document.querySelectorAll('nav a')].map(a => a.getAttribute('href')),
  legendAboveCharts: bottom(legend) <= Math.min(...charts.map(top)),
  tallestSmallMultiple: Math.max(...charts.map(c => c.getBoundingClientRect().height)),
  sideways: document.documentElement.scrollWidth - window.innerWidth,
  breakAll: [...document.querySelectorAll('*')].some(e => getComputedStyle(e).wordBreak === 'break-all'),
};
"""

# At 390 px every table of four or more columns is a list of cards, and the narrower ones wrap at spaces
# and hyphens: none is left wider than the page. The one table that keeps its grid is the heat map,
# which with six engines fits (test_a_heat_map_of_more_engines_scrolls_with_its_tests_in_sight: more).
MAX_SCROLLING_TABLES = 0


@pytest.mark.parametrize("width", [WINDOW[0], PHONE])
def test_a_full_report_reads_at_a_glance(full_report, tmp_path, width):
    found = measure(full_report, tmp_path / "profile", width, LAYOUT_PROBE)
    assert found["sideways"] <= 0, f"the page scrolls sideways by {found['sideways']} px"
    assert found["lastColumnShown"] <= 0.5, (
        f"the heat map's last engine column is cut off by {found['lastColumnShown']} px"
    )
    assert found["tables"] >= 26
    assert len(found["scrolling"]) <= MAX_SCROLLING_TABLES, (
        f"{len(found['scrolling'])} of {found['tables']} tables scroll inside themselves: {found['scrolling']}"
    )
    assert found["broken"] == [], f"words broken inside: {found['broken'][:20]}"
    assert not found["breakAll"]
    # Charts are SVG in the page, their text as text, none smaller than 8 px on the screen.
    assert found["images"] == 0 and found["charts"] >= 20 and found["texts"] > 200
    assert found["smallestFont"] >= 8, f"chart text as small as {found['smallestFont']:.1f} px"
    assert found["firstTableIsHeat"] and found["heatBeforeSummary"]
    # The map compares engines: all six columns in sight, the last (short names on a phone) too; the tests
    # of one engine are listed below it, not rows of it.
    assert found["heatColumns"][-1] == ("LMDB" if width == PHONE else "LMDB (lmdbjava)"), found["heatColumns"]
    assert len(found["heatColumns"]) == 1 + len(ENGINES)
    one = [f"{sc} {v}".strip() for sc, v in all_tests() if sum(SCENARIOS_BY_ID[sc].runs_on(e) for e in ENGINES) == 1]
    assert len(one) == 13 and found["aloneTests"] == one
    assert found["aloneBetween"] and found["heatRows"] == len(all_tests()) - len(one) + len(RATE_WORKLOADS)
    assert {"#at-a-glance", "#summary", "#findings", "#write-and-space-amplification"} <= set(found["contents"])
    # The rate command's results: the capacity rows at the map's end, one cell per engine, the best 1.5 times the
    # second's (flat out 40,000 ops/s times the engine's place: capacity 62.5 % of it).
    assert [row[0] for row in found["capacityRows"]] == [f"{w} capacity under p99=2ms" for w in RATE_WORKLOADS]
    assert found["capacityRows"][0][1:] == ["25k", "50k", "75k", "100k", "125k", "150k"], found["capacityRows"]
    assert "#latency-at-a-rate" in found["contents"]
    assert found["rateHeadings"] == [
        "Capacity under a latency bound",
        *(f"{w}: latency at each rate" for w in RATE_WORKLOADS),
        "Stalls at a fixed rate",
    ], found["rateHeadings"]
    assert len(found["rateTables"]) == 4 and found["rateCharts"] == 4 * len(RATE_WORKLOADS) + 2, found
    assert found["legendAboveCharts"] and found["tallestSmallMultiple"] < 400


# The heat map scrolled to its end: is its last column inside it and the page, its first still at its left?
SCROLLED_PROBE = """
const heat = document.querySelector('table.heat');
heat.scrollLeft = heat.scrollWidth;
const box = heat.getBoundingClientRect();
const heads = [...heat.querySelectorAll('thead th')];
return {
  scrolls: heat.scrollWidth > heat.clientWidth && heat.scrollLeft > 0,
  lastShown: heads.at(-1).getBoundingClientRect().right - Math.min(box.right, window.innerWidth),
  firstAt: [...heat.querySelectorAll('tr > th:first-child')].map(th => th.getBoundingClientRect().left - box.left),
  sideways: document.documentElement.scrollWidth - window.innerWidth,
};
"""


def test_a_heat_map_of_more_engines_scrolls_with_its_tests_in_sight(tmp_path):
    engines = [*ENGINES, "rocksdb@ycsb-0.17.0", "leveldb@ycsb-0.17.0", "sqlite@ycsb-0.17.0"]
    columns, short = [engine_label(e) for e in engines], [short_label(e) for e in engines]
    rows: list[tuple[str, list[float | None]]] = [
        (f"largevalue-randwrite {k}", [1.0 / (1 + (k + j) % 7) for j in range(len(engines))]) for k in range(5)
    ]
    html_file = tmp_path / "report.html"
    html_file.write_text(to_html([Heading(1, "Peers"), HeatMap("Test", columns, rows, [], short)], "peers"))
    found = measure(html_file, tmp_path / "profile", PHONE, SCROLLED_PROBE)
    assert found["sideways"] <= 0 and found["scrolls"]
    assert found["lastShown"] <= 0.5, f"the last engine column is beyond reach by {found['lastShown']} px"
    assert all(abs(x) <= 1 for x in found["firstAt"]), f"the tests' column scrolled away: {found['firstAt']}"
