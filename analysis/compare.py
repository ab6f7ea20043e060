"""Compares two results directories (before/after a change, or two machines) as ratios B / A.

python -m analysis compare results/before results/after [--out compare.md]
python -m analysis compare results/a1,results/a2 results/b1,results/b2    each side merged from its shards
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from .formatting import format_figure, format_ratio
from .render import Block, Heading, Paragraph, Table, to_markdown
from .results import Figure, RunData, load_runs
from .tables import engine_label

# For elapsed times lower is better: B / A above 1 is a slowdown there, a speed-up elsewhere.
LOWER_IS_BETTER_UNITS = frozenset({"ms"})


@dataclass(frozen=True)
class Comparison:
    engine: str
    scenario: str
    variant: str
    unit: str
    a: float | None
    b: float | None

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


def compare_figures(a: list[Figure], b: list[Figure]) -> list[Comparison]:
    """Every figure of either run, paired by (engine, scenario, variant), in A's order then B's extras."""
    index_b = {(f.engine, f.scenario, f.variant): f for f in b}
    index_a = {(f.engine, f.scenario, f.variant): f for f in a}
    keys = list(index_a) + [k for k in index_b if k not in index_a]
    out = []
    for key in keys:
        fa, fb = index_a.get(key), index_b.get(key)
        unit = fa.unit if fa else index_b[key].unit
        out.append(Comparison(*key, unit, fa.value if fa else None, fb.value if fb else None))
    return out


def _machine_line(run: RunData) -> str:
    m = run.machine
    parts = run.suite.get("merged_from") or [{"directory": run.directory}]
    where = " + ".join(f"`{p['directory']}`" for p in parts)
    return (
        f"{where}: {run.suite.get('mode', '?')} mode, {m.get('cpu', '?')} ({m.get('cores', '?')} cores), "
        f"{m.get('filesystem', '?')} on {m.get('disk', '?')}, {m.get('jdk', '?')}"
    )


def comparison_blocks(a: RunData, b: RunData, comparisons: list[Comparison]) -> list[Block]:
    rows = []
    for c in comparisons:
        name = c.scenario + (f" / {c.variant}" if c.variant else "")
        rows.append(
            [
                engine_label(c.engine),
                name,
                format_figure(c.a, c.unit),
                format_figure(c.b, c.unit),
                format_ratio(c.ratio),
                format_ratio(c.speedup),
            ]
        )
    both = [c.speedup for c in comparisons if c.speedup is not None]
    faster = sum(1 for s in both if s > 1.05)
    slower = sum(1 for s in both if s < 1 / 1.05)
    return [
        Heading(1, "Comparison of two runs"),
        Paragraph(f"A = {_machine_line(a)}"),
        Paragraph(f"B = {_machine_line(b)}"),
        Paragraph(
            f"{len(both)} figures in both: B is faster on {faster}, slower on {slower} "
            f"(more than 5 % either way). Speed-up is B / A, inverted for times."
        ),
        Table(["Engine", "Scenario", "A", "B", "B / A", "speed-up"], rows, align_right_from=2),
    ]


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


def main(argv: list[str]) -> int:
    """`python -m analysis compare`."""
    p = argparse.ArgumentParser(
        prog="python -m analysis compare", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("dir_a", help="results directory A (several, comma-separated, merge like `report DIR...`)")
    p.add_argument("dir_b", help="results directory B (likewise)")
    p.add_argument("--out", type=Path, help="write the Markdown here (default: print it)")
    p.add_argument("--allow-mixed", action="store_true", help="merge a side's runs even if machines or counts differ")
    args = p.parse_args(argv)
    sides = [[Path(d) for d in side.split(",") if d] for side in (args.dir_a, args.dir_b)]
    for d in (d for side in sides for d in side):
        if not any(d.glob("*/*/cell.json")):
            print(f"compare: {d} holds no suite results", file=sys.stderr)
            return 2
    try:
        a, b = (load_runs(side, allow_mixed=args.allow_mixed) for side in sides)
    except ValueError as e:
        print(f"compare: {e}", file=sys.stderr)
        return 2
    warnings = lone_shard_warnings({"A": a, "B": b})
    for w in warnings:
        print(f"compare: WARNING: {w}", file=sys.stderr)
    blocks = comparison_blocks(a, b, compare_figures(a.figures, b.figures))
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
