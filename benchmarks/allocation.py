"""Bytes allocated per operation, split by operation and by layer, from a bin/ycsb step's JFR allocation samples.

usage: python3 benchmarks/allocation.py RECORDING.jfr YCSB_STDOUT [THREAD]

RECORDING.jfr: the step run with JAVA_OPTS="-XX:TLABSize=256k -XX:-ResizeTLAB
-XX:StartFlightRecording=settings=benchmarks/allocation.jfc,filename=..." (jdk.ObjectAllocationSample only; the JVM
samples at a thread's allocation-buffer refills, and fixed 256 KB buffers give thousands of samples a run where the
default growing ones give hundreds); YCSB_STDOUT: the step's stdout, whose "[OP], Operations, N" lines give each
operation's count; THREAD: the client thread (client-0). Each sample's weight is what its thread allocated since its
previous sample, so the weights of the samples taken in the client thread's loop add up to what the loop allocated
(the driver's `-p allocation.report=true` line gives that total exactly); a sample is charged to the operation whose
CoreWorkload method is on its stack and to the layer of the first frame, from the allocation site down, in one of
the layers below. YCSB's result map filled by a binding's put is the workload's map, not the binding's.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter

LAYERS = [
    ("site/ycsb/embedded/harness/", "driver"),
    ("site/ycsb/measurements/", "driver"),
    ("org/HdrHistogram/", "driver"),
    ("site/ycsb/embedded/workload/", "workload"),
    ("site/ycsb/embedded/", "binding"),
    ("site/ycsb/", "workload"),
    ("org/lmdbjava/", "library"),
    ("jnr/", "library"),
    ("org/sqlite/", "library"),
    ("org/fusesource/", "library"),
    ("org/iq80/", "library"),
    ("org/rocksdb/", "library"),
]
OPERATIONS = {
    "doTransactionRead": "READ",
    "doTransactionUpdate": "UPDATE",
    "doTransactionInsert": "INSERT",
    "doInsert": "INSERT",
    "doTransactionScan": "SCAN",
    "doTransactionReadModifyWrite": "READ-MODIFY-WRITE",
}
Frame = dict[str, dict[str, dict[str, str]]]


def class_of(frame: Frame) -> str:
    return frame["method"]["type"]["name"]


def layer(frames: list[Frame]) -> str:
    """The layer of the first frame in a known layer; the workload's map when a binding's put grew it."""
    for i, frame in enumerate(frames):
        for prefix, name in LAYERS:
            if class_of(frame).startswith(prefix):
                if name == "binding" and i > 0 and class_of(frames[i - 1]).startswith("java/util/HashMap"):
                    return "workload (its map)"
                return name
    return "other"


def operation(frames: list[Frame]) -> str | None:
    for frame in frames:
        if class_of(frame).startswith("site/ycsb/") and frame["method"]["name"] in OPERATIONS:
            return OPERATIONS[frame["method"]["name"]]
    return None


def site(frames: list[Frame], depth: int = 3) -> str:
    return " < ".join(f"{class_of(f).rsplit('/', 1)[-1]}.{f['method']['name']}" for f in frames[:depth])


def counts(stdout: str) -> dict[str, int]:
    found = re.findall(r"^\[([A-Z-]+)\], Operations, (\d+)", stdout, re.M)
    return {op: int(n) for op, n in found}


def main(recording: str, stdout_file: str, thread: str = "client-0") -> None:
    printed = subprocess.run(
        ["jfr", "print", "--json", "--stack-depth", "64", "--events", "jdk.ObjectAllocationSample", recording],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ops = counts(open(stdout_file).read())
    by_layer: Counter[tuple[str, str]] = Counter()
    by_site: Counter[tuple[str, str, str, str]] = Counter()
    samples = 0
    for event in json.loads(printed)["recording"]["events"]:
        values = event["values"]
        if (values.get("eventThread") or {}).get("javaName") != thread or not values.get("stackTrace"):
            continue
        frames = values["stackTrace"]["frames"]
        op = operation(frames)
        if op is None or op not in ops:
            continue
        weight = int(values["weight"])
        samples += 1
        by_layer[(op, layer(frames))] += weight
        by_site[(op, layer(frames), values["objectClass"]["name"], site(frames))] += weight
    print(f"{recording}: {samples} samples in {thread}'s operations; bytes per operation of each kind")
    for op in sorted({op for op, _ in by_layer}):
        n = ops[op]
        total = sum(w for (o, _), w in by_layer.items() if o == op)
        layers = ", ".join(f"{name} {w / n:.0f}" for (o, name), w in by_layer.most_common() if o == op)
        print(f"{op} ({n} operations): {total / n:.0f} = {layers}")
        for (o, name, cls, where), w in by_site.most_common():
            if o == op and w / n >= 4:
                print(f"    {w / n:6.0f}  {name:20s} {cls:36s} {where}")


if __name__ == "__main__":
    main(*sys.argv[1:4])
