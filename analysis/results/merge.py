"""Several results directories as one run: what must agree for them to be merged into one report (the
machine, the counts), the parts of a sharded matrix none of them holds, and their suites as one (pure).
"""

from __future__ import annotations

from pathlib import Path

# What must agree for runs to be merged into one report: the machine they measured (not its name:
# shards on identical hosts are the point) and the counts they ran with.
MACHINE_KEYS = ("cpu", "cores", "memory_bytes", "os", "kernel", "filesystem", "disk", "jdk")
COUNT_KEYS = ("mode", "repeat", "cap", "exporter", "memory_bytes")  # memory_bytes: --memory, the budget


def _described(value: object) -> str:
    return "none" if value is None else str(value)


def count_problems(first: object, suite0: dict, other: object, suite: dict) -> list[str]:
    """Why two runs' figures are not like for like: the counts they ran with differ (mode, repeat, cap,
    exporter, memory budget). The one rule that `report` (merging) and `compare` (pairing) both follow (pure)."""
    return [
        f"counts differ: {key} is {_described(suite0.get(key))} in {first} but {_described(suite.get(key))} in {other}"
        for key in COUNT_KEYS
        if suite.get(key) != suite0.get(key)
    ]


def merge_problems(runs: list[tuple[Path, dict, dict]]) -> list[str]:
    """Why (directory, suite, machine) runs should not be one report: machines or counts that differ,
    peers given other properties (pure)."""
    problems = []
    (first, suite0, machine0), rest = runs[0], runs[1:]
    for directory, suite, machine in rest:
        for key in MACHINE_KEYS:
            if machine.get(key) != machine0.get(key):
                problems.append(
                    f"machines differ: {key} is {_described(machine0.get(key))} in {first} "
                    f"but {_described(machine.get(key))} in {directory}"
                )
        problems += count_problems(first, suite0, directory, suite)
        peers0 = {p["engine"]: p.get("properties") for p in suite0.get("peers") or []}
        for peer in suite.get("peers") or []:
            if peer["engine"] in peers0 and peers0[peer["engine"]] != peer.get("properties"):
                problems.append(
                    f"peer {peer['engine']} ran with {peer.get('properties')} in {directory} "
                    f"but {peers0[peer['engine']]} in {first}"
                )
    return problems


def missing_parts(suites: list[dict]) -> list[str]:
    """The parts of a sharded matrix (`run --shard I/N`) that none of these runs holds, as 'part 2/3' (pure)."""
    shards = {(s["shard"][0], s["shard"][1]) for s in suites if s.get("shard")}
    return [
        f"part {i}/{count}"
        for count in sorted({n for _, n in shards})
        for i in range(1, count + 1)
        if (i, count) not in shards
    ]


def merged_suite(runs: list[tuple[Path, dict, dict]]) -> dict:
    """One suite.json for several runs: the first's settings, every run's cells, engines and peers, and
    where each part came from."""
    suite = dict(runs[0][1])
    if len(runs) == 1:
        return suite
    suite["cells"] = [c for _, s, _ in runs for c in s.get("cells", [])]
    suite["engines"] = list(dict.fromkeys(e for _, s, _ in runs for e in s.get("engines", [])))
    peers: dict[str, dict] = {}
    for _, s, _ in runs:
        for peer in s.get("peers") or []:
            peers.setdefault(peer["engine"], peer)
    suite["peers"] = list(peers.values())
    suite["merged_from"] = [
        {
            "directory": str(d),
            "host": m.get("hostname"),
            "shard": s.get("shard"),
            "command": s.get("command"),
            "started": s.get("started"),
            "revision": s.get("revision"),
        }
        for d, s, m in runs
    ]
    suite["started"] = min((s.get("started") or "?") for _, s, _ in runs)
    return suite
