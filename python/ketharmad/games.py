"""Games on the game-generic harness (issue 14).

>>> import ketharmad
>>> [g["name"] for g in ketharmad.games()]
['ketharmad', 'schotten_totten_2', 'osztrakon']
>>> r = ketharmad.simulate_game("schotten_totten_2", bots=["greedy", "random"], games=2000, seed=1)
>>> r.summary()            # Attacker win rate with a Wilson 95 % interval
>>> r.games, r.players     # polars DataFrames: one row per game / per (game, seat)

Bots are spec strings: ``"random"``, ``"greedy"``, ``"search"``,
``"search:iterations=400,c=0.7,rollout=random"``; ``params`` names any parameter the game
lists in :func:`games` (``{"rules.oil_target": "newest", "wall.gate.intact_cards": 3}``).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Optional, Sequence, Union

import polars as pl

from . import _core
from .stats import wilson_interval

__all__ = ["games", "simulate_game", "GameResult", "game_state", "HarnessGame"]

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
) -> GameResult:
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
    for the other games."""
    if game == "ketharmad":
        return _simulate_ketharmad(bots, games, seed, threads, params, first_game, decks, card_data, format, start_player)
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
    raw = _core.generic_simulate(game, bots, games, seed, threads, params, first_game)
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
) -> GameResult:
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
    raw = _core.generic_simulate(
        "ketharmad", bots, games, seed, threads, params_ or None, first_game,
        card_data=text, decks=decks_, start_player=start,
    )  # fmt: skip
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
