"""Bot benchmarking: ``bots()`` lists bot kinds, presets and knobs; ``tournament()`` plays
every pair of bot specs with seats swapped and decks rotated over common seeds and rates the
bots (Bradley–Terry, reported on the Elo scale)."""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional, Union

import polars as pl

from .. import _core
from ..game.data import CardDataSource, describe_card_data, load_card_data
from ..game.driver import Block, BlockCounts, driver_for
from ..game.formats import apply_format, format_info, team_splits
from ..game.harness import harness_bot_table, harness_info
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
from ..results.lab_report import _provenance_md, md_table
from ..results.report import _lab_params_label, ci_text, format_table, pct
from ..run.cluster import check_cluster_arg, executor_for
from ..run.options import RunArg, RunOptions, fold_run_options
from ..stats import rate, wilson_bounds
from .harness import (
    GameLabResult,
    _check_seats,
    _check_whole,
    _params_of,
    _rotation,
    _run_args,
    _side_names,
    _wilson,
    check_bot_specs,
)
from .html_views import tournament_views
from .ratings import luce_ratings

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


class TournamentResult(GameLabResult):
    """The result of :func:`ketharmad.tournament`, for every game.

    Attributes:
        game: the game's name.
        pairs: Kétharmad and a game of two seats: one row per pair of bots (``bot_a, bot_b,
            games, wins_a, wins_b``, the games without a winner: Kétharmad ``unfinished``, the
            harness games ``no_winner``; ``win_rate_a, ci_low, ci_high``; a harness game also
            ``a_<side0>_win_rate`` and ``b_<side0>_win_rate``: each bot's win rate on the first
            side). Kétharmad's rate counts the decided games, the harness games' all games. A
            harness game of more seats: one row per bot and field (``bot, field, seats, games,
            wins, win_rate, ci_low, ci_high, even_share``).
        ratings: one row per bot, best first: ``bot, rating`` (Elo scale, from a Bradley–Terry
            fit; with more seats its Luce generalisation), ``games, wins``; a harness game also
            ``win_rate, ci_low, ci_high`` (two seats: over all the bot's games; more seats: as
            the lone bot against the fields) and ``even_share``.
        games_per_pair, seats, sides: games each pair played, the seats of a game and the side
            names (Kétharmad: none).
        decks: Kétharmad's deck pairings (None for the other games).
        bots, seed, params, card_data, elapsed, plan: the run's arguments, wall time and plan
            (Kétharmad; None for the other games).
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
        self.game: str = kw.get("game", "ketharmad")
        self._info: Optional[dict[str, Any]] = kw.get("info")  # a harness game's definition
        self.pairs = pairs
        self.ratings = ratings
        self.games_per_pair = games_per_pair
        self.seats: int = kw.get("seats", 2)
        self.sides: list[str] = kw.get("sides", [])
        self.decks: Optional[list[list[str]]] = (
            None if self._info is not None else [] if decks is None else decks
        )
        self.bots: list[Any] = kw.get("bots", [])
        self.seed: int = kw.get("seed", 0)
        self.params: dict[str, Any] = kw.get("params", {})
        default_data = "packaged" if self._info is None else f"game {self.game}"
        self.card_data: str = kw.get("card_data", default_data)
        self.elapsed: float = kw.get("elapsed", float("nan"))
        if self._info is None:
            self._card_text: str = kw["card_text"] if "card_text" in kw else load_card_data(None)
        self.plan = kw.get("plan")

    @property
    def n_games(self) -> int:
        return int(self.pairs["games"].sum()) if self.pairs.height else 0

    def tables(self) -> dict[str, pl.DataFrame]:
        return {"tournament_pairs": self.pairs, "tournament_ratings": self.ratings}

    def html_views(self) -> list[Any]:
        """The report's pairs heatmap (and ratings with intervals, for a ladder)."""
        return tournament_views(self)

    def _how(self) -> str:
        if self._info is None:
            return (f"every pair of bots played {self.games_per_pair:,} games over {len(self.decks or [])} deck "
                    "pairing(s), each bot in each seat half the time, both seatings on the same games")  # fmt: skip
        if self.seats == 2:
            return (f"every pair of bots played {self.games_per_pair:,} games, each bot on each side "
                    f"({', '.join(self.sides)}) in half of them, both seatings on the same games")  # fmt: skip
        return (f"every bot played {self.games_per_pair:,} games alone against a field of every other bot "
                f"({self.seats} seats), its seat rotating over all seats, the same games for every pair")  # fmt: skip

    def _rating_table(self) -> tuple[list[str], list[list[str]], list[bool]]:
        rows = self.ratings.iter_rows(named=True)
        if self._info is None:
            return (["bot", "rating", "games", "wins"],
                    [[r["bot"], f"{r['rating']:.0f}", f"{r['games']:,}", f"{r['wins']:,}"] for r in rows],
                    [False, True, True, True])  # fmt: skip
        return (["bot", "rating", "games", "wins", "win rate", "95% CI", "even share"],
                [[r["bot"], f"{r['rating']:.0f}", f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
                  ci_text(r["ci_low"], r["ci_high"]), pct(r["even_share"])] for r in rows],
                [False, True, True, True, True, False, True])  # fmt: skip

    def _pair_table(self) -> tuple[list[str], list[list[str]], list[bool]]:
        rows = list(self.pairs.iter_rows(named=True))
        if self._info is None or self.seats == 2:
            none = "unfinished" if self._info is None else "no_winner"
            heads = ["bot a", "bot b", "games", "wins a", "wins b", none.replace("_", " "), "win rate a",
                     "95% CI"]  # fmt: skip
            out = [[r["bot_a"], r["bot_b"], f"{r['games']:,}", f"{r['wins_a']:,}", f"{r['wins_b']:,}",
                    f"{r[none]:,}", pct(r["win_rate_a"]), ci_text(r["ci_low"], r["ci_high"])] for r in rows]  # fmt: skip
            right = [False, False, True, True, True, True, True, False]
            if self._info is not None:
                s0 = self.sides[0]
                heads += [f"a as {s0}", f"b as {s0}"]
                for line, r in zip(out, rows, strict=True):
                    line += [pct(r[f"a_{s0}_win_rate"]), pct(r[f"b_{s0}_win_rate"])]
                right += [True, True]
            return heads, out, right
        return (["bot", "field", "games", "wins", "win rate", "95% CI"],
                [[r["bot"], r["field"], f"{r['games']:,}", f"{r['wins']:,}", pct(r["win_rate"]),
                  ci_text(r["ci_low"], r["ci_high"])] for r in rows],
                [False, False, True, True, True, False])  # fmt: skip

    def text(self) -> str:
        if self._info is None:
            with pl.Config(tbl_rows=50, tbl_cols=20, fmt_str_lengths=60):
                return f"pairs:\n{self.pairs}\nratings:\n{self.ratings}"
        lines = [f"TournamentResult({self.game}, {len(self.bots)} bots, {self.n_games:,} games, seed {self.seed}, "
                 f"params: {_lab_params_label(self.params)}, {self.elapsed:.2f} s)", self._how() + ";",
                 "ratings (Bradley-Terry, Elo scale), best first:"]  # fmt: skip
        lines += ["  " + s for s in format_table(*self._rating_table())]
        lines.append(
            "pairs:" if self.seats == 2 else "each bot alone against the field of another:"
        )
        lines += ["  " + s for s in format_table(*self._pair_table())]
        return "\n".join(lines)

    def _markdown(self, folder: Any, plots: bool) -> list[str]:
        what = "" if self._info is None else f"{self.game}, "
        out = [
            f"# Tournament: {what}{len(self.ratings)} bots, {self.games_per_pair:,} games per pair",
            "",
        ]
        out += _provenance_md(self, None)
        how = self._how()
        out += ["", how[0].upper() + how[1:] + ".", "", "## Ratings (Bradley–Terry, Elo scale)", "",
                md_table(*self._rating_table()), "", "## Pairs", "", md_table(*self._pair_table())]  # fmt: skip
        return out


def _deck_pairs(
    decks: Optional[Sequence[Any]], seats: int = 2, call: str = "tournament"
) -> list[list[str]]:
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
            raise ValueError(f"{call} decks must be {what}, got {d}")
    return out


# -- the layout: which blocks of games every pair of bots plays -------------------------------


@dataclass
class _Pair:
    """One pair of bots (indices ``a``, ``b``) and its blocks: each with the seat whose wins
    are ``a``'s and the seat whose wins are ``b``'s (None: ``b`` is the field on every other
    seat and wins the decided games ``a`` does not). ``seats``: the seats of each bot in a
    game (the rating's Luce groups)."""

    a: int
    b: int
    seats: dict[int, int]
    blocks: list[tuple[Block, int, Optional[int]]]


@dataclass
class _Layout:
    """What the game's side of :func:`tournament` decided: the bots, the pairs and their
    blocks, and the setup the driver plays them with."""

    specs: list[Any]
    labels: list[str]
    pairs: list[_Pair]
    seats: int
    games_per_pair: int
    seed: int
    params: dict[str, Any]
    threads: Optional[int]
    setup: dict[str, Any] = field(default_factory=dict)  # the driver's play_blocks setup
    result: dict[str, Any] = field(default_factory=dict)  # what only the game's result has
    against_field: bool = False  # a harness game of more seats: every bot against a field
    sides: list[str] = field(default_factory=list)


def _ketharmad_layout(bots: Any, decks: Any, games: Optional[int], params: Any, card_data: Any,
                      format: Any, seed: object, run: RunOptions) -> _Layout:  # fmt: skip
    """Every pair of bots, every deck pairing (or 2-against-2 lineup), both seatings: deck
    pairing ``d`` plays games ``d * n .. (d + 1) * n - 1`` of one batch, the same games for
    both seatings and every pair of bots (common random numbers)."""
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
    threads_ = check_threads(run.threads)
    check_cluster_arg(run.cluster, run.executor)
    pairs = []
    for i, j in itertools.combinations(range(len(specs)), 2):
        blocks: list[tuple[Block, int, Optional[int]]] = []
        for d, deck in enumerate(pairings):
            for a_seat in (0, 1):
                seat_bots = [specs[i], specs[j]] if a_seat == 0 else [specs[j], specs[i]]
                seat_bots = (seat_bots * 2)[: len(deck)]  # 2 against 2: partners play the same bot
                block = Block(tuple(seat_bots), d * per_cell, per_cell, tuple(deck))
                blocks.append((block, a_seat, 1 - a_seat))
        pairs.append(_Pair(i, j, {i: 1, j: 1}, blocks))
    return _Layout(specs, labels, pairs, len(pairings[0]), per_cell * cells, seed_, params_, threads_,
                   setup={"card_text": text},
                   result={"decks": pairings, "card_data": describe_card_data(card_data), "card_text": text})  # fmt: skip


def _harness_layout(driver: Any, bots: Any, games: Optional[int], params: Any, seats: Any,
                    seed: object, run: RunOptions) -> _Layout:  # fmt: skip
    """Two seats: every pair of bots, each on each side in half of the games, both seatings
    on games ``0 .. games/2 - 1``. More seats: every bot alone against a field of each other
    bot, its seat rotating (seat ``s`` plays a ``first_game`` range), the same games for
    every pair."""
    info = harness_info(driver.name)
    if isinstance(bots, (str, Mapping)) or not isinstance(bots, (list, tuple)) or len(bots) < 2:
        raise ValueError("tournament needs a list of at least two bot specs")
    bots_ = check_bot_specs(bots)
    seed_ = _check_whole("seed", seed, 0)
    params_ = _params_of(params)
    two = info["max_seats"] == 2
    if two and seats not in (None, 2):
        raise ValueError(f"{driver.name} takes 2 to 2 seats, got seats={seats!r}")
    k = 2 if two else _check_seats(info, seats)
    unit = 2 if two else k
    n = (1000 if two else 200 * k) if games is None else _check_whole("games", games, 1)
    if n % unit:
        low = n - n % unit
        allowed = f"{low} or {low + unit}" if low else f"{unit}, {2 * unit}, ..."
        why = (
            "2 sides, each bot on each side equally often"
            if two
            else f"{k} seats, the lone bot on each equally often"
        )
        raise ValueError(f"games must be a multiple of {unit} ({why}), got {n}; e.g. {allowed}")
    sides = _side_names(info, k)
    _run_args(run.chunk_size, run.executor, run.cluster)
    # fail on a bad bot, option or parameter before the first block: one game of each bot
    for b in dict.fromkeys(bots_):
        lineup = [b] + ["random"] * (k - 1) if b.startswith("search") else [b] * k  # search: slow
        driver.play_blocks([Block(tuple(lineup), 0, 1)], seed_, params_, threads=1)
    pairs = []
    if two:
        half = n // 2
        for i, j in itertools.combinations(range(len(bots_)), 2):
            a, b = bots_[i], bots_[j]
            blocks = [(Block((a, b), 0, half), 0, 1), (Block((b, a), 0, half), 1, 0)]
            pairs.append(_Pair(i, j, {i: 1, j: 1}, blocks))  # type: ignore[arg-type]
    else:
        for i, a in enumerate(bots_):
            for j, b in enumerate(bots_):
                if i == j:
                    continue
                field_blocks: list[tuple[Block, int, Optional[int]]] = []
                for s, first, share in _rotation(n, k):
                    lineup = [b] * k
                    lineup[s] = a
                    field_blocks.append((Block(tuple(lineup), first, share), s, None))
                pairs.append(_Pair(i, j, {i: 1, j: k - 1}, field_blocks))
    return _Layout(bots_, bots_, pairs, k, n, seed_, params_, run.threads,
                   result={"info": info, "game": driver.name}, against_field=not two, sides=sides)  # fmt: skip


# -- the tournament, once for every game -------------------------------------------------------


@fold_run_options("threads", "executor", "cluster")
def tournament(
    bots: Sequence[BotSpec],
    decks: Optional[Sequence[Any]] = None,
    games: Optional[int] = None,
    seed: int = 0,
    *,
    params: Optional[Mapping[str, Union[int, float, bool, str]]] = None,  # float: harness games
    card_data: CardDataSource = None,
    format: Any = None,
    game: Union[str, GameSpec] = "ketharmad",
    seats: Optional[int] = None,
    run: RunArg = None,
) -> TournamentResult:
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
    The same :class:`TournamentResult` (``.pairs``, ``.ratings`` with win rates and Wilson
    intervals over all games; ``decks`` and ``plan`` None), the same for a seed on any
    ``threads``, ``executor`` or ``cluster`` (each block of games runs on it as
    :func:`ketharmad.games.simulate_game` runs them).

    Every game goes the same way: its side builds the blocks of games each pair plays
    (:class:`ketharmad.game.driver.Block`), the driver plays them
    (:meth:`~ketharmad.game.driver.GameDriver.play_blocks`: Kétharmad on the plan runner, the
    others through ``simulate_game``) and one fit rates the bots.
    The Kétharmad-only arguments (``decks``, ``card_data``, ``format``) are refused with a
    ValueError naming them; ``seats`` with Kétharmad.
    """
    run = RunOptions.of(run)
    if isinstance(game, GameSpec):  # a game value: its setup, with this call's explicit keywords
        spec, decks, card_data, format, params, seats = setup_of(
            game, "tournament", decks=decks, card_data=card_data, format=format, params=params, seats=seats)  # fmt: skip
        game = spec.name
    driver = driver_for(game)
    if driver.is_ketharmad:
        driver.refuse("tournament", {"seats": seats is not None})
        lay = _ketharmad_layout(bots, decks, games, params, card_data, format, seed, run)
    else:
        driver.refuse("tournament", {"decks": decks is not None, "card_data": card_data is not None,
                                    "format": format is not None},
               "bots, games (per pair), seed, threads, params, seats, executor and cluster")  # fmt: skip
        lay = _harness_layout(driver, bots, games, params, seats, seed, run)
    blocks = [b for p in lay.pairs for b, _, _ in p.blocks]
    start = time.perf_counter()
    with executor_for(run.executor, run.cluster) as ex:
        counts, plan = driver.play_blocks(blocks, lay.seed, lay.params, threads=lay.threads,
                                          executor=ex, **lay.setup)  # fmt: skip
    elapsed = time.perf_counter() - start
    pairs, ratings = _tables(lay, iter(counts), driver.is_ketharmad)
    return TournamentResult(pairs=pairs, ratings=ratings, games_per_pair=lay.games_per_pair, bots=lay.specs,
                            seed=lay.seed, params=lay.params, elapsed=elapsed, plan=plan, seats=lay.seats,
                            sides=lay.sides, **lay.result)  # fmt: skip


def _tables(
    lay: _Layout, counts: Iterator[BlockCounts], ketharmad: bool
) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The pairs and ratings tables from the blocks' counts (in the layout's order). A game
    without a winner counts as a share of a win for each bot of the game (half with two
    seats); the ratings are the Luce (Bradley–Terry) fit of these shares."""
    k = lay.seats
    groups: list[tuple[dict[int, int], dict[int, float], int]] = []
    per_bot = [[0, 0] for _ in lay.labels]  # games, wins of each bot (a field: the lone bot's)
    rows: list[dict[str, Any]] = []
    for p in lay.pairs:
        wa = wb = none = total = 0
        played = []
        for _block, a_seat, b_seat in p.blocks:
            c = next(counts)
            played.append(c)
            wa += c.wins[a_seat]
            wb += c.wins[b_seat] if b_seat is not None else c.games - c.no_winner - c.wins[a_seat]
            none += c.no_winner
            total += c.games
        ca, cb = p.seats[p.a], p.seats[p.b]
        both = ca + cb
        groups.append(
            ({p.a: ca, p.b: cb}, {p.a: wa + none * ca / both, p.b: wb + none * cb / both}, total)
        )
        for bot, w in ((p.a, wa), (p.b, wb))[: 1 if lay.against_field else 2]:
            per_bot[bot][0] += total
            per_bot[bot][1] += w
        a, b = lay.labels[p.a], lay.labels[p.b]
        r, lo, hi = _wilson(wa, total)
        if lay.against_field:
            rows.append({"bot": a, "field": b, "seats": k, "games": total, "wins": wa, "win_rate": r,
                         "ci_low": lo, "ci_high": hi, "even_share": 1 / k})  # fmt: skip
            continue
        row = {"bot_a": a, "bot_b": b, "games": total, "wins_a": wa, "wins_b": wb}
        if ketharmad:  # the rate and interval over the decided games follow, on the whole table
            rows.append({**row, "unfinished": none})
        else:
            s0 = lay.sides[0]
            rows.append({**row, "no_winner": none, "win_rate_a": r, "ci_low": lo, "ci_high": hi,
                         f"a_{s0}_win_rate": played[0].wins[0] / played[0].games,
                         f"b_{s0}_win_rate": played[1].wins[0] / played[1].games})  # fmt: skip
    strength = luce_ratings(len(lay.labels), groups)
    elo = [1500.0 + 400.0 * math.log10(s) for s in strength]
    if ketharmad:
        low, high = wilson_bounds("wins_a", pl.col("wins_a") + pl.col("wins_b"))
        decided = pl.col("wins_a") + pl.col("wins_b")
        pairs = pl.DataFrame(rows).with_columns(
            win_rate_a=rate("wins_a", decided), ci_low=low, ci_high=high
        )
        ratings = pl.DataFrame({"bot": lay.labels, "rating": elo, "games": [g for g, _ in per_bot],
                                "wins": [w for _, w in per_bot]}).sort("rating", descending=True)  # fmt: skip
        return pairs, ratings
    rating_rows = []
    for i, label in enumerate(lay.labels):
        g, w = per_bot[i]
        r, lo, hi = _wilson(w, g)
        rating_rows.append({"bot": label, "rating": elo[i], "games": g, "wins": w, "win_rate": r,
                            "ci_low": lo, "ci_high": hi, "even_share": 1 / k})  # fmt: skip
    ratings = pl.DataFrame(rating_rows).sort("rating", descending=True, maintain_order=True)
    return pl.DataFrame(rows), ratings
