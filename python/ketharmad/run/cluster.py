"""Scale out on Dask distributed: the ``cluster=`` argument of the batch calls.

``cluster=`` is ``"local"`` (a :class:`dask.distributed.LocalCluster` of one single-threaded
worker process per core, made for the call and closed at its end), a scheduler address
(``"tcp://host:8786"``; a client is connected for the call and closed at its end) or a
:class:`dask.distributed.Client` (used as it is and left open). The plan runner
(:mod:`ketharmad.run.plan`) submits its shards to the client's executor; results are the
same as on one machine (docs/scale_out.md).

On first contact every worker reports its ketharmad version, a fingerprint of its engine
build (the outcomes of a fixed small batch) and the hash of its packaged card data; a worker
that differs from the client is refused with a message naming it and the difference. Every
shard checks the same identity on the worker that runs it (once per worker process), so a
worker that joins later is held to it too.

Dask is an optional dependency: ``pip install 'ketharmad[dask]'``.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import functools
import hashlib
import os
from collections.abc import Callable, Iterator
from typing import Any, Optional

from .. import _core
from ..game.data import CARD_SETS, _packaged_text, load_card_data

__all__ = [
    "CLUSTER_SHARD_GAMES",
    "ClusterExecutor",
    "VersionMismatch",
    "check_cluster_arg",
    "check_workers",
    "executor_for",
    "identity",
    "local_client",
    "open_client",
]

#: Games per shard on a cluster when the call gives no ``chunk_size``. A shard has a fixed
#: cost of about 10 ms of worker time (scheduling, pickling the shard with its card text, the
#: round trip, converting and shipping its frames; benches/scale_out.py measured 9.5 ms), and
#: 10,000 heuristic games take 1-1.5 s on one core, so the fixed cost stays under 1 % while a
#: 2-player matchup table (10 pairs x 2 sides) of 10^6 games still makes 100 shards to spread
#: and a lost worker loses at most a second or two of work per shard it held.
CLUSTER_SHARD_GAMES = 10_000

DASK_EXTRA = "cluster= needs Dask distributed: pip install 'ketharmad[dask]'"


class VersionMismatch(RuntimeError):
    """A worker runs another ketharmad version, engine build or card data than the client."""


def _require_dask() -> Any:
    try:
        import distributed
    except ImportError as e:
        raise ImportError(f"{DASK_EXTRA} ({e})") from None
    return distributed


def _engine_fingerprint() -> str:
    """16 hex digits: the outcomes (seed, winner, turns, rounds, end reason, actions) of 12
    two-player and 12 four-player random-bot games with the packaged card data. Two builds
    that play any of them differently have different fingerprints."""
    text = load_card_data(None)
    h = hashlib.sha256()
    for decks in (["ner", "tisza"], ["ner", "tisza", "osszefogas", "radikalisok"]):
        raw = _core.simulate(text, decks, ["random"] * len(decks), 12, 20260417, 1, {})
        for key in ("seed", "winner", "turns", "rounds", "end_reason", "actions"):
            h.update(key.encode())
            h.update(raw["games"][key].tobytes())
    return h.hexdigest()[:16]


def _card_data_hash() -> str:
    """The core's hash of every packaged card set, in a fixed order."""
    parts = []
    for name in sorted(CARD_SETS):
        try:
            parts.append(f"{name}={_core.card_data_hash(_packaged_text(name))}")
        except RuntimeError:  # a set this install does not ship
            parts.append(f"{name}=missing")
    return ";".join(parts)


@functools.lru_cache(maxsize=1)
def identity() -> dict[str, str]:
    """What client and workers must share: ``ketharmad`` (the version), ``core`` (the engine
    build's fingerprint) and ``card_data`` (the packaged card sets' hashes)."""
    return {
        "ketharmad": _core.version(),
        "core": _engine_fingerprint(),
        "card_data": _card_data_hash(),
    }


def local_identity() -> dict[str, str]:
    """The client's identity (a seam for tests)."""
    return identity()


def _differences(expected: dict[str, str], got: dict[str, str]) -> list[str]:
    names = {
        "ketharmad": "ketharmad version",
        "core": "engine build",
        "card_data": "packaged card data",
    }
    return [
        f"{names.get(k, k)} {got.get(k)!r} (client: {expected[k]!r})"
        for k in expected
        if got.get(k) != expected[k]
    ]


def _mismatch_message(where: str, diffs: list[str]) -> str:
    return (
        f"worker {where} differs from this client: {'; '.join(diffs)}. Every worker must run "
        "the same ketharmad build and card data as the client (install the same wheel or image "
        "on every machine); results would not be the same games otherwise"
    )


def check_workers(client: Any, expected: Optional[dict[str, str]] = None) -> int:
    """Compare every worker's :func:`identity` with ``expected`` (default: this process's);
    raises :class:`VersionMismatch` naming the first worker that differs and how. Returns the
    number of workers checked."""
    want = local_identity() if expected is None else expected
    got = client.run(identity)
    for addr, ident in sorted(got.items()):
        diffs = _differences(want, ident)
        if diffs:
            raise VersionMismatch(_mismatch_message(addr, diffs))
    return len(got)


def checked_call(expected: dict[str, str], fn: Callable[..., Any], *args: Any) -> Any:
    """Run ``fn(*args)`` on a worker after checking its identity (cached per process)."""
    diffs = _differences(expected, identity())
    if diffs:
        raise VersionMismatch(_mismatch_message(f"pid {os.getpid()}", diffs))
    return fn(*args)


class ClusterExecutor(cf.Executor):
    """A ``concurrent.futures`` executor over a Dask client (its ``get_executor()``), with
    the plan runner's defaults for cluster runs: ``shard_games`` games per shard and
    ``shard_threads`` core threads per shard. Every task checks the worker's identity first.
    ``cancel_all()`` cancels every task it submitted at once (Ctrl-C, a failed shard)."""

    def __init__(self, client: Any, shard_threads: Optional[int] = 1,
                 shard_games: int = CLUSTER_SHARD_GAMES) -> None:  # fmt: skip
        self.client = client
        self.shard_threads = shard_threads
        self.shard_games = shard_games
        self._inner = client.get_executor(pure=False)
        self._expected = local_identity()

    @property
    def shard_window(self) -> int:
        """Shards the plan runner keeps in flight: 4 per worker thread (at least 64)."""
        try:
            threads = sum(self.client.nthreads().values())
        except Exception:  # noqa: BLE001 - a client that cannot say: the runner's default
            return 0
        return max(64, 4 * threads)

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> cf.Future[Any]:
        if kwargs:
            raise TypeError("ClusterExecutor.submit takes positional arguments only")
        return self._inner.submit(checked_call, self._expected, fn, *args)

    def cancel_all(self) -> None:
        self._inner.shutdown(wait=False)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        self._inner.shutdown(wait=wait and not cancel_futures)


def check_cluster_arg(cluster: Any, executor: Any = None) -> None:
    """``ValueError`` for ``executor=`` with ``cluster=`` or a ``cluster`` that is neither
    None, ``"local"``, an address string nor a Dask client; ``ImportError`` naming the extra
    when Dask is not installed. Starts nothing."""
    if cluster is None:
        return
    if executor is not None:
        raise ValueError(
            "give executor= or cluster=, not both (a Client's get_executor() is what cluster= uses)"
        )
    if isinstance(cluster, str):
        if not cluster.strip():
            raise ValueError(
                "cluster= must be 'local', a scheduler address or a dask.distributed.Client, got ''"
            )
        _require_dask()
        return
    distributed = _require_dask()
    if not isinstance(cluster, distributed.Client):
        raise ValueError(
            "cluster= must be 'local', a scheduler address ('tcp://host:8786') or a "
            f"dask.distributed.Client, got {type(cluster).__name__}"
        )


def local_client(n_workers: Optional[int] = None, threads_per_worker: int = 1, **kw: Any) -> Any:
    """A client of a new :class:`~dask.distributed.LocalCluster`: ``n_workers`` worker
    processes (default: one per core), ``threads_per_worker`` threads each, the dashboard on a free port (``client.dashboard_link``).
    ``client.close(); client.cluster.close()`` ends it (or use it as a context manager)."""
    distributed = _require_dask()
    if n_workers is None:
        try:
            n = len(os.sched_getaffinity(0))  # the cores this process may use
        except (AttributeError, OSError):
            n = os.cpu_count() or 1
    else:
        n = n_workers
    if n < 1:
        raise ValueError(f"a local cluster needs at least one worker, got {n}")
    cluster = distributed.LocalCluster(
        n_workers=n, threads_per_worker=threads_per_worker, processes=True,
        dashboard_address=":0", **kw,
    )  # fmt: skip
    return distributed.Client(cluster)


def _close(client: Any) -> None:
    cluster = getattr(client, "cluster", None)
    with contextlib.suppress(Exception):
        client.close()
    if cluster is not None:
        with contextlib.suppress(Exception):
            cluster.close()


@contextlib.contextmanager
def open_client(cluster: Any) -> Iterator[Any]:
    """The Dask client ``cluster=`` names, checked (:func:`check_workers`); a client this
    opened (``"local"`` or an address) is closed when the block ends, a given one is not."""
    check_cluster_arg(cluster)
    distributed = _require_dask()
    own = not isinstance(cluster, distributed.Client)
    if not own:
        client = cluster
    elif cluster == "local":
        client = local_client()
    else:
        try:
            # the connect timeout is Dask's: distributed.comm.timeouts.connect (30 s)
            client = distributed.Client(cluster)
        except (OSError, TimeoutError) as e:
            raise ValueError(f"cannot reach the Dask scheduler at {cluster!r}: {e}") from None
    try:
        check_workers(client)
        yield client
    finally:
        if own:
            _close(client)


@contextlib.contextmanager
def executor_for(executor: Any, cluster: Any) -> Iterator[Any]:
    """The executor a call runs its plan on: ``executor`` itself without ``cluster``, else a
    :class:`ClusterExecutor` on :func:`open_client` ``(cluster)`` (shards of
    :data:`CLUSTER_SHARD_GAMES` games on one core thread each unless the call says
    otherwise)."""
    if cluster is None:
        yield executor
        return
    check_cluster_arg(cluster, executor)
    with open_client(cluster) as client:
        ex = ClusterExecutor(client)
        try:
            yield ex
        except BaseException:
            ex.cancel_all()
            raise
