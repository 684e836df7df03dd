"""Batches of one game on the generic harness (:func:`simulate_game`, :func:`game_matchups`),
one core call or shards on an executor or Dask cluster (:func:`run_game_shard`)."""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import polars as pl

from .. import _core
from ..game.data import load_card_data
from ..game.driver import PointOutcomes, driver_for, provide
from ..game.formats import apply_format
from ..game.harness import ParamValue, _game_info
from ..game.spec import spec_of
from ..game.validate import check_decks, check_params, check_start_player
from ..results.games import GameStats
from ..results.sim import SimResult
from ..stats import wilson_interval
from . import live
from .cluster import check_cluster_arg, executor_for
from .plan import _run_on

__all__ = [
    "simulate_game",
    "game_matchups",
    "GameShard",
    "run_game_shard",
    "describe_game_shard",
    "GAME_OUTPUTS",
    "play_point",
    "PointOutcomes",
]


#: What :func:`simulate_game` returns: ``"rows"`` (a :class:`ketharmad.SimResult`) or ``"stats"`` (a
#: :class:`GameStats`: counts, no rows).
GAME_OUTPUTS = ("rows", "stats")


@dataclass(frozen=True, eq=False)
class GameShard:
    """Games ``first_game .. first_game + games - 1`` of one :func:`simulate_game` batch:
    everything :func:`run_game_shard` needs (picklable, so an executor may run it elsewhere).
    ``card_data``/``decks``/``start_player`` are Kétharmad's (None for the other games)."""

    game: str
    bots: tuple[str, ...]
    seed: int
    first_game: int
    games: int
    threads: Optional[int] = None
    params: Optional[dict[str, Any]] = None
    output: str = "rows"
    card_data: Optional[str] = None
    decks: Optional[tuple[str, ...]] = None
    start_player: Optional[int] = None


def run_game_shard(shard: GameShard) -> dict[str, Any]:
    """Play one shard with the core (``_core.generic_simulate``, or ``_core.generic_reduce``
    for ``output="stats"``) and return the core's dict (numpy columns, or counts)."""
    fn = _core.generic_reduce if shard.output == "stats" else _core.generic_simulate
    kw: dict[str, Any] = {}
    if spec_of(shard.game).is_ketharmad:
        kw = {
            "card_data": shard.card_data,
            "decks": list(shard.decks or ()),
            "start_player": shard.start_player,
        }
    return fn(shard.game, list(shard.bots), shard.games, shard.seed, shard.threads, shard.params,
              shard.first_game, **kw)  # fmt: skip


def describe_game_shard(shard: GameShard) -> str:
    """The game, bots, params, game range and seed of a shard (for errors)."""
    params = f", params {shard.params}" if shard.params else ""
    return (f"{shard.game} (bots {list(shard.bots)}{params}): games {shard.first_game}.."
            f"{shard.first_game + shard.games - 1} of the batch with seed {shard.seed}")  # fmt: skip


def _concat_rows(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The core dicts of consecutive shards as one (columns concatenated in order)."""
    if len(parts) == 1:
        return parts[0]
    out = dict(parts[0])
    for table in ("games", "players"):
        cols: dict[str, Any] = {}
        for k, v in parts[0][table].items():
            if isinstance(v, list):
                cols[k] = list(itertools.chain.from_iterable(p[table][k] for p in parts))
            else:
                cols[k] = np.concatenate([p[table][k] for p in parts])
        out[table] = cols
    return out


def _check_output_args(
    output: object, chunk_size: object, executor: Any, cluster: Any
) -> Optional[int]:
    if output not in GAME_OUTPUTS:
        raise ValueError(
            f"output must be one of {', '.join(map(repr, GAME_OUTPUTS))}, got {output!r}"
        )
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1
    ):
        raise ValueError(f"chunk_size must be a whole number >= 1, got {chunk_size!r}")
    check_cluster_arg(cluster, executor)
    return chunk_size


def _run_batch(game: str, bots: list[str], games: int, seed: int, threads: Optional[int], params: Any,
               first_game: int, output: str, chunk_size: Optional[int], executor: Any, cluster: Any,
               **ketharmad: Any) -> dict[str, Any]:  # fmt: skip
    """The core dict of a whole batch: one core call, or (``chunk_size``, ``executor`` or
    ``cluster``) shards of ``chunk_size`` games through :func:`run_game_shard`, run here one
    after the other or on the executor, and joined in game order: rows concatenated, stats
    merged (as each arrives, in order) — the same as one call for any chunk size."""
    shard = functools.partial(GameShard, game, tuple(bots), seed, params=params, output=output,
                              card_data=ketharmad.get("card_data"), start_player=ketharmad.get("start_player"),
                              decks=tuple(ketharmad["decks"]) if ketharmad.get("decks") else None)  # fmt: skip
    if chunk_size is None and executor is None and cluster is None:
        live.plan_started(None, games)
        raw = run_game_shard(shard(first_game, games, threads))
        live.shard_done(None, games, None)
        return {"stats": GameStats.from_core(raw, game, bots, seed)} if output == "stats" else raw
    if isinstance(games, int) and not isinstance(games, bool) and games < 1:
        raise ValueError(f"games must be a positive number, got {games}")

    if executor is not None or cluster is not None:
        # bad bots, parameters or seats are a ValueError here, before any shard is sent
        run_game_shard(shard(first_game, 1, 1))
    with executor_for(executor, cluster) as ex:
        step = chunk_size or (getattr(ex, "shard_games", None) if ex is not None else None) or games
        t = threads if threads is not None or ex is None else getattr(ex, "shard_threads", None)
        work = [
            shard(lo, min(step, first_game + games - lo), t)
            for lo in range(first_game, first_game + games, step)
        ]
        parts: list[Any] = [None] * len(work)
        total: list[Any] = []  # stats: the merge of the shards up to done[0]
        done = [0]

        live.plan_started(None, games)

        def keep(k: int, raw: dict[str, Any]) -> None:
            live.shard_done(None, work[k].games, None)
            if output != "stats":
                parts[k] = raw
                return
            parts[k] = GameStats.from_core(raw, game, bots, seed)
            while (
                done[0] < len(work) and parts[done[0]] is not None
            ):  # merged in order, then dropped
                st = parts[done[0]]
                parts[done[0]] = None
                total[:] = [st if not total else total[0].merge(st)]
                done[0] += 1

        if ex is None:
            for k, w in enumerate(work):
                keep(k, run_game_shard(w))
        else:
            _run_on(ex, work, None, keep, fn=run_game_shard, describe=describe_game_shard)
    if output == "stats":
        return {"stats": total[0]}
    return _concat_rows(parts)


def simulate_game(
    game: str = "schotten_totten_2",
    bots: Optional[Sequence[str]] = None,
    games: int = 1000,
    seed: int = 0,
    threads: Optional[int] = None,
    params: Optional[dict[str, ParamValue]] = None,
    first_game: int = 0,
    *,
    decks: Optional[Sequence[Any]] = None,
    card_data: Any = None,
    format: Optional[Any] = None,
    start_player: Optional[int] = None,
    output: str = "rows",
    chunk_size: Optional[int] = None,
    executor: Any = None,
    cluster: Any = None,
) -> SimResult | GameStats:  # GameStats for output="stats"
    """Play ``games`` seeded games of ``game`` with one bot spec per seat (default: random
    everywhere at the game's smallest seat count). Game ``i`` is the same whatever
    ``threads`` is. Errors (unknown game, parameter, bot or option; wrong seat count) are
    ``ValueError`` naming the problem.

    ``game="ketharmad"`` plays Kétharmad on the generic harness (its stepper adapter, much
    slower than :func:`ketharmad.simulate`, which stays its fast batch): ``decks`` (one per
    seat, default ``["ner", "tisza"]``), ``card_data``, ``format``, ``start_player`` and
    ``params`` mean what they mean for :func:`ketharmad.simulate`; ``bots`` are the built-in
    bots (``"random"``, ``"heuristic"``, ``"aggro"``, ``"control"``, ``"search"``, knobs as
    options: ``"search:iterations=50"``) or ``"ismcts"``, the harness's generic search
    (``"ismcts:iterations=200"``). With built-in bots the games are exactly those of
    :func:`ketharmad.simulate` with the same seed. The Kétharmad-only keywords are refused
    for the other games.

    Big runs (docs/games.md, "Big runs: stats and executors"): ``output="stats"`` returns a
    :class:`GameStats` (wins per seat, games with no winner, unfinished, a turns histogram,
    end-reason counts, the sums of the extra columns; ``.summary()`` as above) reduced in
    the core, no rows, so memory does not grow with ``games``. ``chunk_size`` plays the
    batch as shards of that many games (``first_game`` ranges); ``executor`` (any
    ``concurrent.futures.Executor``: threads, processes, a Dask client's) runs the shards
    through the module-level :func:`run_game_shard`, ``cluster`` (``"local"``, a scheduler
    address or a ``dask.distributed.Client``, as for :func:`ketharmad.simulate`) on Dask;
    shards default to the executor's ``shard_games`` (a cluster's: 10,000) or one shard.
    Rows are concatenated and stats merged in game order: the result is the same as one
    call for any chunk size and executor. With an executor the inputs are checked first by
    playing game ``first_game`` here."""
    out = _check_output_args(output, chunk_size, executor, cluster)
    batch = {"output": output, "chunk_size": out, "executor": executor, "cluster": cluster}
    if isinstance(game, str) and spec_of(game).is_ketharmad:
        return _simulate_ketharmad(bots, games, seed, threads, params, first_game, decks, card_data, format, start_player,
                                   batch)  # fmt: skip
    driver_for(game).refuse("simulate_game", {"decks": decks is not None, "card_data": card_data is not None,
                                              "format": format is not None, "start_player": start_player is not None},
                            "bots, games, seed, threads, params, first_game, output, chunk_size, executor and cluster")  # fmt: skip
    info = _game_info(game)
    if bots is None:
        bots = ["random"] * info["min_seats"]
    if isinstance(bots, str):
        raise ValueError("bots must be a list of bot specs, one per seat")
    bots = list(bots)
    if not info["min_seats"] <= len(bots) <= info["max_seats"]:
        raise ValueError(
            f"{game} takes {info['min_seats']} to {info['max_seats']} seats, got {len(bots)} bots"
            + (f" (seats: {', '.join(info['sides'])})" if info["sides"] else "")
        )
    for b in bots:
        if not isinstance(b, str):
            raise ValueError(
                f"a bot spec must be a string like 'greedy' or 'search:iterations=200', got {b!r}"
            )
    if isinstance(games, bool) or not isinstance(games, int):
        raise ValueError(f"games must be an int, got {games!r}")
    start = time.perf_counter()
    raw = _run_batch(game, bots, games, seed, threads, params, first_game, **batch)
    elapsed = time.perf_counter() - start
    if output == "stats":
        return raw["stats"]
    g = pl.DataFrame(raw["games"])
    p = pl.DataFrame(raw["players"])
    return SimResult.of_harness(game, bots, list(raw["sides"]), seed, g, p, params=params, threads=threads,
                                elapsed=elapsed, first_game=first_game)  # fmt: skip


def _simulate_ketharmad(
    bots: Optional[Sequence[str]],
    games: int,
    seed: int,
    threads: Optional[int],
    params: Any,
    first_game: int,
    decks: Optional[Sequence[Any]],
    card_data: Any,
    format: Optional[Any],
    start_player: Optional[int],
    batch: dict[str, Any],
) -> Any:
    """``simulate_game("ketharmad", ...)``: the inputs checked as :func:`ketharmad.simulate`
    checks them, then the harness batch of ``KetharmadRules``."""
    decks_ = check_decks(["ner", "tisza"] if decks is None else decks)
    if bots is None:
        bots = ["random"] * len(decks_)
    if isinstance(bots, str):
        bots = [bots] * len(decks_)
    bots = list(bots)
    for b in bots:
        if not isinstance(b, str):
            raise ValueError(
                f"a bot spec must be a string like 'heuristic' or 'ismcts:iterations=200', got {b!r}"
            )
    if len(bots) != len(decks_):
        raise ValueError(f"ketharmad: got {len(bots)} bot specs for {len(decks_)} decks")
    if isinstance(games, bool) or not isinstance(games, int):
        raise ValueError(f"games must be an int, got {games!r}")
    text, params_ = apply_format(load_card_data(card_data), check_params(params), format)
    start = check_start_player(start_player, len(decks_))
    t0 = time.perf_counter()
    raw = _run_batch(
        "ketharmad", bots, games, seed, threads, params_ or None, first_game, **batch,
        card_data=text, decks=decks_, start_player=start,
    )  # fmt: skip
    if batch["output"] == "stats":
        return raw["stats"]
    g = pl.DataFrame(raw["games"])
    p = pl.DataFrame(raw["players"])
    return SimResult.of_harness("ketharmad", bots, list(raw["sides"]), seed, g, p, params=params_,
                                threads=threads, elapsed=time.perf_counter() - t0, first_game=first_game)  # fmt: skip


def game_matchups(
    game: str,
    bots: Sequence[str],
    games: int = 1000,
    seed: int = 0,
    threads: Optional[int] = None,
    params: Optional[dict[str, ParamValue]] = None,
    seats: Optional[int] = None,
    field: Optional[str] = None,
    games_for: Optional[Mapping[str, int]] = None,
) -> pl.DataFrame:
    """The bot-pairing table of a game on the generic harness: ``matchups`` with bots as the
    sides (issue 14).

    * A game of two seats (Schotten Totten 2: attacker, defender): every ordered pair of
      ``bots``, one row each: ``seat0_bot, seat1_bot, games, seat0_wins, seat1_wins,
      no_winner, seat0_win_rate, ci_low, ci_high`` (Wilson 95 %), ``games_per_second``.
    * A game of more seats (Osztrakon, ``seats`` = 5..12, default the smallest): every bot
      of ``bots`` against a field of ``field`` (default: every other bot of ``bots`` in turn):
      one seat plays the bot, the others the field, the bot's seat rotating over all seats
      (``games`` split evenly, seat ``s`` in the ``s``-th share). One row each: ``bot, field,
      seats, games, wins, win_rate, ci_low, ci_high, even_share`` (1 / seats),
      ``games_per_second``.

    ``games_for`` lowers the games of a cell whose bot specs contain one of its keys (e.g.
    ``{"search": 500}``). The games of a cell are games ``0 ..`` of :func:`simulate_game`
    with ``seed`` (two-seat games), or the rotation's share of them, so every row can be
    replayed.
    """
    if isinstance(bots, str) or not bots:
        raise ValueError("bots must be a non-empty list of bot specs")
    bots = list(bots)
    info = _game_info(game)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    limits = dict(games_for or {})

    def n_games(specs: Sequence[str]) -> int:
        caps = [v for k, v in limits.items() if any(k in b for b in specs)]
        return min([games, *caps])

    rows = []
    if info["max_seats"] == 2:
        for a in bots:
            for b in bots:
                n = n_games([a, b])
                t = time.perf_counter()
                r = simulate_game(game, [a, b], games=n, seed=seed, threads=threads, params=params)
                assert isinstance(r, SimResult)  # output="rows"
                secs = time.perf_counter() - t
                w0 = int((r.games["winner"] == 0).sum())
                w1 = int((r.games["winner"] == 1).sum())
                lo, hi = wilson_interval(w0, n)
                rows.append({"seat0_bot": a, "seat1_bot": b, "games": n, "seat0_wins": w0, "seat1_wins": w1,
                             "no_winner": n - w0 - w1, "seat0_win_rate": w0 / n, "ci_low": lo, "ci_high": hi,
                             "games_per_second": n / secs})  # fmt: skip
        return pl.DataFrame(rows)
    k = info["min_seats"] if seats is None else seats
    if not info["min_seats"] <= k <= info["max_seats"]:
        raise ValueError(
            f"{game} takes {info['min_seats']} to {info['max_seats']} seats, got seats={k}"
        )
    if field is None and len(bots) < 2:
        raise ValueError("with one bot, name the field it plays against (field='random')")
    for bot in bots:
        for other in [field] if field is not None else [b for b in bots if b != bot]:
            n = n_games([bot, other])
            wins = played = 0
            t = time.perf_counter()
            for s in range(k):
                share = n // k + (1 if s < n % k else 0)
                if share == 0:
                    continue
                lineup = [other] * k
                lineup[s] = bot
                first = s * (n // k) + min(s, n % k)
                r = simulate_game(
                    game,
                    lineup,
                    games=share,
                    seed=seed,
                    threads=threads,
                    params=params,
                    first_game=first,
                )
                assert isinstance(r, SimResult)  # output="rows"
                wins += int(r.players.filter(pl.col("seat") == s)["won"].sum())
                played += share
            secs = time.perf_counter() - t
            lo, hi = wilson_interval(wins, played)
            rows.append({"bot": bot, "field": other, "seats": k, "games": played, "wins": wins,
                         "win_rate": wins / played, "ci_low": lo, "ci_high": hi, "even_share": 1 / k,
                         "games_per_second": played / secs})  # fmt: skip
    return pl.DataFrame(rows)


def play_point(game: str, bots: list[str], games: int, seed: int, threads: Optional[int],
               params: Mapping[str, ParamValue], first_game: int = 0,
               run: Optional[Mapping[str, Any]] = None) -> PointOutcomes:  # fmt: skip
    """Games ``first_game .. first_game + games - 1`` of the batch ``seed`` at ``params``, as
    per-game outcomes; ``run``: the ``chunk_size``/``executor`` of :func:`simulate_game`."""
    return PointOutcomes(simulate_game(game, bots, games=games, seed=seed, threads=threads, params=dict(params),
                                       first_game=first_game, **(run or {})))  # fmt: skip


provide(harness_simulate=simulate_game)
