"""A one-line progress bar over the matrix with elapsed time and ETA, on stderr."""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from typing import TextIO

# Off a terminal (a log, CI) the bar prints a line per cell; a long step would leave the log silent for minutes,
# so the current line is printed again when none was for this long.
HEARTBEAT_SECONDS = 30.0


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
    """Redraws one line on a terminal; prints a line per change of cell elsewhere (logs, CI), and the current line
    again when none was printed for `heartbeat` seconds (a thread ticks while the bar runs; `close` stops it)."""

    def __init__(
        self,
        total_weight: float,
        cells_total: int,
        stream: TextIO = sys.stderr,
        clock: Callable[[], float] = time.monotonic,
        heartbeat: float = HEARTBEAT_SECONDS,
        ticking: bool = True,
    ) -> None:
        self.total_weight = max(total_weight, 1e-9)
        self.cells_total = cells_total
        self.stream = stream
        self.clock = clock
        self.start = clock()
        self.tty = hasattr(stream, "isatty") and stream.isatty()
        self.heartbeat = heartbeat
        self._last_width = 0
        self._last_cell = ""
        self._current: tuple[int, float, str] | None = None  # what the last update said: cells, weight, label
        self._printed_at = self.start
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        if ticking and not self.tty and heartbeat > 0:
            self._thread = threading.Thread(target=self._tick_until_closed, name="progress-heartbeat", daemon=True)
            self._thread.start()

    def _line(self, cells_done: int, weight_done: float, label: str) -> str:
        return format_progress(
            weight_done / self.total_weight, cells_done, self.cells_total, label, self.clock() - self.start
        )

    def _print(self, line: str) -> None:
        self.stream.write(line + "\n")
        self._printed_at = self.clock()

    def update(self, cells_done: int, weight_done: float, cell: str, step: str = "") -> None:
        label = f"{cell} {step}".strip()
        with self._lock:
            line = self._line(cells_done, weight_done, label)
            self._current = (cells_done, weight_done, label)
            if self.tty:
                self.stream.write("\r" + line.ljust(self._last_width))
                self._last_width = len(line)
            elif cell != self._last_cell:
                self._print(line)
            self._last_cell = cell
            self.stream.flush()

    def tick(self) -> None:
        """Off a terminal: the current line again (its elapsed time moved on) when none was printed for
        `heartbeat` seconds, so that a log shows a long step is still running."""
        with self._lock:
            if self.tty or self._current is None or self.clock() - self._printed_at < self.heartbeat:
                return
            cells_done, weight_done, label = self._current
            self._print(self._line(cells_done, weight_done, label) + " (still running)")
            self.stream.flush()

    def _tick_until_closed(self) -> None:
        while not self._stop.wait(min(1.0, self.heartbeat)):
            self.tick()

    def message(self, text: str) -> None:
        """A line above the bar (a failed cell), without breaking it."""
        with self._lock:
            if self.tty:
                self.stream.write("\r" + " " * self._last_width + "\r")
            self._print(text)
            self.stream.flush()

    def close(self) -> None:
        """Stops the heartbeat's thread (finish does too)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join()

    def finish(self, cells_done: int) -> None:
        self.close()
        with self._lock:
            line = format_progress(1.0, cells_done, self.cells_total, "done", self.clock() - self.start)
            self.stream.write(("\r" + line.ljust(self._last_width) if self.tty else line) + "\n")
            self.stream.flush()
