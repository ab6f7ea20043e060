"""The report's "Busy machine" section: which measured figures were taken while other processes kept
more than NOISY_CORES of a core busy (each step records the machine's busy CPU beside the JVM's own),
so that a reader can tell a disturbed number from a real one."""

from __future__ import annotations

from .render import Block, Heading, Paragraph, Table
from .results import RunData
from .scale import NOISY_CORES, is_scale_cell
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
