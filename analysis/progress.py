"""A one-line progress bar over the matrix with elapsed time and ETA, on stderr."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO


def format_duration(seconds: float | None) -> str:
    if seconds is None:
        return "--:--"
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def estimate_remaining(fraction: float, elapsed: float) -> float | None:
    """Time left if the rest goes at the pace so far; None before there is a pace."""
    if fraction <= 0 or elapsed <= 0:
        return None
    return elapsed * (1 - min(fraction, 1.0)) / fraction


def format_progress(
    fraction: float, cells_done: int, cells_total: int, label: str, elapsed: float, width: int = 24
) -> str:
    filled = int(round(width * min(max(fraction, 0.0), 1.0)))
    bar = "#" * filled + "." * (width - filled)
    eta = estimate_remaining(fraction, elapsed)
    return (
        f"[{bar}] {fraction * 100:3.0f}% {cells_done}/{cells_total} cells | "
        f"elapsed {format_duration(elapsed)} | ETA {format_duration(eta)} | {label}"
    )


class ProgressBar:
    """Redraws one line on a terminal; prints a line per change of cell elsewhere (logs, CI)."""

    def __init__(
        self,
        total_weight: float,
        cells_total: int,
        stream: TextIO = sys.stderr,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.total_weight = max(total_weight, 1e-9)
        self.cells_total = cells_total
        self.stream = stream
        self.clock = clock
        self.start = clock()
        self.tty = hasattr(stream, "isatty") and stream.isatty()
        self._last_width = 0
        self._last_cell = ""

    def update(self, cells_done: int, weight_done: float, cell: str, step: str = "") -> None:
        fraction = weight_done / self.total_weight
        line = format_progress(
            fraction, cells_done, self.cells_total, f"{cell} {step}".strip(), self.clock() - self.start
        )
        if self.tty:
            self.stream.write("\r" + line.ljust(self._last_width))
            self._last_width = len(line)
        elif cell != self._last_cell:
            self.stream.write(line + "\n")
        self._last_cell = cell
        self.stream.flush()

    def message(self, text: str) -> None:
        """A line above the bar (a failed cell), without breaking it."""
        if self.tty:
            self.stream.write("\r" + " " * self._last_width + "\r")
        self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self, cells_done: int) -> None:
        line = format_progress(1.0, cells_done, self.cells_total, "done", self.clock() - self.start)
        self.stream.write(("\r" + line.ljust(self._last_width) if self.tty else line) + "\n")
        self.stream.flush()
