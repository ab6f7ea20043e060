"""What a step cost, as figures: CPU per 1,000 operations, peak memory, bytes written, write and
space amplification (pure: the measuring is in resources.py; throughput inside operations is tidy.py's,
from the timing layer's file).

User data is what YCSB asked the engine to store, not what the engine stores for it: a key's bytes
plus fieldcount x fieldlength value bytes for an insert (one field, or all with writeallfields=true,
for an update). The bare record layout (fieldcount=1) stores exactly these value bytes; the fields
layout adds each field's name and length, which counts as the engine's overhead here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

# YCSB core's keys are "user" + a hashed number: 4 + up to 19 digits; most hashes have 18 or 19.
YCSB_KEY_BYTES = 23
BINARY_KEY_BYTES = 8  # keyformat=binary: 8-byte big-endian


@dataclass(frozen=True)
class StepShape:
    """What one operation of a step writes, and how many client threads run it."""

    key_bytes: int
    insert_bytes: int  # key + every field
    update_bytes: int  # key + the fields an update writes
    threads: int = 1
    key_estimated: bool = False  # YCSB core's keys vary in length: YCSB_KEY_BYTES is an estimate
    fields: int = 10  # the record's shape as YCSB saw it (fieldcount, fieldlength): what the report states
    field_bytes: int = 100
    scan_records: float = 0.0  # records one scan returns on average (a uniform length: (1 + maxscanlength) / 2)


def _int(props: Mapping[str, str], name: str, default: int) -> int:
    try:
        return int(float(props.get(name, default)))
    except ValueError:
        return default


def step_shape(props: Mapping[str, str]) -> StepShape:
    """The shape of a step from the properties YCSB sees (workload files, then -p) (pure)."""
    key_format = props.get("keyformat", "ycsb")
    if key_format == "decimal":
        key, estimated = _int(props, "keylength", 16), False
    elif key_format == "binary":
        key, estimated = BINARY_KEY_BYTES, False
    else:
        key, estimated = YCSB_KEY_BYTES, True
    fields, length = _int(props, "fieldcount", 10), _int(props, "fieldlength", 100)
    all_fields = props.get("writeallfields", "false").lower() == "true"
    longest = _int(props, "maxscanlength", 1000)
    uniform = props.get("scanlengthdistribution", "uniform") == "uniform"
    return StepShape(
        key_bytes=key,
        insert_bytes=key + fields * length,
        update_bytes=key + (fields if all_fields else 1) * length,
        threads=max(1, _int(props, "threadcount", 1)),
        key_estimated=estimated,
        fields=fields,
        field_bytes=length,
        scan_records=(1 + longest) / 2 if uniform else float(longest),
    )


def user_bytes_written(counts: Mapping[str, int], shape: StepShape) -> int:
    """Bytes of user data a step's operations wrote: inserts and updates their records, a delete its key.
    (A READ-MODIFY-WRITE's update is in UPDATE's count: YCSB measures both.)"""
    return (
        counts.get("INSERT", 0) * shape.insert_bytes
        + counts.get("UPDATE", 0) * shape.update_bytes
        + counts.get("DELETE", 0) * shape.key_bytes
    )


def user_bytes_stored(
    phase: str, recordcount: int, counts: Mapping[str, int], shape: StepShape, loaded: int | None = None
) -> int:
    """Bytes of user data in the database after a step: what a load inserted, or the loaded records
    plus a run's inserts less its deletes. `loaded`: the distinct records a load that drew its keys
    with replacement left (about 63 % of its inserts), None when every insert wrote its own key."""
    inserted = counts.get("INSERT", 0)
    if phase == "load":
        live = inserted if loaded is None else loaded
    else:
        live = (recordcount if loaded is None else loaded) + inserted - counts.get("DELETE", 0)
    return max(live, 0) * shape.insert_bytes


def _ratio(numerator: float | None, denominator: float | None) -> float | None:
    if numerator is None or not denominator:
        return None
    return numerator / denominator


def cost_columns(
    resources: Mapping | None,
    phase: str,
    recordcount: int,
    counts: Mapping[str, int],
    operations: int | None,
    loaded: int | None = None,
) -> dict:
    """The COST_COLUMNS of one step's OVERALL row from cell.json's `resources` (pure)."""
    if not resources:
        return {}
    shape = (
        StepShape(
            resources["key_bytes"],
            resources["insert_bytes"],
            resources["update_bytes"],
            resources.get("threads", 1),
            resources.get("key_estimated", False),
        )
        if "insert_bytes" in resources
        else None
    )
    cpu = None
    if resources.get("user_seconds") is not None:
        # the launcher's warm-up ran in the same JVM before YCSB's clock: not this step's cost
        cpu = max(0.0, resources["user_seconds"] + resources["system_seconds"] - resources.get("warmup_cpu_seconds", 0))
    written = resources.get("written_bytes")
    if written is not None:
        written = max(0, written - resources.get("warmup_written_bytes", 0))
    user_written = user_bytes_written(counts, shape) if shape else None
    stored = user_bytes_stored(phase, recordcount, counts, shape, loaded) if shape else None
    on_disk = resources.get("allocated_bytes")
    return {
        "cpu_seconds": cpu,
        "cpu_seconds_per_1000_ops": _ratio(cpu * 1000 if cpu is not None else None, operations),
        "peak_rss_bytes": resources.get("peak_rss_bytes"),
        "written_bytes": written,
        "cancelled_write_bytes": resources.get("io_cancelled_write_bytes"),
        "user_bytes_written": user_written,
        "write_amplification": _ratio(written, user_written),
        "db_bytes": on_disk,
        "db_apparent_bytes": resources.get("apparent_bytes"),
        "user_bytes_stored": stored,
        "space_amplification": _ratio(on_disk, stored),
    }


COST_COLUMNS = [
    # db_bench's clock (tidy.inside_columns): operations, or a full pass's entries, per second of the time
    # inside the binding's calls, after the open and before the close; the open and close apart.
    "inside_ops_per_sec",
    "inside_entries_per_sec",
    "open_seconds",
    "close_seconds",
    "cpu_seconds",
    "cpu_seconds_per_1000_ops",
    "peak_rss_bytes",
    "written_bytes",
    "cancelled_write_bytes",
    "user_bytes_written",
    "write_amplification",
    "db_bytes",
    "db_apparent_bytes",
    "user_bytes_stored",
    "space_amplification",
]
