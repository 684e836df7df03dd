"""Games on the game-generic harness (issue 14).

>>> import ketharmad
>>> [g["name"] for g in ketharmad.games()]
['ketharmad', 'schotten_totten_2', 'osztrakon']
>>> r = ketharmad.simulate_game("schotten_totten_2", bots=["greedy", "random"], games=2000, seed=1)
>>> r.summary()            # Attacker win rate with a Wilson 95 % interval
>>> r.games, r.players     # polars DataFrames: one row per game / per (game, seat)
>>> s = ketharmad.simulate_game("osztrakon", games=10**6, seed=1, output="stats")  # counts, no rows
>>> s.summary()            # the same table as r.summary(), from integer counts
>>> from concurrent.futures import ProcessPoolExecutor
>>> with ProcessPoolExecutor(4) as ex:   # shards of 50,000 games, same games
...     r = ketharmad.simulate_game("schotten_totten_2", games=10**6, chunk_size=50_000, executor=ex)

Bots are spec strings: ``"random"``, ``"greedy"``, ``"search"``,
``"search:iterations=400,c=0.7,rollout=random"``; ``params`` names any parameter the game
lists in :func:`games` (``{"rules.oil_target": "newest", "wall.gate.intact_cards": 3}``).
"""

from __future__ import annotations

import functools
import itertools
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

import numpy as np
import polars as pl

from . import _core
from .stats import wilson_interval

if TYPE_CHECKING:
    from polars._typing import PolarsDataType  # a DataType instance or class

__all__ = ["games", "simulate_game", "GameResult", "GameStats", "GameShard", "run_game_shard", "game_state",
           "HarnessGame", "GAME_OUTPUTS"]

HarnessGame = _core.HarnessGame

ParamValue = Union[int, float, bool, str]


def games() -> list[dict[str, Any]]:
    """Every game the package simulates, as dicts: ``name``, ``sides`` (side names of an
    asymmetric game; Kétharmad's factions), ``min_seats``, ``max_seats``, ``agents`` (bot
    names), ``action_space``, ``observation_len`` and ``parameters`` (one dict per parameter:
    name, kind, default, min, max, choices, description). All come from the Rust table
    (``_core.game_table``); Kétharmad's parameters are those of the packaged card file (every
    number, switch and choice; the cost parameters are listed by
    :func:`ketharmad.parameters`), its agents the built-in bots plus ``"ismcts"``, the
    generic search of the harness."""
    return list(_core.game_table())


@functools.lru_cache(maxsize=1)
def _table() -> tuple[dict[str, Any], ...]:
    """The game table, built once per process for the checks of every call (``games()`` builds
    a fresh copy for its caller: Kétharmad's entry lists hundreds of parameters)."""
    return tuple(_core.game_table())


def _game_info(game: str) -> dict[str, Any]:
    for g in _table():
        if g["name"] == game:
            return g
    known = ", ".join(g["name"] for g in _table())
    raise ValueError(f"unknown game {game!r} (known: {known})")


@dataclass
class GameResult:
    """A batch of one game on the generic harness."""

    game: str
    bots: list[str]
    sides: list[str]
    seed: int
    games: pl.DataFrame
    players: pl.DataFrame

    def summary(self) -> pl.DataFrame:
        """Per seat: side, bot, wins, games, win rate and its Wilson 95 % interval."""
        n = self.games.height
        rows = []
        for seat, bot in enumerate(self.bots):
            wins = int(self.players.filter(pl.col("seat") == seat)["win"].sum())
            lo, hi = wilson_interval(wins, n)
            rows.append(
                {
                    "seat": seat,
                    "side": self.sides[seat] if seat < len(self.sides) else str(seat),
                    "bot": bot,
                    "wins": wins,
                    "games": n,
                    "win_rate": wins / n if n else float("nan"),
                    "ci_low": lo,
                    "ci_high": hi,
                }
            )
        return pl.DataFrame(rows)

    def attacker_win_rate(self) -> tuple[float, float, float]:
        """Schotten Totten 2: the Attacker's (seat 0) win rate and its Wilson 95 % interval."""
        if self.game != "schotten_totten_2":
            raise ValueError(f"attacker_win_rate is defined for schotten_totten_2, not {self.game!r}")
        s = self.summary().row(0, named=True)
        return (s["win_rate"], s["ci_low"], s["ci_high"])


#: The columns every harness batch has (the Outcome's extra columns come after them).
_BASE_GAME_COLUMNS = frozenset({"game", "seed", "winner", "winners_mask", "turns", "end_reason", "unfinished"})
_BASE_SEAT_COLUMNS = frozenset({"game", "seat", "win", "return"})


@dataclass
class GameStats:
    """The reduction of a batch of one game on the generic harness (``simulate_game(...,
    output="stats")``, ``_core.generic_reduce``): counts instead of rows, so memory does not
    grow with the games. Every field but the float sums is an integer count, so the stats of
    consecutive game ranges :meth:`merge` into exactly those of the whole range.

    Attributes: ``games`` (games counted), ``wins`` (per seat; a game with several winners
    counts for each), ``no_winner`` (games nobody won: draws and unfinished games),
    ``shared`` (games with more than one winner), ``unfinished`` (stopped by a safety cap),
    ``turns`` ({turns: games}, the game's own unit), ``end_reasons`` ({reason: games}),
    ``game_sums`` ({extra per-game column: its sum}), ``seat_sums`` ({extra per-seat column:
    one sum per seat}), ``return_sums`` (per seat). The sums are exact while the values are
    whole numbers below 2^53 (every count column); a fractional column (Osztrakon's
    ``read_noise``) may differ in its last bits between shard sizes."""

    game: str
    bots: list[str]
    sides: list[str]
    seed: int
    games: int
    wins: list[int]
    no_winner: int
    shared: int
    unfinished: int
    turns: dict[int, int] = field(default_factory=dict)
    end_reasons: dict[str, int] = field(default_factory=dict)
    game_sums: dict[str, float] = field(default_factory=dict)
    seat_sums: dict[str, list[float]] = field(default_factory=dict)
    return_sums: list[float] = field(default_factory=list)

    @classmethod
    def from_core(cls, raw: Mapping[str, Any], game: str, bots: Sequence[str], seed: int) -> "GameStats":
        """From the dict of ``_core.generic_reduce``."""
        return cls(game=game, bots=list(bots), sides=list(raw["sides"]), seed=seed, games=int(raw["games"]),
                   wins=[int(w) for w in raw["wins"]], no_winner=int(raw["no_winner"]), shared=int(raw["shared"]),
                   unfinished=int(raw["unfinished"]), turns={int(k): int(v) for k, v in raw["turns"].items()},
                   end_reasons=dict(sorted(raw["end_reasons"].items())),
                   # an extra column named like a base column ("winner": Osztrakon's) shadows it in
                   # the rows; its sum is no statistic (a sum of seat numbers): left out
                   game_sums={k: v for k, v in raw["game_sums"].items() if k not in _BASE_GAME_COLUMNS},
                   seat_sums={k: list(v) for k, v in raw["seat_sums"].items() if k not in _BASE_SEAT_COLUMNS},
                   return_sums=list(raw["return_sums"]))  # fmt: skip

    @classmethod
    def from_result(cls, r: "GameResult") -> "GameStats":
        """The same counts computed from the rows of a :class:`GameResult` (polars)."""
        g, p = r.games, r.players
        seats = len(r.bots)
        base = _BASE_GAME_COLUMNS
        masks = g["winners_mask"].to_list()
        turns: dict[int, int] = {}
        for t in g["turns"].to_list():
            turns[int(t)] = turns.get(int(t), 0) + 1
        reasons: dict[str, int] = {}
        for e in g["end_reason"].to_list():
            reasons[e] = reasons.get(e, 0) + 1
        by_seat = [p.filter(pl.col("seat") == s) for s in range(seats)]
        pbase = _BASE_SEAT_COLUMNS
        return cls(
            game=r.game, bots=list(r.bots), sides=list(r.sides), seed=r.seed, games=g.height,
            wins=[int(sum(1 for m in masks if m >> s & 1)) for s in range(seats)],
            no_winner=sum(1 for m in masks if m == 0), shared=sum(1 for m in masks if bin(m).count("1") > 1),
            unfinished=int(g["unfinished"].sum()), turns=dict(sorted(turns.items())),
            end_reasons=dict(sorted(reasons.items())),
            game_sums={c: float(g[c].sum()) for c in g.columns if c not in base},
            seat_sums={c: [float(b[c].sum()) for b in by_seat] for c in p.columns if c not in pbase},
            return_sums=[float(b["return"].sum()) for b in by_seat],
        )  # fmt: skip

    def merge(self, other: "GameStats") -> "GameStats":
        """The stats of this range followed by ``other``'s (same game, bots and seed)."""
        if (other.game, other.bots, other.seed) != (self.game, self.bots, self.seed):
            raise ValueError("GameStats.merge: the stats are of different batches (game, bots or seed differ)")
        if list(other.game_sums) != list(self.game_sums) or list(other.seat_sums) != list(self.seat_sums):
            raise ValueError("GameStats.merge: the stats have other extra columns")

        def add(a: Mapping[Any, int], b: Mapping[Any, int]) -> dict[Any, int]:
            out = dict(a)
            for k, v in b.items():
                out[k] = out.get(k, 0) + v
            return dict(sorted(out.items()))

        return GameStats(
            game=self.game, bots=list(self.bots), sides=list(self.sides), seed=self.seed,
            games=self.games + other.games, wins=[a + b for a, b in zip(self.wins, other.wins, strict=True)],
            no_winner=self.no_winner + other.no_winner, shared=self.shared + other.shared,
            unfinished=self.unfinished + other.unfinished, turns=add(self.turns, other.turns),
            end_reasons=add(self.end_reasons, other.end_reasons),
            game_sums={k: v + other.game_sums[k] for k, v in self.game_sums.items()},
            seat_sums={k: [a + b for a, b in zip(v, other.seat_sums[k], strict=True)] for k, v in self.seat_sums.items()},
            return_sums=[a + b for a, b in zip(self.return_sums, other.return_sums, strict=True)],
        )  # fmt: skip

    @property
    def turns_mean(self) -> float:
        n = sum(self.turns.values())
        return sum(t * c for t, c in self.turns.items()) / n if n else float("nan")

    @property
    def turns_std(self) -> float:
        """The population standard deviation of the games' turns."""
        n = sum(self.turns.values())
        if not n:
            return float("nan")
        m = self.turns_mean
        return (sum(c * (t - m) ** 2 for t, c in self.turns.items()) / n) ** 0.5

    @property
    def turns_min(self) -> Optional[int]:
        return min(self.turns) if self.turns else None

    @property
    def turns_max(self) -> Optional[int]:
        return max(self.turns) if self.turns else None

    def mean(self, column: str) -> float:
        """The mean of an extra per-game column over the games."""
        if column not in self.game_sums:
            raise ValueError(f"no per-game column {column!r}; known: {', '.join(self.game_sums)}")
        return self.game_sums[column] / self.games if self.games else float("nan")

    def summary(self) -> pl.DataFrame:
        """Per seat: side, bot, wins, games, win rate and its Wilson 95 % interval (the table
        :meth:`GameResult.summary` gives for the same batch)."""
        n = self.games
        rows = []
        for seat, bot in enumerate(self.bots):
            wins = self.wins[seat]
            lo, hi = wilson_interval(wins, n)
            rows.append({"seat": seat, "side": self.sides[seat] if seat < len(self.sides) else str(seat), "bot": bot,
                         "wins": wins, "games": n, "win_rate": wins / n if n else float("nan"),
                         "ci_low": lo, "ci_high": hi})  # fmt: skip
        return pl.DataFrame(rows)

    def attacker_win_rate(self) -> tuple[float, float, float]:
        """Schotten Totten 2: the Attacker's (seat 0) win rate and its Wilson 95 % interval."""
        if self.game != "schotten_totten_2":
            raise ValueError(f"attacker_win_rate is defined for schotten_totten_2, not {self.game!r}")
        s = self.summary().row(0, named=True)
        return (s["win_rate"], s["ci_low"], s["ci_high"])


#: What :func:`simulate_game` returns: ``"rows"`` (a :class:`GameResult`) or ``"stats"`` (a
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
    if shard.game == "ketharmad":
        kw = {"card_data": shard.card_data, "decks": list(shard.decks or ()), "start_player": shard.start_player}
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


def _check_output_args(output: object, chunk_size: object, executor: Any, cluster: Any) -> Optional[int]:
    from .lab.cluster import check_cluster_arg

    if output not in GAME_OUTPUTS:
        raise ValueError(f"output must be one of {', '.join(map(repr, GAME_OUTPUTS))}, got {output!r}")
    if chunk_size is not None and (isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1):
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
        raw = run_game_shard(shard(first_game, games, threads))
        return {"stats": GameStats.from_core(raw, game, bots, seed)} if output == "stats" else raw
    if isinstance(games, int) and not isinstance(games, bool) and games < 1:
        raise ValueError(f"games must be a positive number, got {games}")
    from .lab.cluster import executor_for
    from .lab.plan import _run_on

    if executor is not None or cluster is not None:
        # bad bots, parameters or seats are a ValueError here, before any shard is sent
        run_game_shard(shard(first_game, 1, 1))
    with executor_for(executor, cluster) as ex:
        step = chunk_size or (getattr(ex, "shard_games", None) if ex is not None else None) or games
        t = threads if threads is not None or ex is None else getattr(ex, "shard_threads", None)
        work = [shard(lo, min(step, first_game + games - lo), t) for lo in range(first_game, first_game + games, step)]
        parts: list[Any] = [None] * len(work)
        total: list[Any] = []  # stats: the merge of the shards up to done[0]
        done = [0]

        def keep(k: int, raw: dict[str, Any]) -> None:
            if output != "stats":
                parts[k] = raw
                return
            parts[k] = GameStats.from_core(raw, game, bots, seed)
            while done[0] < len(work) and parts[done[0]] is not None:  # merged in order, then dropped
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
) -> GameResult | GameStats:  # GameStats for output="stats"
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
    if game == "ketharmad":
        return _simulate_ketharmad(bots, games, seed, threads, params, first_game, decks, card_data, format, start_player,
                                   batch)  # fmt: skip
    given = [k for k, v in (("decks", decks), ("card_data", card_data), ("format", format), ("start_player", start_player)) if v is not None]
    if given:
        raise ValueError(f"{', '.join(given)}: Kétharmad only, not for game={game!r}")
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
            raise ValueError(f"a bot spec must be a string like 'greedy' or 'search:iterations=200', got {b!r}")
    if isinstance(games, bool) or not isinstance(games, int):
        raise ValueError(f"games must be an int, got {games!r}")
    raw = _run_batch(game, bots, games, seed, threads, params, first_game, **batch)
    if output == "stats":
        return raw["stats"]
    g = pl.DataFrame(raw["games"])
    p = pl.DataFrame(raw["players"])
    return GameResult(game=game, bots=bots, sides=list(raw["sides"]), seed=seed, games=g, players=p)


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
) -> GameResult | GameStats:
    """``simulate_game("ketharmad", ...)``: the inputs checked as :func:`ketharmad.simulate`
    checks them, then the harness batch of ``KetharmadRules``."""
    from ._api import check_start_player
    from ._data import load_card_data
    from ._formats import apply_format
    from ._validate import check_decks, check_params

    decks_ = check_decks(["ner", "tisza"] if decks is None else decks)
    if bots is None:
        bots = ["random"] * len(decks_)
    if isinstance(bots, str):
        bots = [bots] * len(decks_)
    bots = list(bots)
    for b in bots:
        if not isinstance(b, str):
            raise ValueError(f"a bot spec must be a string like 'heuristic' or 'ismcts:iterations=200', got {b!r}")
    if len(bots) != len(decks_):
        raise ValueError(f"ketharmad: got {len(bots)} bot specs for {len(decks_)} decks")
    if isinstance(games, bool) or not isinstance(games, int):
        raise ValueError(f"games must be an int, got {games!r}")
    text, params_ = apply_format(load_card_data(card_data), check_params(params), format)
    start = check_start_player(start_player, len(decks_))
    raw = _run_batch(
        "ketharmad", bots, games, seed, threads, params_ or None, first_game, **batch,
        card_data=text, decks=decks_, start_player=start,
    )  # fmt: skip
    if batch["output"] == "stats":
        return raw["stats"]
    g = pl.DataFrame(raw["games"])
    p = pl.DataFrame(raw["players"])
    return GameResult(game="ketharmad", bots=bots, sides=list(raw["sides"]), seed=seed, games=g, players=p)


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
                assert isinstance(r, GameResult)  # output="rows"
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
        raise ValueError(f"{game} takes {info['min_seats']} to {info['max_seats']} seats, got seats={k}")
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
                r = simulate_game(game, lineup, games=share, seed=seed, threads=threads, params=params, first_game=first)
                assert isinstance(r, GameResult)  # output="rows"
                wins += int(r.players.filter(pl.col("seat") == s)["win"].sum())
                played += share
            secs = time.perf_counter() - t
            lo, hi = wilson_interval(wins, played)
            rows.append({"bot": bot, "field": other, "seats": k, "games": played, "wins": wins,
                         "win_rate": wins / played, "ci_low": lo, "ci_high": hi, "even_share": 1 / k,
                         "games_per_second": played / secs})  # fmt: skip
    return pl.DataFrame(rows)


def game_state(
    game: str = "schotten_totten_2",
    seats: Optional[int] = None,
    seed: int = 0,
    game_index: int = 0,
    params: Optional[dict[str, ParamValue]] = None,
) -> "_core.HarnessGame":
    """One game of ``game`` (``"schotten_totten_2"`` or ``"osztrakon"``) stopped at its first
    decision: the step API of the harness games. It is game ``game_index`` of
    ``simulate_game(game, ..., seed=seed, params=params)`` with ``seats`` seats (default: the
    game's smallest count; Schotten Totten 2: seat 0 Attacker, seat 1 Defender).

    The object (``ketharmad.HarnessGame``) has ``current_player`` (None when over),
    ``legal_action_ids()``, ``legal_actions()`` (id, label), ``action_mask()`` (numpy bool of
    ``num_actions``), ``step(id)`` (an illegal id is a ValueError listing the legal ones),
    ``describe_action(id)``, ``observation_tensor(seat)`` (numpy float32 of
    ``observation_size``), ``clone()``, ``determinize(seat, seed)`` (a copy with everything
    ``seat`` cannot see re-dealt), ``is_over``, ``winner``/``winners``, ``end_reason``,
    ``turns``, ``returns()`` and ``bot_action(spec)``: the id the bot ``spec`` picks for the
    seat to move, drawn from the stream the batch gives that seat, so stepping
    ``bot_action(bots[g.current_player])`` to the end plays exactly that batch row."""
    if game == "ketharmad":
        raise ValueError("game_state is for the games on the generic harness; use ketharmad.Game for Kétharmad")
    info = _game_info(game)
    if seats is None:
        seats = info["min_seats"]
    for name, v in (("seats", seats), ("seed", seed), ("game_index", game_index)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise ValueError(f"{name} must be a whole number >= 0, got {v!r}")
    return _core.HarnessGame(game, seats, seed, game_index, params)


#: Where the components of a harness game are described (it has no card table).
COMPONENT_DOCS = {"schotten_totten_2": "docs/schotten_totten2.md", "osztrakon": "docs/osztrakon.md"}

_HARNESS_PARAMETER_SCHEMA: dict[str, PolarsDataType] = {
    "name": pl.String, "kind": pl.String, "default": pl.Float64, "default_str": pl.String, "min": pl.Float64,
    "max": pl.Float64, "choices": pl.List(pl.String), "description": pl.String,
}  # fmt: skip


def _default_text(p: Mapping[str, Any]) -> tuple[float, str]:
    """A parameter's default as a number (bool 0/1, a choice its index in ``choices``) and as
    text (``true``/``false``, the choice's name, the number)."""
    d = p["default"]
    if isinstance(d, bool):
        return float(d), str(d).lower()
    if isinstance(d, str):
        choices = list(p["choices"])
        return float(choices.index(d)) if d in choices else float("nan"), d
    return float(d), str(d)


def harness_parameters(game: str, match: Optional[str] = None) -> pl.DataFrame:
    """The parameter table of a harness game (:func:`ketharmad.parameters` with ``game=``),
    from its :func:`games` entry, in registry order: ``name, kind, default, default_str, min,
    max, choices, description``. ``default`` is a number as in Kétharmad's table (a bool 0/1,
    a choice its index in ``choices``), ``default_str`` its text (``true``/``false``, the
    choice's name, the number); ``min``/``max`` are the registry's range (a choice's: its
    index range). ``match``: only the parameters whose name or description contains it,
    ignoring case and accents."""
    from ._export import fold_text

    info = _game_info(game)
    if match is not None and not isinstance(match, str):
        raise ValueError(f"match must be a str, got {type(match).__name__}")
    needle = fold_text(match) if match is not None else None
    rows = []
    for p in info["parameters"]:
        if needle is not None and needle not in fold_text(p["name"]) and needle not in fold_text(p["description"]):
            continue
        default, text = _default_text(p)
        rows.append({"name": p["name"], "kind": p["kind"], "default": default, "default_str": text,
                     "min": float(p["min"]), "max": float(p["max"]), "choices": [str(c) for c in p["choices"]],
                     "description": p["description"]})  # fmt: skip
    return pl.DataFrame(rows, schema=_HARNESS_PARAMETER_SCHEMA)


def no_card_table(game: str, call: str) -> ValueError:
    """The error of ``cards(game=...)`` for a harness game: it has no card table."""
    _game_info(game)
    where = COMPONENT_DOCS.get(game, "docs/games.md")
    return ValueError(
        f"{call}(game={game!r}): {game} has no card table (its cards are fixed components, not a card file); "
        f"its components are described in {where}"
    )
