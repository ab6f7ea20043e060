"""The report's sections about noise: "Run-to-run spread" (this machine's spread per kind of step, as the
run measured it on the cells it repeated, and the rule the findings follow) and "Busy machine" (which
measured figures were taken while other processes kept more than NOISY_CORES of a core busy: each step
records the machine's busy CPU beside the JVM's own), so that a reader can tell a disturbed number from a
real one."""

from __future__ import annotations

from ..results.noise import KINDS, NOISE_PROBES, NOISE_REPEATS, Noise
from ..results.results import RunData
from ..results.scale import NOISY_CORES, is_scale_cell
from .formatting import format_number
from .render import Block, Heading, Paragraph, Table
from .tables import engine_label


def noisy_steps(cells: list[dict]) -> tuple[list[tuple[str, str, str, float]], int]:
    """(engine, scenario, variant, other cores) of every measured step taken on a busy machine, and how
    many measured steps recorded the machine's CPU at all (pure)."""
    noisy, recorded = [], 0
    for cell in cells:
        for steps in cell.get("repeats", []):
            for step in steps:
                other = (step.get("resources") or {}).get("other_cpu_cores")
                if not step.get("measured") or other is None:
                    continue
                recorded += 1
                if other > NOISY_CORES:
                    noisy.append((cell["engine"], cell["scenario"], step.get("variant") or "", other))
    return noisy, recorded


def noise_blocks(run: RunData) -> list[Block]:
    """Nothing when no step recorded the machine's CPU (results from before it was recorded)."""
    noisy, recorded = noisy_steps(run.cells)
    if not recorded:
        return []
    blocks: list[Block] = [Heading(2, "Busy machine")]
    if not noisy:
        return blocks + [
            Paragraph(f"No measured step ran while other processes used more than {NOISY_CORES:.0%} of a core.")
        ]
    worst: dict[tuple[str, str], float] = {}
    for engine, scenario, _, other in noisy:
        worst[(engine, scenario)] = max(worst.get((engine, scenario), 0.0), other)
    rows = [[engine_label(e), s, f"{o:.2f}"] for (e, s), o in worst.items()]
    scale = sum(1 for c in run.cells if is_scale_cell(c))
    return blocks + [
        Paragraph(
            f"{len(noisy)} of {recorded} measured steps ran while other processes kept more than "
            f"{NOISY_CORES:.0%} of a core busy (the machine's busy CPU from /proc/stat less the step's own JVM): "
            "their figures may be low"
            + (" (the At-scale section marks its figures one by one)" if scale else "")
            + ". Per cell, the most the others used:"
        ),
        Table(["Engine", "Scenario", "other processes, cores"], rows, align_right_from=2),
    ]


def spread_blocks(noise: Noise, judged: bool = True) -> list[Block]:
    """How noisy this machine was per kind of step, from which repeated figures, and the rule; nothing when
    the run repeated nothing. judged: the run has findings the rule applies to."""
    if not noise.bands:
        return []
    rows = []
    for kind in KINDS:
        band = noise.bands.get(kind)
        if band is None:
            rows.append([kind, "—", "not measured (no repeated figure of this kind)"])
            continue
        f = band.figure
        runs = ", ".join(format_number(v) for v in f.values)
        rows.append(
            [
                kind,
                f"{band.spread * 100:.1f} %",
                f"{engine_label(f.engine)} {f.scenario}{' ' + f.variant if f.variant else ''}: {runs} {f.unit}"
                + (f" (the widest of {band.repeated} repeated figures)" if band.repeated > 1 else ""),
            ]
        )
    probes = ", ".join(f"{scenario} ({kind})" for kind, scenario in NOISE_PROBES.items())
    rule = (
        " A finding decided by the margin between two engines' figures compares the margin with the wider of "
        "their two spreads (a figure's own over its repeats; a figure of one run takes its kind's, above): "
        "within it, the finding is 'too close to call'."
        if judged
        else ""
    )
    return [
        Heading(2, "Run-to-run spread"),
        Paragraph(
            f"Every run repeats one cell of each kind of step {NOISE_REPEATS} times, when it has that scenario "
            f"({probes}, on the first engine of the run that runs it), and `--repeat` or `--full` repeat more. "
            "A kind's spread is the widest (max - min) / median of the run's repeated figures of that kind, on the "
            "clock the findings read (in operations where timed). Load: a fill (YCSB's load phase); read: point "
            "reads only; write: a run that inserts, updates or deletes; scan: scans or full ordered passes." + rule
        ),
        Table(
            ["Kind of step", "Spread", "Measured on (each run's figure)"],
            rows,
            align_right_from=1,
            text_columns=frozenset({2}),
        ),
    ]
