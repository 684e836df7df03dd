"""Bot benchmarking: ``bots()`` lists bot kinds, presets and knobs; ``tournament()`` plays
every pair of bot specs with seats swapped and decks rotated over common seeds and rates the
bots (Bradley–Terry, reported on the Elo scale)."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, Union

import polars as pl

from .. import _core
from ..game.data import CardDataSource, describe_card_data, load_card_data
from ..game.driver import driver_for
from ..game.formats import apply_format, format_info, team_splits
from ..game.harness import harness_bot_table
from ..game.spec import GameSpec, setup_of
from ..game.validate import (
    _check_bot_spec,
    bot_label,
    check_decks,
    check_int,
    check_params,
    check_seed,
    check_threads,
)
from ..results.lab import LabResult
from ..results.lab_report import _provenance_md, md_table
from ..results.report import ci_text, pct
from ..run.cluster import check_cluster_arg, executor_for
from ..run.options import RunArg, RunOptions, fold_run_options
from ..run.plan import Plan, cell, run_plan
from ..stats import rate, wilson_bounds
from .harness import game_lab_tournament
from .ratings import _bradley_terry

if TYPE_CHECKING:
    from .harness import GameTournamentResult

__all__ = ["bots", "tournament", "TournamentResult"]

BotSpec = Union[str, Mapping[str, Any]]

#: Kétharmad's games per pair of bots when ``games`` is not given (a multiple of 24: 2
#: seatings x 12 deck pairings). The harness games have their own defaults.
DEFAULT_GAMES = 960


def bots(game: Union[str, GameSpec] = "ketharmad") -> pl.DataFrame:
    """Bot kinds and presets (``entry == "bot"``) and their knobs (``entry == "knob"``) with
    defaults and ranges. A spec is a name (``"aggro"``) or a dict such as
    ``{"kind": "heuristic", "aggression": 0.8}`` or ``{"kind": "search", "iterations": 200}``.
    ``game``: another game of :func:`ketharmad.games` lists its bots and the options of the
    harness's search bot (its specs are strings: ``"search:iterations=400,c=0.7"``)."""
    if isinstance(game, GameSpec):  # a game value: its bots are its name's
        game = game.name
    if not driver_for(game).is_ketharmad:
        return harness_bot_table(game)
    return pl.DataFrame(_core.bot_table())


class TournamentResult(LabResult):
    """The result of :func:`ketharmad.tournament`.

    Attributes:
        pairs: one row per pair of bots (``bot_a, bot_b, games, wins_a, wins_b, unfinished,
            win_rate_a, ci_low, ci_high``).
        ratings: one row per bot (``bot, rating, games, wins``).
        games_per_pair, decks: games each pair played and the deck pairings.
        bots, seed, params, card_data, elapsed: the run's arguments and wall time.
    """

    kind = "tournament"

    def __init__(
        self,
        pairs: pl.DataFrame,
        ratings: pl.DataFrame,
        games_per_pair: int,
        decks: Optional[list[list[str]]] = None,
        **kw: Any,
    ) -> None:
        self.pairs = pairs
        self.ratings = ratings
        self.games_per_pair = games_per_pair
        self.decks: list[list[str]] = [] if decks is None else decks
        self.bots: list[Any] = kw.get("bots", [])
        self.seed: int = kw.get("seed", 0)
        self.params: dict[str, Union[int, bool, str]] = kw.get("params", {})
        self.card_data: str = kw.get("card_data", "packaged")
        self.elapsed: float = kw.get("elapsed", float("nan"))
        self._card_text: str = kw["card_text"] if "card_text" in kw else load_card_data(None)
        self.plan = kw.get("plan")

    @property
    def n_games(self) -> int:
        return int(self.pairs["games"].sum()) if self.pairs.height else 0

    def tables(self) -> dict[str, pl.DataFrame]:
        return {"tournament_pairs": self.pairs, "tournament_ratings": self.ratings}

    def text(self) -> str:
        with pl.Config(tbl_rows=50, tbl_cols=20, fmt_str_lengths=60):
            return f"pairs:\n{self.pairs}\nratings:\n{self.ratings}"

    def _markdown(self, folder: Any, plots: bool) -> list[str]:
        out = [
            f"# Tournament: {len(self.ratings)} bots, {self.games_per_pair:,} games per pair",
            "",
        ]
        out += _provenance_md(self, None)
        out += [
            "",
            f"Every pair of bots played {self.games_per_pair:,} games over {len(self.decks)} deck "
            "pairing(s), each bot in each seat half the time, both seatings on the same games.",
            "",
            "## Ratings (Bradley–Terry, Elo scale)",
            "",
            md_table(["bot", "rating", "games", "wins"],
                     [[r["bot"], f"{r['rating']:.0f}", f"{r['games']:,}", f"{r['wins']:,}"]
                      for r in self.ratings.iter_rows(named=True)], [False, True, True, True]),
            "",
            "## Pairs",
            "",
            md_table(["bot a", "bot b", "games", "wins a", "wins b", "unfinished", "win rate a", "95% CI"],
                     [[r["bot_a"], r["bot_b"], f"{r['games']:,}", f"{r['wins_a']:,}", f"{r['wins_b']:,}",
                       f"{r['unfinished']:,}", pct(r["win_rate_a"]), ci_text(r["ci_low"], r["ci_high"])]
                      for r in self.pairs.iter_rows(named=True)],
                     [False, False, True, True, True, True, True, False]),
        ]  # fmt: skip
        return out


def _deck_pairs(decks: Optional[Sequence[Any]], seats: int = 2) -> list[list[str]]:
    """The deck lineups: 2-player pairings, or with ``seats = 4`` (a 2-against-2 format)
    lineups of four decks, partners opposite (default: the three splits of the factions,
    ``[a1, b1, a2, b2]``)."""
    factions = list(_core.FACTIONS)
    if decks is None:
        if seats == 4:
            return [[a1, b1, a2, b2] for (a1, a2), (b1, b2) in team_splits(factions)]
        return [[a, b] for a, b in itertools.permutations(factions, 2)]
    if len(decks) > 0 and all(not isinstance(d, (list, tuple)) for d in decks):
        out = [check_decks(list(decks))]
    else:
        out = [check_decks(list(d)) for d in decks]
    if not out:
        raise ValueError("decks must name at least one deck pairing")
    for d in out:
        if len(d) != seats:
            what = (
                "2-player pairings"
                if seats == 2
                else "lineups of 4 decks (seats 0 + 2 against 1 + 3)"
            )
            raise ValueError(f"tournament decks must be {what}, got {d}")
    return out


@fold_run_options("threads", "executor", "cluster")
def tournament(
    bots: Sequence[BotSpec],
    decks: Optional[Sequence[Any]] = None,
    games: Optional[int] = None,
    seed: int = 0,
    *,
    params: Optional[Mapping[str, Union[int, bool, str]]] = None,
    card_data: CardDataSource = None,
    format: Any = None,
    game: Union[str, GameSpec] = "ketharmad",
    seats: Optional[int] = None,
    run: RunArg = None,
) -> TournamentResult | GameTournamentResult:  # GameTournamentResult: another game
    """Play every pair of ``bots`` against each other.

    Each pair plays ``games`` 2-player games in total, spread evenly over the deck pairings
    (``decks``: None = all 12 ordered pairs of different factions, one pairing such as
    ``["ner", "tisza"]``, or a list of pairings) and over both seatings. All games are games
    of one batch with seed ``seed`` (the plan runner's seeding): deck pairing ``d`` plays
    games ``d * n .. (d + 1) * n - 1`` (``n`` = games per pairing and seating), the same
    games for both seatings and every pair of bots (common random numbers), so only the bots
    differ; ``play(deck, seat_bots, seed=seed, index=i)`` replays one. ``games``
    must therefore be a multiple of ``2 × (number of deck pairings)``: of 24 with the
    default decks (default 960 = 40 per pairing and seating), of 2 with one pairing; other
    values raise ``ValueError`` naming the nearest allowed ones.

    ``format``: the game format (docs/formats.md), as in :func:`ketharmad.simulate`. A
    2-against-2 format (``"coalition"``) plays lineups of four decks (``decks``: one or a list
    of ``[a1, b1, a2, b2]``; default the three splits of the four factions), one bot on seats
    0 + 2 and the other on 1 + 3, then swapped; ``games`` is then a multiple of 2 x lineups.

    A bot may be a Python agent (see :func:`ketharmad.simulate`, docs/python_agents.md):
    its games are played game by game with :class:`ketharmad.Game`, the opponent's built-in
    decisions in Rust; labelled ``python:<name>``.

    Returns a :class:`TournamentResult`: ``pairs`` (bot_a, bot_b, games, wins_a, wins_b,
    unfinished, win_rate_a, ci_low, ci_high; the rate counts decided games and is null, like
    its interval, when no game of the pair was decided) and ``ratings`` (bot, rating on the
    Elo scale from a Bradley–Terry fit, games, wins). ``run``: a :class:`ketharmad.RunOptions`
    or a dict of its fields ``threads``, ``executor``, ``cluster`` (the older keywords work
    until 0.3.0 with a DeprecationWarning). ``run.executor``: None, or a
    ``concurrent.futures.Executor`` the plan runner submits its shards to (same results);
    ``run.cluster``: run on Dask instead (``"local"``, a scheduler address or a
    ``dask.distributed.Client``; the ``dask`` extra, docs/scale_out.md), same results.

    **Other games** (``game="schotten_totten_2"`` or ``"osztrakon"``, docs/games.md):
    ``bots`` are spec strings of the game's bots. Schotten Totten 2: every pair of bots
    plays ``games`` games (default 1,000, a multiple of 2), each bot on each side (Attacker,
    Defender) in half of them, both seatings on the same games ``0 .. games/2 - 1`` of
    :func:`ketharmad.games.simulate_game` (common random numbers). Osztrakon: every bot plays
    ``games`` games (default 200 x seats, a multiple of ``seats``) alone against a field of
    each other bot on the other ``seats - 1`` seats (``seats`` 5-12, default 5), its seat
    rotating, the same games for every pair. Ratings: the Bradley–Terry fit above (Elo
    scale); with more seats its Luce generalisation (a game's winner is seat ``s`` with
    probability ``p(bot of s) / sum over the seats``), which is Bradley–Terry for two seats.
    Returns a :class:`ketharmad.lab.harness.GameTournamentResult` (``.pairs``, ``.ratings``
    with win rates and Wilson intervals), the same for a seed on any ``threads``, ``executor``
    or ``cluster`` (each pair's games run on it as :func:`ketharmad.games.simulate_game` runs them).
    The Kétharmad-only arguments (``decks``, ``card_data``, ``format``) are refused with a
    ValueError naming them; ``seats`` with Kétharmad.
    """
    run = RunOptions.of(run)
    threads, executor, cluster = run.threads, run.executor, run.cluster
    if isinstance(game, GameSpec):  # a game value: its setup, with this call's explicit keywords
        spec, decks, card_data, format, params, seats = setup_of(
            game, "tournament", decks=decks, card_data=card_data, format=format, params=params, seats=seats)  # fmt: skip
        game = spec.name
    driver = driver_for(game)
    if not driver.is_ketharmad:
        driver.refuse("tournament", {"decks": decks is not None, "card_data": card_data is not None,
                                    "format": format is not None},
               "bots, games (per pair), seed, threads, params, seats, executor and cluster")  # fmt: skip
        return game_lab_tournament(game, bots, games=games, seed=seed, threads=threads, params=params, seats=seats,
                                   executor=executor, cluster=cluster)  # fmt: skip
    driver.refuse("tournament", {"seats": seats is not None})
    if games is None:
        games = DEFAULT_GAMES
    if isinstance(bots, (str, Mapping)) or len(bots) < 2:
        raise ValueError("tournament needs a list of at least two bot specs")
    specs = [_check_bot_spec(b, f"bots[{i}]", agents=True) for i, b in enumerate(bots)]
    labels = [bot_label(s) for s in specs]
    if len(set(labels)) != len(labels):
        raise ValueError(f"tournament bots must be different specs, got {labels}")
    text, params_ = apply_format(load_card_data(card_data), check_params(params), format)
    teams = format_info(text, params_)
    if teams.seats_min > 2 and not teams.team_pairs:
        raise ValueError(
            f"tournament plays two bots against each other: a 2-player format or a 2-against-2 "
            f"format, not {teams.name!r} ({teams.seats_min}-{teams.seats_max} seats)"
        )
    pairings = _deck_pairs(decks, 4 if teams.team_pairs else 2)
    games_ = check_int("games", games, 1)
    seed_ = check_seed(seed)
    cells = 2 * len(pairings)
    if games_ % cells:
        below = games_ - games_ % cells
        allowed = f"{below} or {below + cells}" if below else f"{cells}, {2 * cells}, ..."
        what = "pairing" if len(pairings) == 1 else "pairings"
        raise ValueError(
            f"games must be a multiple of {cells} (2 seatings x {len(pairings)} deck {what}, "
            f"so every pairing and seating plays equally often), got {games_}; e.g. {allowed}"
        )
    per_cell = games_ // cells
    threads_ = check_threads(threads)
    check_cluster_arg(cluster, executor)
    # one batch (seed ``seed``): deck pairing d plays games d * per_cell .. (d + 1) * per_cell
    # - 1, the same games for both seatings and every pair of bots (common random numbers)
    plan = Plan(seed_)
    bot_pairs = list(itertools.combinations(range(len(specs)), 2))
    for i, j in bot_pairs:
        for d, deck in enumerate(pairings):
            for a_seat in (0, 1):
                seat_bots = [specs[i], specs[j]] if a_seat == 0 else [specs[j], specs[i]]
                seat_bots = (seat_bots * 2)[: len(deck)]  # 2 against 2: partners play the same bot
                plan.add(
                    cell(text, deck, seat_bots, params_, d * per_cell, per_cell, output="stats")
                )
    plan.validate()
    # every shard reduces its games to integer counts (ketharmad.run.reduce.Stats): memory does
    # not grow with the number of games
    start = time.perf_counter()
    with executor_for(executor, cluster) as ex:
        results = iter(run_plan(plan, threads=threads_, executor=ex))
    elapsed = time.perf_counter() - start
    rows: list[dict[str, Any]] = []
    wins: dict[tuple[int, int], float] = {}
    for i, j in bot_pairs:
        wa = wb = unf = total = 0
        for _deck in pairings:
            for a_seat in (0, 1):
                st = next(results)
                wa += st.wins_seat[a_seat]
                wb += st.wins_seat[1 - a_seat]
                unf += st.unfinished
                total += st.games
        rows.append(
            {
                "bot_a": labels[i],
                "bot_b": labels[j],
                "games": total,
                "wins_a": wa,
                "wins_b": wb,
                "unfinished": unf,
            }
        )
        wins[(i, j)] = wa + 0.5 * unf
        wins[(j, i)] = wb + 0.5 * unf
    low, high = wilson_bounds("wins_a", pl.col("wins_a") + pl.col("wins_b"))
    decided = pl.col("wins_a") + pl.col("wins_b")
    pairs = pl.DataFrame(rows).with_columns(
        win_rate_a=rate("wins_a", decided),
        ci_low=low,
        ci_high=high,
    )
    strength = _bradley_terry(labels, wins)
    per_bot_games = [
        sum(r["games"] for r in rows if labels[k] in (r["bot_a"], r["bot_b"]))
        for k in range(len(labels))
    ]
    per_bot_wins = [
        sum(r["wins_a"] for r in rows if r["bot_a"] == labels[k])
        + sum(r["wins_b"] for r in rows if r["bot_b"] == labels[k])
        for k in range(len(labels))
    ]
    ratings = pl.DataFrame(
        {
            "bot": labels,
            "rating": [1500.0 + 400.0 * math.log10(s) for s in strength],
            "games": per_bot_games,
            "wins": per_bot_wins,
        }
    ).sort("rating", descending=True)
    return TournamentResult(
        pairs=pairs, ratings=ratings, games_per_pair=per_cell * cells, decks=pairings, bots=specs,
        seed=seed_, params=params_, card_data=describe_card_data(card_data), elapsed=elapsed,
        card_text=text, plan=plan.describe(),
    )  # fmt: skip
