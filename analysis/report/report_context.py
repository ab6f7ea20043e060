"""The report's sections about the run itself rather than its figures: this machine, the run's summary
line, the upstream bindings beside ours, the failed cells, where each cell ran, how it was run and with
what counts, and what a report of some parts of a sharded matrix lacks.
"""

from __future__ import annotations

from pathlib import Path

from ..results.results import RunData
from .formatting import format_number
from .render import Block, BulletList, Heading, Paragraph, Table
from .tables import engine_label


def machine_blocks(run: RunData) -> list[Block]:
    m = run.machine
    memory = m.get("memory_bytes")
    fsync = m.get("fsync_per_sec")
    rows = [
        ["CPU", f"{m.get('cpu', 'unknown')} ({m.get('cores', '?')} cores)"],
        ["Memory", f"{memory / 2**30:.1f} GiB" if memory else "unknown"],
        ["OS, kernel", f"{m.get('os', 'unknown')}, {m.get('kernel', 'unknown')}"],
        [
            "Data directory",
            f"`{m.get('data_dir', '?')}`: {m.get('filesystem', '?')} on {m.get('device', '?')}, "
            f"disk {m.get('disk', 'unknown')}",
        ],
        *(
            [["Results directory", f"`{m['results_dir']}`: {m.get('results_filesystem', '?')}"]]
            if m.get("results_dir") and not m.get("data_dir", "").startswith(m["results_dir"])
            else []
        ),
        ["Disk flush rate", f"{format_number(fsync)} fsyncs/sec (100-byte appends)" if fsync else "not measured"],
        *(
            [["Disk read-ahead", f"{m['read_ahead_kb']:,} KB (what a page fault on a memory-mapped file reads)"]]
            if m.get("read_ahead_kb")
            else []
        ),
        ["JDK", m.get("jdk", "unknown")],
        ["Host", ", ".join(m.get("hostnames") or [m.get("hostname", "unknown")])],
    ]
    rows += [[f"Engine: {engine_label(e)}", v] for e, v in sorted(run.engine_versions.items())]
    return [Heading(2, "This machine"), Table(["", ""], rows, align_right_from=2)]


def run_summary(run: RunData) -> str:
    suite = run.suite
    mode = suite.get("mode", "?")
    counts = "the published counts (--full)"
    if mode == "quick":
        seconds = suite.get("quick_seconds")
        counts = (
            f"scaled-down counts, each measured step run for {seconds:g} s (--quick)"
            if seconds
            else "scaled-down counts (--quick)"
        )
    repeat = suite.get("repeat", 1)
    by_scenario = suite.get("repeats") or {}
    if repeat > 1 and len(set(by_scenario.values())) > 1:
        several = sorted(s for s, n in by_scenario.items() if n > 1)
        repeats = f"median (and min-max) of {repeat} runs for {', '.join(several)}, one run for the rest"
    else:
        repeats = f"median (and min-max) of {repeat} runs per figure" if repeat > 1 else "one run per figure"
    noise_cells = suite.get("noise_cells") or []
    if noise_cells:
        repeats += (
            "; " + ", ".join(f"{c['engine']}/{c['scenario']}" for c in noise_cells) + " "
            f"{noise_cells[0]['repeat']} times, to measure the run-to-run spread"
        )
    ok = sum(1 for c in run.cells if c["status"] == "ok")
    cap = f", every count capped at {suite['cap']:,}" if suite.get("cap") else ""
    parts = suite.get("merged_from") or []
    if parts:
        hosts = sorted({str(p.get("host")) for p in parts})
        merged = (
            f"Merged from {len(parts)} results directories ({', '.join(Path(p['directory']).name for p in parts)}) "
            f"on {len(hosts)} host{'s' if len(hosts) > 1 else ''} ({', '.join(hosts)}), first started "
            f"{suite.get('started', '?')}: "
        )
        if run.machine.get("merge_problems"):
            merged += "**merged although " + "; ".join(run.machine["merge_problems"]) + "**; "
        return (
            f"{merged}{counts}{cap}, {repeats}; {ok} of {len(run.cells)} cells ran cleanly. "
            f"Each figure of **today, this host** sits beside the published one; ratios are to the same "
            f"engine's baseline on the same machine."
        )
    return (
        f"Run `{run.directory.name}` ({suite.get('started', '?')}, revision {suite.get('revision', '?')}): "
        f"{counts}{cap}, {repeats}; {ok} of {len(run.cells)} cells ran cleanly. "
        f"Each figure of **today, this host** sits beside the published one; ratios are to the same "
        f"engine's baseline on the same machine."
    )


def failed_blocks(run: RunData) -> list[Block]:
    failed = [c for c in run.cells if c["status"] != "ok"]
    blocks: list[Block] = [Heading(2, "Failed cells")]
    if not failed:
        return blocks + [Paragraph("None: every cell ran without errors, misses or missing operations.")]
    rows = [[engine_label(c["engine"]), c["scenario"], c.get("error") or "?"] for c in failed]  # "skipped: ..."
    return blocks + [
        Table(["Engine", "Scenario", "Error"], rows, align_right_from=3),
        Paragraph("Raw outputs of every step: `<engine>/<scenario>/r<repeat>/` in the results directory."),
    ]


def counts_blocks(run: RunData) -> list[Block]:
    seen: dict[tuple[str, str], str] = {}
    for cell in run.cells:
        for steps in cell["repeats"][:1]:
            for step in steps:
                key = (cell["scenario"], step["name"])
                if key not in seen:
                    ops = f", {step['operationcount']:,} operations" if step["phase"] == "run" else ""
                    seen[key] = f"{step['recordcount']:,} records{ops}"
    rows = [[scenario, step, text] for (scenario, step), text in seen.items()]
    if not rows:
        return []
    return [
        Paragraph("Counts each step ran with (YCSB's recordcount / operationcount):"),
        Table(["Scenario", "Step", "Counts"], rows, align_right_from=3),
    ]


def peers_blocks(run: RunData) -> list[Block]:
    """The upstream YCSB bindings that ran beside ours: where from, with what, and what of our workload
    files they used (our workload class's properties) or could not (our bindings' properties)."""
    peers = run.suite.get("peers") or []
    if not peers:
        return []
    items = []
    for peer in peers:
        cells = [c for c in run.cells if c["engine"] == peer["engine"]]
        given = ", ".join(f"`{k}={v}`" for k, v in peer.get("properties", {}).items()) or "none"
        used: dict[str, str] = {}
        ignored: dict[str, str] = {}
        for cell in cells:
            used.update(cell.get("workload_class_properties") or {})
            ignored.update(cell.get("ignored_properties") or {})
        where = (
            "in core, `lib/`" if peer["binding"] == "basic" else f"`{peer['binding'].split('-', 1)[0]}-binding/lib/`"
        )
        text = (
            f"**{engine_label(peer['engine'])}**: `{peer['class']}` ({where}) of `{peer['ycsb_home']}`; "
            f"properties as given: {given}. Its durability and cache are these and the binding's own defaults."
        )
        if used:
            text += (
                f" Our workload class ran on its classpath (`{Path(peer.get('common_jar') or '?').name}` beside core), "
                f"with {', '.join(f'`{k}={v}`' for k, v in sorted(used.items()))}."
            )
        neutral = sorted(k for k in ignored if "." not in k)
        prefixes = sorted({k.split(".", 1)[0] + ".*" for k in ignored if "." in k})
        if ignored:
            text += (
                " Not for it: our bindings' properties in the workload files ("
                + ", ".join([f"`{k}`" for k in neutral] + [f"`{k}`" for k in prefixes])
                + ")."
            )
        adapted = [f"{c['scenario']}, {note}" for c in cells for note in c.get("notes") or []]
        if adapted:
            text += " Adapted to it: " + "; ".join(adapted) + "."
        skipped = [c for c in cells if c["status"] == "skipped"]
        if skipped:
            text += f" Skipped {len(skipped)} cell(s): {skipped[0].get('error')}."
        items.append(text)
    return [
        Heading(2, "Upstream YCSB bindings beside ours"),
        Paragraph(
            "Each peer ran the same workload files through its YCSB release's own classpath, every cell in a "
            "fresh data directory where the binding keeps one (a server's namespace is what its properties give)."
        ),
        BulletList(items),
    ]


def hosts_blocks(run: RunData) -> list[Block]:
    """Where each cell ran, when the report merges several runs."""
    if not run.suite.get("merged_from"):
        return []
    rows = [
        [engine_label(c["engine"]), c["scenario"], c.get("host", "?"), f"`{c.get('results_dir', '?')}`", c["status"]]
        for c in run.cells
    ]
    return [
        Heading(2, "Where each cell ran"),
        Table(["Engine", "Scenario", "Host", "Results directory", "Status"], rows, align_right_from=5),
    ]


def how_blocks(run: RunData) -> list[Block]:
    parts = run.suite.get("merged_from") or [{"command": run.suite.get("command")}]
    commands = [" ".join(p.get("command") or ["python", "-m", "analysis", "run"]) for p in parts]
    return [
        Heading(2, "How this was run"),
        BulletList(
            [
                ("Command: " if len(commands) == 1 else "Commands: ") + ", ".join(f"`{c}`" for c in commands) + ".",
                "Each cell (engine x scenario) ran in a fresh data directory; each step was one `bin/ycsb` JVM "
                + ("(a peer's: `java -cp <its tree's classpath> site.ycsb.Client`) " if run.suite.get("peers") else "")
                + "with `-s` status lines (one a second) and "
                + ("YCSB's JSON exporter" if run.suite.get("exporter", "json") == "json" else "YCSB's text output")
                + ". YCSB's run time includes opening and closing the database and the client's work between "
                "operations; beside each published figure, and in the 'inside ops/sec' of each 'What it cost' table, "
                "this host's figure is also given on db_bench's clock ('in operations'): `bin/ycsb -p "
                "nanotimed.file=...` puts the binding inside a timing layer (`NanoTimedDB`) that sums each "
                "operation's nanoseconds after the open and before the close and times the open and close apart "
                "(`<NN>-<step>.timing.json`).",
                "Sequential reads are one ordered iterator pass per operation, reported in entries/sec as db_bench "
                "did; batched writes are entries/sec (YCSB counts each queued entry as one operation, and its "
                "latencies put a whole batch on its last entry).",
                "Quick mode scales counts down so the whole matrix runs in minutes; databases that fit in cache "
                "make some ratios (more memory, larger cache) differ from the published ones. `--full` runs the "
                "published counts.",
                "Files: `tidy.csv` (one row per operation of every step), `figures.csv` (the figures in the tables), "
                "`machine.json`, `suite.json`, and every raw output under `<engine>/<scenario>/`.",
            ]
        ),
        *counts_blocks(run),
    ]


def incompleteness(missing: list[str]) -> str:
    """What a report of some parts of a sharded matrix lacks, in one sentence."""
    return (
        f"INCOMPLETE: {', '.join(missing)} of the sharded matrix {'is' if len(missing) == 1 else 'are'} missing "
        "from these results: their cells are in no table and no finding; merge every part with "
        "`python -m analysis report DIR... --out DIR`"
    )


def incomplete_blocks(run: RunData) -> list[Block]:
    missing = run.suite.get("missing_parts") or []
    return [Paragraph(f"**{incompleteness(missing)}.**")] if missing else []
