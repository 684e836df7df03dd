"""Memory checks of a batch before it runs: the bytes its tables need against the memory
available (cgroup limit or MemAvailable)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Optional

from .. import _core

# Approximate bytes the polars tables of a batch take, per game (measured with
# ``DataFrame.estimated_size()``, rounded up): the ``games`` table, and per seat the
# ``players`` and ``card_records`` tables; with ``record_plays`` about 25 plays per seat and
# game of about 40 bytes each.
_TABLE_BYTES_PER_GAME = {"games": 40}


_TABLE_BYTES_PER_SEAT = {"players": 72, "card_records": 72, "plays": 25 * 40}


_ALL_TABLES = ("games", "players", "card_records")


def _human_bytes(n: float) -> str:
    for unit in ("bytes", "kB", "MB", "GB", "TB", "PB"):
        if n < 1000 or unit == "PB":
            return f"{n:.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1000
    raise AssertionError("unreachable")


def _proc_kib(path: str, key: str) -> Optional[int]:
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def available_memory() -> Optional[int]:
    """Bytes this process can still use, or None when unknown: the least of the system's
    available memory (``MemAvailable``), the cgroup's limit less its usage, and the address
    space limit (``RLIMIT_AS``) less the address space already mapped."""
    limits: list[int] = []
    avail = _proc_kib("/proc/meminfo", "MemAvailable")
    if avail is not None:
        limits.append(avail * 1024)
    else:
        try:
            limits.append(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
        except (AttributeError, ValueError, OSError):
            pass
    try:
        with open("/sys/fs/cgroup/memory.max") as f:
            cap = f.read().strip()
        with open("/sys/fs/cgroup/memory.current") as f:
            used = int(f.read().strip())
        if cap != "max":
            limits.append(max(0, int(cap) - used))
    except (OSError, ValueError):
        pass
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            mapped = _proc_kib("/proc/self/status", "VmSize")
            limits.append(max(0, soft - (mapped or 0) * 1024))
    except (ImportError, OSError, ValueError):
        pass
    return min(limits) if limits else None


def memory_needed(
    n_seats: int, tables: Sequence[str] = _ALL_TABLES, record_plays: bool = False
) -> tuple[int, int]:
    """(bytes per game of the ``tables`` a call keeps, bytes per game of working memory while
    one core call's games are converted: its raw columns plus every table built from them)."""
    plays = ["plays"] if record_plays else []

    def per_game(names: Sequence[str]) -> int:
        return sum(
            _TABLE_BYTES_PER_GAME.get(t, 0) + n_seats * _TABLE_BYTES_PER_SEAT.get(t, 0)
            for t in names
        )

    kept = per_game([*tables, *plays])
    raw = _core.GAME_ROW_BYTES + n_seats * _core.SEAT_ROW_BYTES
    if record_plays:
        raw += n_seats * 25 * _core.PLAY_ROW_BYTES
    return kept, raw + per_game([*_ALL_TABLES, *plays])


def check_memory(
    what: str,
    games: int,
    n_seats: int,
    per_call: int,
    tables: Sequence[str] = _ALL_TABLES,
    record_plays: bool = False,
    chunked: bool = False,
) -> None:
    """Refuse (ValueError) a call whose results would not fit in the memory available, before
    any game runs, saying how much it would need and what would fit."""
    avail = available_memory()
    if avail is None:
        return  # unknown: the core's fallible allocation is the only guard
    kept, work = memory_needed(n_seats, tables, record_plays)
    need = kept * games + work * min(per_call, games)
    if need <= avail:
        return
    call = min(per_call, games)
    fit = max(0, (avail - work * call) // kept) if chunked else max(0, avail // (kept + work))
    advice = f"play fewer games (about {fit:,} games in total would fit)"
    if not chunked and kept * games + work * min(50_000, games) <= avail:
        advice += (
            "; or pass chunk_size=50_000: the result tables fit, only the working memory of "
            "converting all games at once does not"
        )
    raise ValueError(
        f"{what} would need about {_human_bytes(need)} of memory (the result tables, about "
        f"{kept:,} bytes per game, plus about {work:,} bytes per game of working memory for "
        f"each call of {call:,} games), but only about {_human_bytes(avail)} "
        f"is available; {advice}"
    )
