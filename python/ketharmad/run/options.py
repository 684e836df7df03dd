"""How a call runs its games, as one value (issue 23): :class:`RunOptions`.

>>> import ketharmad
>>> fast = ketharmad.RunOptions(threads=8, chunk_size=50_000, progress=True)
>>> ketharmad.simulate(["ner", "tisza"], games=200_000, run=fast)
>>> ketharmad.matchups(games_per_side=500, run={"threads": 4, "rows": False})

Every entry point that plays games (:func:`ketharmad.simulate`, :func:`ketharmad.matchups`,
:func:`ketharmad.tournament`, :func:`ketharmad.sweep`, :func:`ketharmad.card_stats`,
:func:`ketharmad.balance`) takes ``run=``: None (the defaults), a :class:`RunOptions` or a dict
of its fields. The values are checked once, when the value is built, with the messages the
entry points always gave. The older keywords (``threads=``, ``chunk_size=``, ...) still work
until 0.3.0, with a DeprecationWarning (:func:`fold_run_options`).

None of the fields changes a result: the same seeds give the same games on any number of
threads, in any chunk size, on any executor or cluster, with or without a progress line, and
the tables are the same from rows or from reductions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Optional, TypeVar, Union

from .._deprecation import fold_keywords
from .._options import OptionsValue
from ..game.validate import check_chunk_size, check_flag, check_threads
from .cluster import check_cluster_arg

__all__ = ["RunOptions", "RunArg", "RUN_FIELDS", "fold_run_options"]

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True, repr=False)
class RunOptions(OptionsValue):
    """How a call runs its games (none of it changes a result).

    * ``threads``: core threads, 1 to 1024; None = all cores (on a cluster: 1 per shard).
    * ``chunk_size``: games per shard of the plan runner (None: one shard per cell; with
      ``progress`` about 1/50 of the batch; on a cluster ``CLUSTER_SHARD_GAMES``). It bounds
      the working memory, not the result.
    * ``executor``: None, or a ``concurrent.futures.Executor`` the shards are submitted to.
    * ``cluster``: run on Dask (the ``dask`` extra, docs/scale_out.md): ``"local"``, a
      scheduler address or a ``dask.distributed.Client``. Not together with ``executor``.
    * ``progress``: write a progress line to stderr as shards finish.
    * ``rows``: keep the per-game rows (True), only integer reductions (False) or decide by
      the run's size (None) (:func:`ketharmad.matchups`, :func:`ketharmad.sweep`,
      :func:`ketharmad.card_stats`).

    Frozen and hashable; picklable when its executor and cluster are (None, or a cluster
    address). A bad value is a ValueError when the value is built.
    """

    threads: Optional[int] = None
    chunk_size: Optional[int] = None
    executor: Any = None
    cluster: Any = None
    progress: bool = False
    rows: Optional[bool] = None

    _arg = "run"
    _item = "option"

    def __post_init__(self) -> None:
        object.__setattr__(self, "threads", check_threads(self.threads))
        object.__setattr__(self, "chunk_size", check_chunk_size(self.chunk_size))
        object.__setattr__(self, "progress", check_flag("progress", self.progress))
        if self.rows is not None:
            object.__setattr__(self, "rows", check_flag("rows", self.rows))
        check_cluster_arg(self.cluster, self.executor)


#: What ``run=`` takes: None, a RunOptions or a dict of its fields.
RunArg = Union[RunOptions, Mapping[str, Any], None]

#: The fields of :class:`RunOptions`, in order.
RUN_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(RunOptions))


def _fold(call: str, takes: tuple[str, ...], run: Any, old: dict[str, Any]) -> RunOptions:
    """The one ``run=`` of a call from its ``run`` and its deprecated run keywords ``old``:
    a field given both ways is a ValueError, and so is a field the call does not use."""
    opts = RunOptions.folded(call, run, old)
    unused = [k for k in opts.changed() if k not in takes]
    if unused:
        raise ValueError(
            f"{call}() does not use run.{', run.'.join(unused)} (it uses {', '.join(takes)})"
        )
    return opts


def fold_run_options(*names: str) -> Callable[[F], F]:
    """Decorator of an entry point that takes ``run=`` and used to take the run keywords
    ``names`` (each a :class:`RunOptions` field): an old keyword still works until 0.3.0 with
    a DeprecationWarning naming ``run=RunOptions(name=...)``, and is folded into ``run=``.
    ``run=`` reaches the function as a checked :class:`RunOptions` that sets only ``names``."""
    bad = [n for n in names if n not in RUN_FIELDS]
    if bad:
        raise ValueError(f"not RunOptions fields: {', '.join(bad)}")
    return fold_keywords("run", names, _fold, example="run=RunOptions({fields})")
