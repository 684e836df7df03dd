"""A hook on the runners for watching a run as it goes (a progressive ``report.html``): the
plan runner (:func:`ketharmad.run.plan.run_plan`) and the task runner tell the watcher of the
current context, if there is one, when a plan starts and when each shard finishes, with the
shard's result. Without a watcher this costs one context-variable lookup per plan and shard.

    with watching(LiveReport("runs/m/report.html")):   # ketharmad.results.live_report
        ketharmad.matchups(...)
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Sequence
from typing import Any, Optional, Protocol, TypeVar

__all__ = ["Watcher", "watching", "current", "plan_started", "shard_done"]


class Watcher(Protocol):
    """What the runners call (a :class:`ketharmad.results.live_report.LiveReport` is one)."""

    def plan_started(self, cells: Optional[Sequence[dict[str, Any]]], games: int) -> None:
        """A plan (or a set of tasks) of ``games`` games starts; ``cells`` describes its
        cells (:meth:`ketharmad.run.plan.Plan.describe`), None for tasks."""

    def shard_done(self, cell: Optional[int], games: int, result: Any) -> None:
        """A shard of ``games`` games of cell ``cell`` (None: a task) finished with
        ``result`` (a :class:`~ketharmad.run.reduce.Stats`, frames, outcome columns, ...)."""


_current: contextvars.ContextVar[Optional[Watcher]] = contextvars.ContextVar(
    "ketharmad_live_watcher", default=None
)

W = TypeVar("W", bound=Watcher)


@contextlib.contextmanager
def watching(watcher: W) -> Iterator[W]:
    """Make ``watcher`` the current context's watcher for the block."""
    token = _current.set(watcher)
    try:
        yield watcher
    finally:
        _current.reset(token)


def current() -> Optional[Watcher]:
    """The current watcher, or None."""
    return _current.get()


def plan_started(describe: Any, games: int) -> None:
    """Tell the watcher (if any) that a plan starts; ``describe`` is called only then (a
    callable returning the cells' descriptions, or None)."""
    w = _current.get()
    if w is not None:
        w.plan_started(describe() if callable(describe) else describe, int(games))


def shard_done(cell: Optional[int], games: int, result: Any) -> None:
    """Tell the watcher (if any) that a shard finished."""
    w = _current.get()
    if w is not None:
        w.shard_done(cell, int(games), result)
