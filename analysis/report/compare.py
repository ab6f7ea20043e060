"""Compares two results directories (before/after a change, or two machines) as ratios B / A.

python -m analysis compare results/before results/after [--out compare.md]
python -m analysis compare results/a1,results/a2 results/b1,results/b2    each side merged from its shards
python -m analysis compare results/merged results/after     a merged report's directory (report DIR... --out)

Like the report, it refuses runs whose counts differ (mode, repeat, cap, exporter, memory budget) unless
--allow-mixed; a change within the noise of its figures (their own spread over repeats, else the spread
the run measured for that kind of step) is not counted as faster or slower; figures taken while other
processes kept the machine busy are named. Its Findings section puts each published finding's verdict in A
beside B's and counts how many are the same: a quick run against a full one (with --allow-mixed) measures
how far the quick run's verdicts can be trusted.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from ..results.merge import count_problems
from ..results.noise import NO_NOISE, Noise, measure_noise
from ..results.results import Figure, RunData, load_runs
from ..results.scale import NOISY_CORES
from .findings import NOT_MEASURED, FindingResult
from .formatting import format_figure, format_number, format_ratio
from .render import Block, Heading, Paragraph, Table, to_markdown
from .report_noise import noisy_steps
from .report_rate import capacities_of, run_rate
from .tables import engine_label

# For elapsed times lower is better: B / A above 1 is a slowdown there, a speed-up elsewhere.
LOWER_IS_BETTER_UNITS = frozenset({"ms"})
# A change counted as faster or slower where neither figure has a measured spread: a threshold, not a band.
UNMEASURED_THRESHOLD = 0.05

Key = tuple[str, str, str]  # (engine, scenario, variant)


@dataclass(frozen=True)
class Comparison:
    engine: str
    scenario: str
    variant: str
    unit: str
    a: float | None
    b: float | None
    noise: float | None = None  # the wider of the two figures' known spreads (own, else their kind's); None: neither
    busy: str = ""  # "A", "B" or "A and B": a side whose figure was taken on a busy machine

    @property
    def ratio(self) -> float | None:
        return self.b / self.a if self.a and self.b is not None else None

    @property
    def speedup(self) -> float | None:
        """B's speed relative to A's, whatever the unit's direction."""
        r = self.ratio
        if r is None or r == 0:
            return None
        return 1 / r if self.unit in LOWER_IS_BETTER_UNITS else r

    @property
    def threshold(self) -> float:
        return self.noise if self.noise is not None else UNMEASURED_THRESHOLD

    @property
    def within_noise(self) -> bool:
        """The change is no larger than the figures' spread (or, unmeasured, 5 %) either way."""
        s = self.speedup
        return s is not None and abs(s - 1) <= self.threshold and abs(1 / s - 1) <= self.threshold


def compare_figures(
    a: list[Figure],
    b: list[Figure],
    noise_a: Noise = NO_NOISE,
    noise_b: Noise = NO_NOISE,
    busy_a: frozenset[Key] = frozenset(),
    busy_b: frozenset[Key] = frozenset(),
) -> list[Comparison]:
    """Every figure of either run, paired by (engine, scenario, variant), in A's order then B's extras;
    with the noise of each pair (the wider of its two figures' spreads that are known) and its busy sides."""
    index_b = {(f.engine, f.scenario, f.variant): f for f in b}
    index_a = {(f.engine, f.scenario, f.variant): f for f in a}
    keys = list(index_a) + [k for k in index_b if k not in index_a]
    out = []
    for key in keys:
        fa, fb = index_a.get(key), index_b.get(key)
        unit = fa.unit if fa else index_b[key].unit
        spreads = [s for s in (noise_a.of(fa), noise_b.of(fb)) if s is not None]
        noise = max(spreads) if spreads else None
        busy = " and ".join(side for side, keys_ in (("A", busy_a), ("B", busy_b)) if key in keys_)
        out.append(Comparison(*key, unit, fa.value if fa else None, fb.value if fb else None, noise, busy))
    return out


def busy_figures(run: RunData) -> dict[Key, float]:
    """(engine, scenario, variant) -> the most other processes used (cores) while its measured step ran,
    for every figure taken on a busy machine (report_noise.noisy_steps)."""
    busy: dict[Key, float] = {}
    for engine, scenario, variant, other in noisy_steps(run.cells)[0]:
        busy[(engine, scenario, variant)] = max(busy.get((engine, scenario, variant), 0.0), other)
    return busy


def compare_runs(a: RunData, b: RunData) -> list[Comparison]:
    return compare_figures(
        a.figures,
        b.figures,
        measure_noise(a.figures),
        measure_noise(b.figures),
        frozenset(busy_figures(a)),
        frozenset(busy_figures(b)),
    )


def _machine_line(run: RunData) -> str:
    m = run.machine
    parts = run.suite.get("merged_from") or [{"directory": run.directory}]
    where = " + ".join(f"`{p['directory']}`" for p in parts)
    return (
        f"{where}: {run.suite.get('mode', '?')} mode, {m.get('cpu', '?')} ({m.get('cores', '?')} cores), "
        f"{m.get('filesystem', '?')} on {m.get('disk', '?')}, {m.get('jdk', '?')}"
    )


def _test(c: Comparison) -> str:
    return c.scenario + (f" / {c.variant}" if c.variant else "")


def runs_and_noise(name: str, run: RunData) -> str:
    """How many runs a side's figures are, and the spread it measured per kind of step."""
    repeat = run.suite.get("repeat", 1)
    cells = run.suite.get("noise_cells") or []
    runs = f"medians of up to {repeat} runs" if repeat > 1 else "one run per figure"
    if cells and repeat <= 1:
        runs += f" (but {', '.join(c['engine'] + '/' + c['scenario'] for c in cells)}, repeated to measure the noise)"
    bands = measure_noise(run.figures).bands
    spread = (
        "its run-to-run spread: " + ", ".join(f"{b.kind} {b.spread * 100:.1f} %" for b in bands.values())
        if bands
        else "no run-to-run spread measured"
    )
    return f"{name}: {runs}; {spread}"


def one_sided(comparisons: list[Comparison]) -> list[str]:
    """The figures only one side has (or neither: failed or not run on both), a line each, grouped by engine:
    'Only in B (12): RocksDB: seqwrite, randwrite; LMDB (lmdbjava): seqwrite.'"""
    groups = {
        "Only in A (B has no figure: not run or failed)": [c for c in comparisons if c.a is not None and c.b is None],
        "Only in B (A has no figure: not run or failed)": [c for c in comparisons if c.a is None and c.b is not None],
        "In neither (failed or not run on both sides)": [c for c in comparisons if c.a is None and c.b is None],
    }
    lines = []
    for title, only in groups.items():
        by_engine: dict[str, list[str]] = {}
        for c in only:
            by_engine.setdefault(c.engine, []).append(_test(c))
        if by_engine:
            tests = "; ".join(f"{engine_label(e)}: {', '.join(t)}" for e, t in by_engine.items())
            lines.append(f"{title}, {len(only)}: {tests}.")
    return lines


def _note(c: Comparison) -> str:
    notes = []
    if c.noise is not None and c.within_noise:
        notes.append(f"within the noise (±{c.noise * 100:.1f} %)")
    if c.busy:
        notes.append(f"busy machine in {c.busy}")
    return "; ".join(notes)


def comparison_blocks(a: RunData, b: RunData, comparisons: list[Comparison]) -> list[Block]:
    both = [c for c in comparisons if c.speedup is not None]
    rows = [
        [
            engine_label(c.engine),
            _test(c),
            format_figure(c.a, c.unit),
            format_figure(c.b, c.unit),
            format_ratio(c.ratio),
            format_ratio(c.speedup),
            _note(c),
        ]
        for c in both
    ]
    decided = [c for c in both if not c.within_noise]
    faster = sum(1 for c in decided if (c.speedup or 0) > 1)
    unmeasured = sum(1 for c in both if c.noise is None)
    counts = (
        f"{len(both)} figures in both: B is faster on {faster}, slower on {len(decided) - faster}, within the noise "
        f"on {len(both) - len(decided)}. Speed-up is B / A, inverted for times. A change counts when it is larger "
        "than the wider of the two figures' spreads: a figure's own over its repeats, else the spread its run "
        "measured for that kind of step (as the report's 'Run-to-run spread', here on YCSB's clock, the one "
        "compare reads), whichever side measured it"
        + (
            f"; for the {unmeasured} figure{'s' if unmeasured != 1 else ''} whose spread neither side measured, "
            f"larger than {UNMEASURED_THRESHOLD * 100:.0f} %, a threshold and not a measurement"
            if unmeasured
            else ""
        )
        + "."
    )
    blocks: list[Block] = [
        Heading(1, "Comparison of two runs"),
        Paragraph(f"A = {_machine_line(a)}"),
        Paragraph(f"B = {_machine_line(b)}"),
        Paragraph(counts),
        Paragraph(runs_and_noise("A", a) + ". " + runs_and_noise("B", b) + "."),
    ]
    busy = [c for c in comparisons if c.busy]
    if busy:
        every = len(busy) == len(comparisons) and all(c.busy == "A and B" for c in busy)
        which = (
            f"all {len(busy)} figures, in both runs"
            if every
            else "; ".join(f"{engine_label(c.engine)} {_test(c)} in {c.busy}" for c in busy)
        )
        blocks.append(
            Paragraph(
                f"Taken while other processes kept more than {NOISY_CORES:.0%} of a core busy (the report's 'Busy "
                f"machine'): {which}."
            )
        )
    headers = ["Engine", "Scenario", "A", "B", "B / A", "speed-up", "note"]
    blocks.append(Table(headers, rows, align_right_from=2, text_columns=frozenset({6})))
    blocks += [Paragraph(line) for line in one_sided(comparisons)]
    return blocks


def capacity_blocks(rate_a: dict | None, rate_b: dict | None) -> list[Block]:
    """Both runs' capacities under the same bound, engine and workload (their rate records, report_rate.run_rate:
    `python -m analysis rate` in each one's directory, a merged side's parts together), as B / A; nothing unless
    both have one in common."""
    found_a, found_b = capacities_of(rate_a), capacities_of(rate_b)
    rows = []
    for k, ca in found_a.items():
        if k in found_b:
            x, y = ca.rate, found_b[k].rate
            ratio = format_ratio(y / x) if x and y else "—"
            rows.append([engine_label(k[0]), k[1], k[2], format_number(x), format_number(y), ratio])
    if not rows:
        return []
    return [
        Heading(2, "Capacity under a latency bound"),
        Paragraph(
            "The highest rate whose intended-time percentile stayed within the bound (`python -m analysis rate`)."
        ),
        Table(["engine", "workload", "bound", "A ops/s", "B ops/s", "B / A"], rows, align_right_from=3),
    ]


def verdict_agreement(a: list[FindingResult], b: list[FindingResult]) -> tuple[list[list[str]], str]:
    """The published findings' verdicts on both sides, as rows (finding, A, B, same?), and a sentence that
    counts them: how many of the findings judged on either side got the same verdict on both (pure)."""
    verdicts_a, verdicts_b = ({r.label: r.status for r in side} for side in (a, b))
    labels = list(dict.fromkeys([*verdicts_a, *verdicts_b]))
    rows, judged, same = [], 0, 0
    for label in labels:
        va, vb = verdicts_a.get(label, NOT_MEASURED), verdicts_b.get(label, NOT_MEASURED)
        if va == NOT_MEASURED and vb == NOT_MEASURED:
            continue
        judged += 1
        same += va == vb
        rows.append([label, va, vb, "same" if va == vb else "differs"])
    if not judged:
        return rows, "No published finding is judged on either side."
    differ = [f"{r[0]} ({r[1]} in A, {r[2]} in B)" for r in rows if r[3] == "differs"]
    sentence = (
        f"The published findings' verdicts (the report's Findings, each judged on its own run's figures and "
        f"noise) are the same on {same} of the {judged} findings judged on either side ({same / judged:.0%})"
        + (f"; they differ on {'; '.join(differ)}" if differ else "")
        + "."
    )
    return rows, sentence


def findings_blocks(a: RunData, b: RunData) -> list[Block]:
    from .report_verdicts import judged_findings

    rows, sentence = verdict_agreement(judged_findings(a).findings, judged_findings(b).findings)
    blocks: list[Block] = [Heading(2, "Findings"), Paragraph(sentence)]
    if rows:
        blocks.append(Table(["Finding", "A", "B", "verdict"], rows, align_right_from=4))
    return blocks


def lone_shard_warnings(sides: dict[str, RunData]) -> list[str]:
    """Per side that holds only some parts of a sharded matrix (`run --shard I/N`), what it lacks: its
    figures cover those parts' cells only, so a ratio may be missing for a reason other than the run (pure)."""
    warnings = []
    for name, run in sides.items():
        missing = run.suite.get("missing_parts") or []
        if missing:
            warnings.append(
                f"{name} holds only some parts of a sharded matrix: {', '.join(missing)} "
                f"{'is' if len(missing) == 1 else 'are'} missing, so the cells of "
                f"{'that part' if len(missing) == 1 else 'those parts'} are not compared; give every part's "
                "directory, comma-separated"
            )
    return warnings


def side_directories(text: str) -> list[Path]:
    """A side's results directories: comma-separated, a merged report's directory standing for its parts."""
    from .report import merged_parts

    directories = []
    for d in (Path(d) for d in text.split(",") if d):
        directories += merged_parts(d) or [d]
    return directories


def main(argv: list[str]) -> int:
    """`python -m analysis compare`."""
    p = argparse.ArgumentParser(
        prog="python -m analysis compare", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument(
        "dir_a",
        help="results directory A (several, comma-separated, merge like `report DIR...`; or a merged report's)",
    )
    p.add_argument("dir_b", help="results directory B (likewise)")
    p.add_argument("--out", type=Path, help="write the Markdown here (default: print it)")
    p.add_argument(
        "--allow-mixed",
        action="store_true",
        help="compare (and merge a side's) runs even if their counts or machines differ; the output says so",
    )
    args = p.parse_args(argv)
    sides = [side_directories(side) for side in (args.dir_a, args.dir_b)]
    for d in (d for side in sides for d in side):
        if not any(d.glob("*/*/cell.json")):
            merged = (d / "report.md").is_file() and not (d / "suite.json").is_file()
            print(
                f"compare: {d} holds no suite results"
                + (
                    " (a report merged before merged.json named its parts: give the parts, comma-separated)"
                    if merged
                    else ""
                ),
                file=sys.stderr,
            )
            return 2
    try:
        a, b = (load_runs(side, allow_mixed=args.allow_mixed) for side in sides)
        rate_a, rate_b = (run_rate(run, args.allow_mixed) for run in (a, b))
    except ValueError as e:
        print(f"compare: {e}", file=sys.stderr)
        return 2
    mixed = count_problems("A", a.suite, "B", b.suite)
    if mixed and not args.allow_mixed:
        print(
            f"compare: {'; '.join(mixed)}: their figures are not like for like (--allow-mixed compares them "
            "all the same)",
            file=sys.stderr,
        )
        return 2
    warnings = lone_shard_warnings({"A": a, "B": b}) + [f"compared although {m}" for m in mixed]
    for w in warnings:
        print(f"compare: WARNING: {w}", file=sys.stderr)
    blocks = comparison_blocks(a, b, compare_runs(a, b)) + capacity_blocks(rate_a, rate_b) + findings_blocks(a, b)
    blocks[1:1] = [Paragraph(f"**WARNING: {w}**") for w in warnings]
    markdown = to_markdown(blocks)
    if args.out:
        args.out.write_text(markdown)
        print(args.out)
    else:
        print(markdown, end="")
    return 0


if __name__ == "__main__":  # the old entry point: say where the command went rather than do nothing
    sys.exit(f"python -m analysis.compare is now: python -m analysis compare {' '.join(sys.argv[1:])}".rstrip())
