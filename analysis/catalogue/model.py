"""The scenario model: a Step, a Scenario, and the suite's engines they run on.

A scenario is one published test (or one family of variants of it), one scale cell, or a user's workload file.
The suite runs it on each engine it applies to as one *cell*: a fresh data directory, then its steps in order,
each step one `bin/ycsb load|run <engine> -P <workload>...` in its own JVM. Steps marked `measured` give the
scenario's figure; a scenario with variants (threads, rows per transaction) measures one step per variant.

The published catalogue (scenarios.py), the scale group (scale_group.py) and the user's own workload files
(own_workloads.py) build their scenarios from this module, which imports none of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from .engines import REGISTERED

# The suite's engines, their labels and bindings: the registry's (bin/bindings.properties). A suite engine is
# a binding (bin/ycsb's engine name) plus the properties that pick its library: one binding may run as several
# suite engines, so that the report shows what its library costs.
ENGINES: tuple[str, ...] = tuple(e.name for e in REGISTERED.engines)
ENGINE_LABELS: Mapping[str, str] = {e.name: e.label for e in REGISTERED.engines}
ENGINE_BINDINGS: Mapping[str, str] = {e.name: e.binding for e in REGISTERED.engines if e.binding != e.name}
ENGINE_PROPS: Mapping[str, tuple[tuple[str, str], ...]] = {e.name: e.props for e in REGISTERED.engines if e.props}
# One suite engine per binding: the scenarios outside the 2011 page's sections run each binding once.
BINDING_ENGINES: tuple[str, ...] = tuple(e for e in ENGINES if e not in ENGINE_BINDINGS)


def binding_of(engine: str) -> str:
    """The bin/ycsb engine (and the binding's "[name]" prefix in its output) of a suite engine."""
    return ENGINE_BINDINGS.get(engine, engine)


def rows_of(binding: str) -> tuple[str, ...]:
    """The suite engines that run through a binding (its rows in the report), in the registry's order."""
    return tuple(e for e in ENGINES if binding_of(e) == binding)


# An upstream YCSB binding run beside ours (`--peer`) is an engine named "<binding>@ycsb-<version>":
# its results directory, its rows in the report and its label all come from that one name.
PEER_MARK = "@ycsb-"


def peer_id(binding: str, version: str) -> str:
    return f"{binding}{PEER_MARK}{version}"


def is_peer(engine: str) -> bool:
    return PEER_MARK in engine


def peer_label(engine: str) -> str:
    """'basic@ycsb-0.17.0' -> 'basic (YCSB 0.17.0)': the binding's name and its tree's version."""
    binding, _, version = engine.partition(PEER_MARK)
    return f"{binding} (YCSB {version})"


# Return codes a step may report without failing; a scenario that expects misses allows more.
OK_RETURNS: frozenset[str] = frozenset({"OK", "BATCHED_OK"})
# Reads after a fill that drew its keys with replacement: the keys it did not draw are NOT_FOUND.
MISSES_ALLOWED: frozenset[str] = OK_RETURNS | {"NOT_FOUND"}

# The fills that draw each key with replacement (loadorder=replacement), as the program behind their
# published figure did (db_bench's fillrandom and its SQLite and TreeDB ports; RocksDB's db_bench
# fillrandom): about 63 % of the keys distinct. YCSB's own workloads keep the permutation.
DRAWN_FILLS: frozenset[str] = frozenset(
    {"randwrite", "batch-randwrite", "sync-randwrite", "largevalue-randwrite", "tinykeys", "kv1000"}
)

# What a scenario's figure is, and its unit.
METRIC_UNITS: Mapping[str, str] = {
    "ops": "ops/sec",  # YCSB's [OVERALL] throughput of the measured step
    "entries": "entries/sec",  # [READSEQ] entries/sec: a full ordered pass counts its entries
    "batch": "entries/sec",  # [OVERALL] throughput of a batched load: one operation = one entry
    "elapsed_ms": "ms",  # [OVERALL] run time of the measured step
}


@dataclass(frozen=True)
class Step:
    """One `bin/ycsb` call of a cell."""

    phase: str  # "load" or "run"
    workloads: tuple[str, ...]  # files in workloads/, stacked with -P in this order
    measured: bool = True  # this step gives the scenario's figure
    variant: str = ""  # what this measured step varies ("" for a plain scenario)
    props: tuple[tuple[str, str], ...] = ()  # extra -p name=value; "{recordcount}" is replaced
    records: int | None = None  # fixed recordcount in both modes (a variant's size)
    quick_records: int | None = None  # recordcount in --quick (default: the scenario's)
    quick_operations: int | None = None  # operationcount in --quick (default: the scenario's)
    operation_scale: int = 1  # operationcount is per thread: multiply by this
    in_quick: bool = True  # False: only with --full (too long for a quick run)
    allowed_returns: frozenset[str] = OK_RETURNS
    seconds: float | None = None  # a timed step: YCSB's maxexecutiontime; it may end before operationcount
    quick_timed: bool = True  # --quick may time it (runner.quick_timed); False: its work is finite or long enough
    engine_workloads: tuple[tuple[str, str], ...] = ()  # (engine, file): stacked after workloads for that engine
    heap: str | None = None  # the JVM's -Xmx (None: the JVM's default)
    traced: bool = False  # a trace replay: ends with its trace, at most at its count (parse.traced_expectation)

    @property
    def name(self) -> str:
        """A file-name-safe label: phase, first workload (a '/' becomes '-'; a user's file by its name) and variant."""
        first = PurePath(self.workloads[0])
        label = first.name if first.is_absolute() else self.workloads[0].replace("/", "-")
        parts = [self.phase, label] + ([self.variant] if self.variant else [])
        return "-".join(parts)

    def workloads_for(self, engine: str) -> tuple[str, ...]:
        return self.workloads + tuple(f for e, f in self.engine_workloads if e == engine)


@dataclass(frozen=True)
class Scenario:
    id: str
    section: str  # report section id: a 2011 page section ("1", "2A", ...) or another page's ("fastdb", "ycsb", ...)
    title: str
    what: str  # what one measured operation is
    engines: tuple[str, ...]
    steps: tuple[Step, ...]
    metric: str = "ops"  # a key of METRIC_UNITS
    order: str = ""  # "sequential" or "random" where the published table splits so
    baseline: str | None = None  # scenario whose same-engine figure is "1.00x baseline"
    quick_records: int | None = None  # None: the workload file's recordcount
    quick_operations: int | None = None  # None: the workload file's operationcount
    bytes_per_operation: int | None = None  # key + value bytes, for MB/s
    engine_notes: Mapping[str, str] = field(default_factory=dict)
    bindings: Mapping[str, str] = field(default_factory=dict)  # engine -> its bin/ycsb engine here, if not binding_of
    drawn: bool = False  # its load draws keys with replacement (a user's file with loadorder=replacement)
    source: str = ""  # a user's workload file: where it came from (`run --workload FILE`)

    @property
    def unit(self) -> str:
        return METRIC_UNITS[self.metric]

    @property
    def variants(self) -> tuple[str, ...]:
        return tuple(s.variant for s in self.steps if s.measured)

    def runs_on(self, engine: str) -> bool:
        """Whether this scenario applies to the engine: a peer runs the scenarios every engine of ours
        runs (the ones with one engine's own tuning, like SQLite's shared cache, are not for it)."""
        return engine in self.engines or (is_peer(engine) and set(BINDING_ENGINES) <= set(self.engines))

    def binding_for(self, engine: str) -> str:
        """The bin/ycsb engine that runs this scenario for a suite engine (SQLite's columns client, or binding_of)."""
        return self.bindings.get(engine, binding_of(engine))

    @property
    def keys_drawn(self) -> bool:
        """Whether the scenario's fill draws its keys with replacement (DRAWN_FILLS, or a user's file says so)."""
        return self.drawn or any(s.phase == "load" and s.workloads[0] in DRAWN_FILLS for s in self.steps)

    def workload_files(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for step in self.steps:
            for name in (*step.workloads, *(f for _, f in step.engine_workloads)):
                seen.setdefault(name, None)
        return tuple(seen)


def load_step(*workloads: str, **kw: Any) -> Step:
    """A load of the workload files, stacked in this order."""
    return Step("load", tuple(workloads), **kw)


def run_step(*workloads: str, **kw: Any) -> Step:
    """A run of the workload files, stacked in this order."""
    return Step("run", tuple(workloads), **kw)
