"""Keys drawn with replacement, as the workload class's `loadorder=replacement` draws them.

Insert i of a load writes key SplitMix64(seed, i) mod n (common/.../workload/SplitMix64.java; the
benchmarks' floor.c has the same draw), as db_bench's fillrandom draws uniformly from [0, num) with
repeats. The runner uses it to know how many distinct keys such a load leaves (what a full pass must
count, and what share of uniform reads can find their key).
"""

from __future__ import annotations

import functools

import numpy as np

DEFAULT_LOAD_SEED = 20110727  # the workload class's loadseed default
GAMMA = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


def _mix(z: np.ndarray) -> np.ndarray:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    mixed: np.ndarray = z ^ (z >> np.uint64(31))
    return mixed


def draws(seed: int, count: int, n: int) -> np.ndarray:
    """The key numbers of inserts 0 .. count-1 drawn from [0, n) (uint64 arithmetic wraps as Java's long does)."""
    index = np.arange(1, count + 1, dtype=np.uint64)
    with np.errstate(over="ignore"):
        z = np.uint64(seed & _MASK) + index * np.uint64(GAMMA)
        return _mix(z) % np.uint64(n)


@functools.lru_cache(maxsize=64)
def distinct_keys(records: int, seed: int = DEFAULT_LOAD_SEED, inserts: int | None = None) -> int:
    """Distinct keys a load of `inserts` (default `records`) inserts drawn from [0, records) leaves (about 63 %
    when they are as many; a timed load stops early)."""
    count = records if inserts is None else inserts
    return int(np.unique(draws(seed, count, records)).size) if records > 0 and count > 0 else 0
