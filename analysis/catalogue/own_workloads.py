"""The user's own workload files (`python -m analysis run --workload FILE`) as scenarios.

A file becomes a scenario named after it: a load (variant "load"), then a run (the scenario's own figure; with
--threads-series one per client thread count, "run-<T>t"), all measured, on every engine row. workloadfile.py
reads and checks the file; scenarios.py registers the run's files for the lookups by id.
"""

from __future__ import annotations

from collections.abc import Mapping

from .model import ENGINES, MISSES_ALLOWED, OK_RETURNS, Scenario, load_step, run_step

OWN_SECTION = "own"
OWN_QUICK_COUNT = 10_000  # --quick: at most this many records and operations, as YCSB's own workloads run
EMBEDDED_WORKLOAD = "site.ycsb.embedded.workload.EmbeddedWorkload"
TRACE_WORKLOAD = "site.ycsb.embedded.workload.TraceWorkload"
MIXGRAPH_WORKLOAD = "site.ycsb.embedded.workload.MixGraphWorkload"
# Workload classes whose records are not fieldcount x fieldlength: the trace's sizes, the model's Pareto values.
SIZED_BY_WORKLOAD = (TRACE_WORKLOAD, MIXGRAPH_WORKLOAD)


def own_scenario(
    id_: str,
    file: str,
    props: Mapping[str, str],
    source: str = "",
    threads: tuple[int, ...] | None = None,
) -> Scenario:
    """The scenario of a user's workload file (pure): `file` is the path its steps read (a copy in the results
    directory), props its properties. In --quick its counts are capped at OWN_QUICK_COUNT, unless it sets
    insertcount (a part of a load split by insertstart: its counts are its own)."""
    embedded = props.get("workload") == EMBEDDED_WORKLOAD
    drawn = embedded and props.get("loadorder") == "replacement"
    deletes = embedded and float(props.get("deleteproportion", "0") or 0) > 0
    # A trace reads keys it deleted, and its seen-key filter may take a new key for a seen one: misses are its own.
    traced = props.get("workload") == TRACE_WORKLOAD
    allowed = MISSES_ALLOWED if drawn or deletes or traced else OK_RETURNS
    records, operations = int(props["recordcount"]), int(props["operationcount"])
    sized = "insertcount" not in props
    runs = (
        tuple(
            run_step(
                file, variant=f"run-{t}t", props=(("threadcount", str(t)),), allowed_returns=allowed, traced=traced
            )
            for t in threads
        )
        if threads
        else (run_step(file, allowed_returns=allowed, traced=traced),)  # the scenario's own figure: the heat map's row
    )
    # A trace's load inserts the keys the trace reads before it writes them: set-up for its run, not a figure.
    load = load_step(file, variant="load", traced=traced, measured=not traced)
    return Scenario(
        id_,
        OWN_SECTION,
        f"Your workload {id_}",
        "one operation of the workload file (a load's insert, a run's request)",
        ENGINES,
        (load, *runs),
        quick_records=min(records, OWN_QUICK_COUNT) if sized else None,
        quick_operations=min(operations, OWN_QUICK_COUNT) if sized else None,
        drawn=drawn,
        source=source,
    )


# The user's workload files of the run being made or read: registered by the suite and by the results reader,
# so that the report's lookups by id find them.
OWN_SCENARIOS: dict[str, Scenario] = {}
