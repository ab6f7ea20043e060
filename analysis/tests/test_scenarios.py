"""The catalogue is consistent: every table points at real scenarios, names select what they say."""

from __future__ import annotations

import csv
import shutil
from pathlib import Path

import pytest

from analysis.catalogue.engines import REGISTERED
from analysis.catalogue.model import DRAWN_FILLS, ENGINES
from analysis.catalogue.pages import PUBLISHED_PAGES, REFERENCE_DIR, load_pages
from analysis.catalogue.scenarios import (
    SCENARIO_GROUPS,
    SCENARIOS,
    SCENARIOS_BY_ID,
    select_engines,
    select_scenarios,
)
from analysis.catalogue.workloadfile import read_properties, stacked_properties
from analysis.report.reference import ENGINE_NAMES, PUBLISHED_ONLY_ENGINES, load_findings, load_published
from analysis.report.report_tables import REPORT_TABLES

from .conftest import REPO


def test_scenario_ids_and_step_names_are_unique():
    assert len(SCENARIOS_BY_ID) == len(SCENARIOS)
    for scenario in SCENARIOS:
        names = [s.name for s in scenario.steps]
        assert len(names) == len(set(names)), scenario.id
        assert scenario.variants, f"{scenario.id} measures nothing"
        assert len(scenario.variants) == len(set(scenario.variants)), scenario.id
        assert set(scenario.engines) <= set(ENGINES)


def test_every_table_column_is_a_measured_variant():
    for table in REPORT_TABLES:
        for column in table.columns:
            assert column.variant in SCENARIOS_BY_ID[column.scenario].variants, (table.id, column)
            if column.baseline:
                assert column.baseline[1] in SCENARIOS_BY_ID[column.baseline[0]].variants


def test_every_published_figure_has_a_scenario_and_variant():
    for scenario, variant, _engine in load_published():
        if variant == "delete-all-one-statement":
            continue  # published, but YCSB cannot express it (finding F15 says so)
        assert variant in SCENARIOS_BY_ID[scenario].variants, (scenario, variant)


def _page_problems(directory: Path) -> list[str]:
    """What is wrong with pages.csv in `directory`: an engine that is not a suite engine, a page with no figures'
    file, or engines other than the registered ones its figures name (through reference.ENGINE_NAMES)."""
    problems = []
    for page in load_pages(directory):
        if not page.engines or not set(page.engines) <= set(ENGINES):
            problems.append(f"{page.source}: engines {page.engines} are not all suite engines")
        path = directory / page.file
        if not path.is_file():
            problems.append(f"{page.source}: no file {page.file}")
            continue
        with path.open(newline="") as f:
            named = {ENGINE_NAMES[row["engine"]] for row in csv.DictReader(f) if row["engine"] in ENGINE_NAMES}
        measured = named - PUBLISHED_ONLY_ENGINES.keys()
        if measured != set(page.engines):
            problems.append(f"{page.source}: its figures measure {sorted(measured)}, not {list(page.engines)}")
    return problems


def test_the_published_pages_name_registered_engines_their_figures_measured():
    assert _page_problems(REFERENCE_DIR) == []
    assert [(p.source, p.section, p.group, p.engines) for p in PUBLISHED_PAGES] == [
        ("leveldb-benchmarks-2011", "", "2011", ("leveldb", "kyoto", "sqlite")),
        ("rocksdb-vs-leveldb-writes", "rocksdb", "rocksdb-vs-leveldb", ("leveldb", "rocksdb")),
        ("sqlite-notes", "sqlite", "sqlite-notes", ("sqlite",)),
        ("fastdb-vs-sqlite", "fastdb", "fastdb", ("sqlite",)),
    ]
    assert {f.source for f in load_findings()} <= {p.source for p in PUBLISHED_PAGES}


def test_the_pages_check_finds_an_unregistered_engine_a_missing_file_and_a_wrong_list(tmp_path):
    shutil.copytree(REFERENCE_DIR, tmp_path, dirs_exist_ok=True)
    text = (tmp_path / "pages.csv").read_text()
    text = text.replace(",leveldb rocksdb\n", ",leveldb rocksdb nosuchdb\n").replace(",sqlite\n", ",kyoto\n", 1)
    (tmp_path / "pages.csv").write_text(text + "gone,gone,gone,lmdb\n")
    assert _page_problems(tmp_path) == [
        "rocksdb-vs-leveldb-writes: engines ('leveldb', 'rocksdb', 'nosuchdb') are not all suite engines",
        "rocksdb-vs-leveldb-writes: its figures measure ['leveldb', 'rocksdb'], not ['leveldb', 'rocksdb', 'nosuchdb']",
        "sqlite-notes: its figures measure ['sqlite'], not ['kyoto']",
        "gone: no file gone.csv",
    ]


def test_a_published_pages_tests_are_its_group_and_section():
    """Each page's --scenarios group selects the tests of its report section (the 2011 page's: of its own
    numbered sections), and the catalogue runs the RocksDB and SQLite pages' tests on the page's engines."""
    for page in PUBLISHED_PAGES:
        selected = select_scenarios([page.group])
        assert [s.id for s in selected] == list(SCENARIO_GROUPS[page.group]), page.group
        if page.section:
            assert selected == select_scenarios([page.section]), page.section
            assert {s.section for s in selected} == {page.section}
        else:
            with (REFERENCE_DIR / page.file).open(newline="") as f:
                assert {s.section for s in selected} == {row["section"] for row in csv.DictReader(f)}
    for group in ("rocksdb-vs-leveldb", "sqlite-notes"):
        engines = {p.group: p.engines for p in PUBLISHED_PAGES}[group]
        assert all(s.engines == engines for s in select_scenarios([group])), group
    shared = [s for s in SCENARIOS_BY_ID["pk-query-threads"].steps if dict(s.props).get("sqlite.sharedcache")]
    assert [dict(s.props)["sqlite.sharedcache"] for s in shared] == ["false"] * 5 + ["true"] * 3


def test_the_2011_sections_cover_all_four_engines():
    for section in ("1", "2A", "2B", "2C", "2D", "2E", "3A", "3B"):
        scenarios = [s for s in SCENARIOS if s.section == section]
        assert scenarios and all(s.engines == ENGINES for s in scenarios), section


def test_reads_load_before_they_read():
    for scenario in SCENARIOS:
        runs = [i for i, s in enumerate(scenario.steps) if s.phase == "run"]
        if runs:
            assert scenario.steps[0].phase == "load", scenario.id


def test_select_by_id_group_section_and_pattern():
    assert [s.id for s in select_scenarios(["seqwrite", "randread"])] == ["seqwrite", "randread"]
    assert [s.id for s in select_scenarios(["baseline"])] == ["seqwrite", "randwrite", "seqread", "randread"]
    assert [s.id for s in select_scenarios(["2B"])] == ["batch-seqwrite", "batch-randwrite"]
    assert {s.id for s in select_scenarios(["sync-*"])} == {"sync-seqwrite", "sync-randwrite"}
    assert len(select_scenarios(None)) == len(SCENARIOS)
    with pytest.raises(ValueError, match="no scenario matches"):
        select_scenarios(["nonsense"])


def test_select_engines_keeps_catalogue_order_and_refuses_unknown():
    assert select_engines(["kyoto", "leveldb"]) == ["leveldb", "kyoto"]
    with pytest.raises(ValueError, match="unknown engine"):
        select_engines(["mysql"])


def test_every_engine_row_runs_the_ycsb_core_workloads():
    from analysis.catalogue.model import ENGINES
    from analysis.catalogue.scenarios import SCENARIO_GROUPS, SCENARIOS_BY_ID

    for scenario in SCENARIO_GROUPS["ycsb"]:
        assert all(SCENARIOS_BY_ID[scenario].runs_on(e) for e in ENGINES), scenario


def test_sqlite_runs_each_table_layout_through_its_own_client():
    """A workload that asks for SQLite's columns layout runs on the columns client (bin/ycsb's sqlite-columns,
    a line of bin/bindings.properties); every other scenario on the kv client."""
    bindings = REGISTERED.classes
    for scenario in SCENARIOS:
        if "sqlite" not in scenario.engines:
            continue
        props = stacked_properties([REPO / "workloads" / f for f in scenario.workload_files()])
        wanted = "sqlite-columns" if props.get("sqlite.schema") == "columns" else "sqlite"
        assert scenario.binding_for("sqlite") == wanted, scenario.id
        assert wanted in bindings
    assert SCENARIOS_BY_ID["pk-update"].binding_for("leveldb") == "leveldb"
    assert SCENARIOS_BY_ID["randwrite"].binding_for("leveldb-system") == "leveldb"


def _file_props(name: str) -> dict[str, str]:
    return read_properties((REPO / "workloads" / name).read_text())


def test_drawn_fills_are_the_files_that_draw_with_replacement():
    # The runner and the report trust DRAWN_FILLS; the workload files are what YCSB runs.
    files = [p for p in (REPO / "workloads").iterdir() if p.is_file()]  # workloads/scale/ is the scale group's
    drawing = {p.name for p in files if _file_props(p.name).get("loadorder") == "replacement"}
    fills = {s.workloads[0] for sc in SCENARIOS for s in sc.steps if s.phase == "load"}
    assert drawing & fills == DRAWN_FILLS
    for name in ("workloada", "workloadb", "workloadc", "workloadd", "workloade", "workloadf"):
        assert _file_props(name).get("loadorder") != "replacement", f"YCSB's own {name} keeps its keys"


def test_reads_after_a_drawn_fill_accept_misses_and_read_its_keys():
    checked = 0
    for scenario in SCENARIOS:
        fill = scenario.steps[0]
        for step in scenario.steps[1:]:
            if step.phase != "run" or not scenario.keys_drawn:
                continue
            # The runner takes the fill's seed from the run's file: both must draw alike.
            fill_props, run_props = _file_props(fill.workloads[0]), _file_props(step.workloads[0])
            assert run_props.get("loadorder") == "replacement", (scenario.id, step.workloads[0])
            assert run_props.get("loadseed") == fill_props.get("loadseed"), scenario.id
            if float(run_props.get("readproportion", "0")) > 0:
                assert "NOT_FOUND" in step.allowed_returns, scenario.id
                checked += 1
    assert checked == 3  # randread, bigread-randread, nocomp-randread
    assert "NOT_FOUND" not in SCENARIOS_BY_ID["workloadc"].steps[-1].allowed_returns


def test_sqlite_big_cache_note_stands_in_the_more_memory_table_and_matches_its_files():
    """The table with SQLite's 128 MB random fill says why SQLite slows there; the note speaks of 1 KB
    pages and 128 MB, which the scenario's workload files must still set."""
    from analysis.report.tables import engine_notes

    scenario = SCENARIOS_BY_ID["bigwrite-randwrite"]
    props = stacked_properties([REPO / "workloads" / f for f in scenario.steps[0].workloads])
    assert (props["sqlite.pagesize"], props["sqlite.cachesize"]) == ("1024", "128m")
    tables = [t for t in REPORT_TABLES if any(c.scenario == scenario.id for c in t.columns)]
    assert tables
    for table in tables:
        notes = engine_notes(table, ["sqlite", "lmdb"])
        assert any(n.startswith("SQLite3: with 1 KB pages") for n in notes), notes
        assert not any(n.startswith("SQLite3") for n in engine_notes(table, ["lmdb"])), "only on SQLite's row"


def _header_engines(text: str) -> str:
    """The 'Engines: ...' paragraph of a workload file's opening comment (up to its next blank comment line)."""
    header = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        header.append(line.lstrip("# ") or "\n")
    joined = " ".join(header)
    assert "Engines:" in joined, "no 'Engines:' in the opening comment"
    return joined.split("Engines:", 1)[1].split("\n", 1)[0]


def test_every_workload_header_names_each_engine_the_suite_runs_it_on():
    """The README promises each file's opening comment names the engines it applies to: every binding the
    suite runs the file on (its bin/ycsb engine: leveldb-system's is leveldb, SQLite's columns client is
    sqlite) is named there."""
    import re

    from analysis.catalogue.model import binding_of

    runs_on: dict[str, set[str]] = {}
    for scenario in SCENARIOS:
        for engine in scenario.engines:
            for step in scenario.steps:
                for name in step.workloads_for(engine):
                    runs_on.setdefault(name, set()).add(binding_of(engine))
    assert {"seqwrite", "workloada", "fastdb-insert-one-txn", "pk-update"} <= runs_on.keys()
    for name, bindings in sorted(runs_on.items()):
        named = set(
            re.findall(
                r"\b(leveldb|rocksdb|sqlite|kyoto|lmdb)\b", _header_engines((REPO / "workloads" / name).read_text())
            )
        )
        assert bindings <= named, f"workloads/{name}: its header does not name {sorted(bindings - named)}"


def _quick_steps():
    from analysis.running.plan import resolve_step

    for scenario in SCENARIOS:
        for index, step in enumerate(scenario.steps):
            props = stacked_properties([REPO / "workloads" / f for f in step.workloads])
            yield scenario, step, resolve_step(step, index, scenario, props, quick=True, cap=None)


def test_every_quick_batched_run_fills_several_whole_batches():
    # pk-update "10,000 rows per transaction" with 2,000 operations in --quick would have no transaction
    # reach 10,000 rows while the report printed a ratio against the published figure.
    checked = 0
    for scenario, step, resolved in _quick_steps():
        batch = resolved.props.get("batchsize", "1")
        if step.phase != "run" or not batch.isdigit() or int(batch) <= 1:
            continue
        checked += 1
        assert resolved.operationcount >= 3 * int(batch), f"{scenario.id} {step.variant}: {resolved.operationcount} ops"
    assert checked >= 2


def test_a_quick_thread_series_does_as_many_operations_per_thread_at_every_count():
    # A one-thread step of 5,000 reads (0.2 s, cold) made 8 threads on 2 cores show 2.87x.
    per_thread = {}
    for scenario, step, resolved in _quick_steps():
        if scenario.id == "pk-query-threads" and step.phase == "run":
            per_thread[step.variant] = resolved.operationcount // int(resolved.props["threadcount"])
    assert len(per_thread) == 8 and len(set(per_thread.values())) == 1, per_thread
    assert min(per_thread.values()) >= 20_000


def test_a_synced_set_up_load_commits_in_batches():
    # pk-update's unmeasured load of rows synced one by one took 8.4 s of its quick cell's 16.5 s (2026-12-01),
    # and would take some 85 s at the full run's 100,000 rows: a set-up load's speed is no figure.
    checked = 0
    for scenario, step, resolved in _quick_steps():
        props = {**stacked_properties([REPO / "workloads" / f for f in step.workloads]), **resolved.props}
        if step.measured or step.phase != "load" or props.get("sync", "false") != "true":
            continue
        checked += 1
        assert int(props.get("batchsize", "1")) >= 1000, f"{scenario.id} {step.name}"
    assert checked >= 1
