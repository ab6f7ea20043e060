"""Numbers as the published pages print them: three significant digits, thousands separated."""

from __future__ import annotations

import math


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


def format_figure(value: float | None, unit: str) -> str:
    return "—" if value is None else f"{format_number(value)} {unit}"


def format_ratio(ratio: float | None) -> str:
    """1.354 -> '1.35x'; 0.0031 -> '0.0031x'."""
    if ratio is None or math.isnan(ratio):
        return "—"
    if ratio >= 0.1:
        return f"{ratio:.2f}x"
    return f"{ratio:.2g}x"
