"""This machine's run-to-run spread, measured by the run itself, per kind of step.

A figure taken once has no spread of its own, so a verdict decided by its margin over another engine
cannot tell a real lead from the machine's noise. Every `analysis run` therefore repeats a few cheap
cells, one per kind of step (NOISE_PROBES: the kind's scenario on the first engine of the run that runs
it, NOISE_REPEATS times), and the report takes, per kind, the widest spread ((max - min) / median over the
repeats) of any figure of that kind the run repeated: the probes, and every cell `--repeat` or `--full`
repeated. A figure with repeats of its own is judged by its own spread; a figure of one run by its kind's.

The kinds, from a scenario's measured step: **load** (YCSB's load phase: a fill), **scan** (a run with scans
or full ordered passes), **write** (a run that inserts, updates, deletes or read-modify-writes), **read**
(a run of point reads only).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..catalogue.model import ENGINE_LABELS, Scenario
from ..catalogue.scenarios import SCENARIOS_BY_ID
from ..catalogue.workloadfile import stacked_properties
from .results import Figure

KINDS: tuple[str, ...] = ("load", "read", "write", "scan")
# The cell each kind's spread is measured on, when the run has that scenario: cheap in --quick.
NOISE_PROBES: Mapping[str, str] = {"load": "seqwrite", "read": "randread", "scan": "seqread", "write": "workloada"}
NOISE_REPEATS = 3

WORKLOADS = Path(__file__).resolve().parents[2] / "workloads"
_SCAN_PROPORTIONS = ("scanproportion", "readseqproportion")
_WRITE_PROPORTIONS = ("updateproportion", "insertproportion", "readmodifywriteproportion", "deleteproportion")


def _share(props: Mapping[str, str], name: str) -> float:
    try:
        return float(props.get(name, "0"))
    except ValueError:
        return 0.0


def step_kind(phase: str, props: Mapping[str, str]) -> str:
    """The kind of a step from its phase and its workload's operation proportions (pure)."""
    if phase == "load":
        return "load"
    if any(_share(props, p) > 0 for p in _SCAN_PROPORTIONS):
        return "scan"
    if any(_share(props, p) > 0 for p in _WRITE_PROPORTIONS):
        return "write"
    return "read"


@cache
def kind_of(scenario_id: str, variant: str = "", workloads: Path = WORKLOADS) -> str | None:
    """The kind of a scenario's measured step (catalogue and workload files); None for a scenario the
    catalogue does not know, or whose workload files are missing."""
    scenario = SCENARIOS_BY_ID.get(scenario_id)
    if scenario is None:
        return None
    step = next((s for s in scenario.steps if s.measured and s.variant == variant), None)
    if step is None:
        return None
    if step.phase == "load":
        return "load"
    files = [workloads / name for name in step.workloads]
    if not all(f.is_file() for f in files):
        return None
    return step_kind(step.phase, {**stacked_properties(files), **dict(step.props)})


def probe_cells(
    rows: list[str], scenarios: Iterable[Scenario], repeats: Mapping[str, int], noise_repeats: int = NOISE_REPEATS
) -> dict[tuple[str, str], int]:
    """(engine, scenario) -> repeats of the cells that measure the noise: per kind, its probe scenario when
    the run has it, on the first of the run's rows that runs it, unless that scenario already runs
    noise_repeats times or more (--repeat, --full) (pure)."""
    selected = {s.id: s for s in scenarios}
    cells = {}
    for scenario_id in NOISE_PROBES.values():
        scenario = selected.get(scenario_id)
        if scenario is None or repeats.get(scenario_id, 1) >= noise_repeats:
            continue
        engine = next((e for e in rows if scenario.runs_on(e)), None)
        if engine is not None:
            cells[(engine, scenario_id)] = noise_repeats
    return cells


@dataclass(frozen=True)
class Band:
    """A kind's run-to-run spread: the widest of the run's repeated figures of that kind."""

    kind: str
    spread: float
    figure: Figure  # the figure that set it
    repeated: int  # how many repeated figures of that kind there were

    def source(self) -> str:
        """'LevelDB 1.13 (leveldbjni) randread, 3 runs'."""
        f = self.figure
        test = f.scenario + (f" {f.variant}" if f.variant else "")
        widest = f"widest of {self.repeated} repeated figures: " if self.repeated > 1 else ""
        return f"{widest}{ENGINE_LABELS.get(f.engine, f.engine)} {test}, {len(f.values)} runs"

    def describe(self) -> str:
        """'read 4.2 % (LevelDB 1.13 (leveldbjni) randread, 3 runs)'."""
        return f"{self.kind} {self.spread * 100:.1f} % ({self.source()})"


@dataclass(frozen=True)
class Noise:
    """The noise of each figure: its own spread when repeated, else its kind's band."""

    bands: Mapping[str, Band]

    def of(self, figure: Figure | None) -> float | None:
        if figure is None:
            return None
        if figure.spread is not None:
            return figure.spread
        kind = kind_of(figure.scenario, figure.variant)
        band = self.bands.get(kind) if kind else None
        return band.spread if band else None

    def band_of(self, figure: Figure) -> Band | None:
        """The band a one-run figure is judged by; None when it has repeats of its own or no band applies."""
        if figure.spread is not None:
            return None
        kind = kind_of(figure.scenario, figure.variant)
        return self.bands.get(kind) if kind else None


def measure_noise(figures: Iterable[Figure]) -> Noise:
    """Per kind, the widest spread among the figures with two or more runs (pure but for the catalogue)."""
    by_kind: dict[str, list[Figure]] = {}
    for f in figures:
        if f.spread is None:
            continue
        kind = kind_of(f.scenario, f.variant)
        if kind is not None:
            by_kind.setdefault(kind, []).append(f)
    bands = {}
    for kind in KINDS:
        repeated = by_kind.get(kind, [])
        if repeated:
            widest = max(repeated, key=lambda f: f.spread or 0.0)
            bands[kind] = Band(kind, widest.spread or 0.0, widest, len(repeated))
    return Noise(bands)


NO_NOISE = Noise({})
