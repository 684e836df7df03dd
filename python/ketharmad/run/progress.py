"""A small progress line on stderr for long (chunked) runs: games done, games/s, time left."""

from __future__ import annotations

import sys
import time
from typing import Optional, Protocol, TextIO

__all__ = ["Meter", "Progress", "auto_chunk_size"]


class Meter(Protocol):
    """What the plan runner calls on its ``progress`` hook (a :class:`Progress` is one)."""

    def advance(self, games: int) -> None: ...
    def interrupt(self) -> None: ...


_BAR_WIDTH = 24


def auto_chunk_size(games: int) -> int:
    """A chunk size for progress reporting: about 50 chunks, never fewer than 2,000 games (so
    every chunk still keeps all cores busy), never more than 50,000."""
    return max(2_000, min(50_000, -(-games // 50)))


def _duration(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {(seconds % 3600) // 60:02d} min"


class Progress:
    """Counts games done out of ``total`` and redraws one status line on ``stream``.

    On a terminal the line is redrawn in place (``\\r``); otherwise (a log file, a captured
    stream) a full line is written at most every ``log_interval`` seconds, plus a last one.
    A disabled Progress does nothing, so callers never need to branch.
    """

    def __init__(
        self,
        total: int,
        label: str = "",
        enabled: bool = True,
        stream: Optional[TextIO] = None,
        log_interval: float = 5.0,
    ) -> None:
        self.total = max(0, int(total))
        self.label = label
        self.enabled = bool(enabled)
        self.stream = stream if stream is not None else sys.stderr
        self.done = 0
        self.start = time.perf_counter()
        self._last_write = -1e9
        self._log_interval = log_interval
        self._closed = False
        try:
            self._tty = bool(self.stream.isatty())
        except (AttributeError, ValueError):
            self._tty = False

    def line(self) -> str:
        """The current status text (without line ending)."""
        elapsed = time.perf_counter() - self.start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        frac = self.done / self.total if self.total else 1.0
        filled = int(round(frac * _BAR_WIDTH))
        bar = "#" * filled + "-" * (_BAR_WIDTH - filled)
        if self.done >= self.total:
            left = f"done in {_duration(elapsed)}"
        elif rate > 0:
            left = f"~{_duration((self.total - self.done) / rate)} left"
        else:
            left = "time left: -"
        head = f"{self.label}: " if self.label else ""
        return (
            f"{head}[{bar}] {self.done:,}/{self.total:,} games ({100.0 * frac:.0f}%)  "
            f"{rate:,.0f} games/s  {left}"
        )

    def advance(self, games: int) -> None:
        """Record ``games`` more games done and redraw the line if it is time to."""
        self.done += int(games)
        if not self.enabled:
            return
        now = time.perf_counter()
        if self._tty:
            self.stream.write("\r" + self.line())
            self.stream.flush()
        elif now - self._last_write >= self._log_interval and self.done < self.total:
            self.stream.write(self.line() + "\n")
            self.stream.flush()
            self._last_write = now

    def interrupt(self) -> None:
        """End the line after Ctrl-C (once): the games done so far, marked "interrupted"."""
        if self._closed:
            return
        self._closed = True
        if not self.enabled:
            return
        self.stream.write(("\r" if self._tty else "") + self.line() + "  interrupted\n")
        self.stream.flush()

    def close(self) -> None:
        """Write the final line (once)."""
        if self._closed:
            return
        self._closed = True
        if not self.enabled:
            return
        self.stream.write(("\r" if self._tty else "") + self.line() + "\n")
        self.stream.flush()
