"""Numbers as the published pages print them: three significant digits, thousands separated."""

from __future__ import annotations

import math

# A size's binary units as --memory takes them and the report prints a budget.
BINARY_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}


def format_number(value: float | None) -> str:
    """779000 -> '779,000'; 88.4 -> '88'; 7.34 -> '7.3'; 0.0123 -> '0.012'."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if value == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(value)))
    if magnitude >= 2:
        rounded = round(value, -(magnitude - 2))
        return f"{int(rounded):,}"
    if magnitude >= 1:
        return f"{value:.0f}"
    return f"{value:.{1 - magnitude}f}"


def format_compact(value: float | None) -> str:
    """A rate in a narrow cell: 180000 -> '180k'; 1234567 -> '1.2M'; 850 -> '850'; 7.34 -> '7.3'."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    rounded = float(f"{value:.3g}")  # 999,950 is '1.0M', not '1,000k'
    for limit, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(rounded) >= limit:
            return format_number(rounded / limit) + suffix
    return format_number(value)


def format_figure(value: float | None, unit: str) -> str:
    return "—" if value is None else f"{format_number(value)} {unit}"


def format_seconds(value: float | None) -> str:
    """0.0123 -> '0.012', 2.345 -> '2.35': three decimals below a second, two above."""
    return "—" if value is None else f"{value:.3f}" if value < 1 else f"{value:.2f}"


def format_open_close(opened: float | None, closed: float | None) -> str:
    """A step's open and close times, '0.012 / 0.345' (seconds)."""
    return "—" if opened is None or closed is None else f"{format_seconds(opened)} / {format_seconds(closed)}"


def format_ratio(ratio: float | None) -> str:
    """1.354 -> '1.35x'; 0.0031 -> '0.0031x'."""
    if ratio is None or math.isnan(ratio):
        return "—"
    if ratio >= 0.1:
        return f"{ratio:.2f}x"
    return f"{ratio:.2g}x"


def format_count(value: float | None) -> str:
    """A count, or a median of counts: 22.0 -> '22', 1234 -> '1,234', 22.5 -> '22.5'."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return f"{int(value):,}" if value == int(value) else f"{value:,.1f}"


MB = 2**20  # level and file sizes in MB as the engines count them (a "10m" target is 10 MB)


def format_mb(n_bytes: float | None) -> str:
    """12_582_912 -> '12 MB'."""
    return "—" if n_bytes is None else f"{format_number(n_bytes / MB)} MB"


def format_level_shape(files_per_level: list[int] | tuple[int, ...]) -> str:
    """[4, 17, 39, 0, 0, 0, 0] -> 'L0 4 · L1 17 · L2 39': files per level, empty deepest levels left out."""
    depth = max((i + 1 for i, n in enumerate(files_per_level) if n), default=0)
    if depth == 0:
        return "no table files" if files_per_level else "—"
    return " · ".join(f"L{i} {format_count(n)}" for i, n in enumerate(files_per_level[:depth]))


def format_level_one(l1_bytes: float | None, target_bytes: float | None, estimated: bool) -> str:
    """'L1 ~34 MB vs 10 MB target (3.40x)'; '~' where the size is files x target file size."""
    if l1_bytes is None:
        return "L1 size unknown"
    if l1_bytes == 0:
        return f"L1 empty ({format_mb(target_bytes)} target)" if target_bytes else "L1 empty"
    size = ("~" if estimated else "") + format_mb(l1_bytes)
    if not target_bytes:
        return f"L1 {size}, no fixed target (dynamic level sizes)"
    return f"L1 {size} vs {format_mb(target_bytes)} target ({format_ratio(l1_bytes / target_bytes)})"


def format_budget(size: int) -> str:
    """1073741824 -> '1g', 805306368 -> '768m' (pure)."""
    for unit in ("t", "g", "m", "k"):
        if size % BINARY_UNITS[unit] == 0:
            return f"{size // BINARY_UNITS[unit]}{unit}"
    return str(size)
