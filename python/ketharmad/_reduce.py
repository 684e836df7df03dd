"""Statistics of a batch's games instead of their rows (issue 11, item 2: reductions).

:func:`simulate_stats` plays games ``first_game .. first_game + games - 1`` of a batch (the
games of :func:`ketharmad.simulate` with the same arguments) in the core and returns a
:class:`Stats`: games, wins per seat and per faction, unfinished games, the sums of turns and
of squared turns, a histogram of game length, the same for rounds (sum, histogram), the
longest game in turns and in rounds, and the end-reason counts. Every field is an integer
count (or a maximum), so :meth:`Stats.merge` is exact: the statistics of a range equal those of its
pieces merged, on any number of threads, and memory does not grow with the number of games.

    s = simulate_stats(["ner", "tisza"], "heuristic", games=1_000_000, seed=1)
    s = s.merge(simulate_stats(["ner", "tisza"], "heuristic", games=10**6, seed=1, first_game=10**6))
    s.seat_table()     # seat, faction, games, wins, win_rate, ci_low, ci_high
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional, Union

import polars as pl

from . import _core
from ._data import CardDataSource, load_card_data
from ._validate import bot_label, check_bots, check_decks, check_int, check_params, check_seed, check_threads
from .stats import wilson_bounds

__all__ = ["Stats", "simulate_stats", "TURN_BINS"]

#: Bins of the game-length histograms: ``turns_hist[t]`` (``rounds_hist[t]``) counts games of
#: ``t`` turns (rounds) for ``t < TURN_BINS``; bin ``TURN_BINS`` counts the longer ones.
TURN_BINS: int = _core.TURN_BINS


@dataclass(frozen=True)
class Stats:
    """Integer statistics of games of one deck list (bots and parameters are the caller's
    to keep apart: only statistics of the same batch settings should be merged).

    Attributes:
        decks: the faction of every seat.
        games: games counted.
        wins_seat: games won by each seat.
        wins_faction: games won by a seat of each faction, in ``ketharmad.FACTIONS`` order.
        seats_faction: (game, seat) pairs played by each faction (games × its seats).
        unfinished: games without a winner (a round or action cap, or every seat out at once:
            the games whose ``winner`` is null).
        turns_sum, turns_sq_sum: sum of the games' turns and of their squares.
        turns_hist: games per length in turns (``TURN_BINS`` bins, then the overflow bin).
        end_reasons: games per end reason, in ``ketharmad.END_REASONS`` order.
        turns_max: the longest game in turns (0 without games).
        rounds_sum, rounds_hist, rounds_max: the same for the games' rounds.
    """

    decks: tuple[str, ...]
    games: int
    wins_seat: tuple[int, ...]
    wins_faction: tuple[int, ...]
    seats_faction: tuple[int, ...]
    unfinished: int
    turns_sum: int
    turns_sq_sum: int
    turns_hist: tuple[int, ...]
    end_reasons: tuple[int, ...]
    turns_max: int
    rounds_sum: int
    rounds_hist: tuple[int, ...]
    rounds_max: int

    @classmethod
    def empty(cls, decks: Sequence[str]) -> Stats:
        """No games yet (the identity of :meth:`merge`)."""
        z = lambda n: (0,) * n  # noqa: E731
        return cls(tuple(decks), 0, z(len(decks)), z(len(_core.FACTIONS)), z(len(_core.FACTIONS)), 0, 0, 0,
                   z(TURN_BINS + 1), z(len(_core.END_REASONS)), 0, 0, z(TURN_BINS + 1), 0)  # fmt: skip

    @classmethod
    def from_core(cls, raw: Mapping[str, Any], decks: Sequence[str]) -> Stats:
        """The statistics returned by ``_core.simulate_stats``."""
        t = lambda k: tuple(int(x) for x in raw[k])  # noqa: E731
        return cls(tuple(decks), int(raw["games"]), t("wins_seat"), t("wins_faction"), t("seats_faction"),
                   int(raw["unfinished"]), int(raw["turns_sum"]), int(raw["turns_sq_sum"]), t("turns_hist"),
                   t("end_reasons"), int(raw["turns_max"]), int(raw["rounds_sum"]), t("rounds_hist"),
                   int(raw["rounds_max"]))  # fmt: skip

    @classmethod
    def from_frames(cls, games: pl.DataFrame, players: pl.DataFrame, decks: Sequence[str]) -> Stats:
        """The same statistics reduced from the frames of :func:`ketharmad.simulate`
        (``res.games``, ``res.players``)."""
        factions, reasons = list(_core.FACTIONS), list(_core.END_REASONS)
        turns = games["turns"].cast(pl.Int64)
        rounds = games["rounds"].cast(pl.Int64)
        won = players.filter(pl.col("won"))
        count = lambda s, labels: tuple(int((s == v).sum()) for v in labels)  # noqa: E731

        def hist(col: pl.Series) -> tuple[int, ...]:
            h = col.clip(upper_bound=TURN_BINS).value_counts()
            bins = dict(zip(h[col.name].to_list(), h["count"].to_list()))
            return tuple(int(bins.get(t, 0)) for t in range(TURN_BINS + 1))

        return cls(
            decks=tuple(decks),
            games=games.height,
            wins_seat=count(won["seat"], range(len(decks))),
            wins_faction=count(won["faction"], factions),
            seats_faction=count(players["faction"], factions),
            unfinished=int(games["winner"].is_null().sum()),
            turns_sum=int(turns.sum()),
            turns_sq_sum=int((turns * turns).sum()),
            turns_hist=hist(turns),
            end_reasons=count(games["end_reason"].cast(pl.String), reasons),
            turns_max=int(turns.max() or 0),
            rounds_sum=int(rounds.sum()),
            rounds_hist=hist(rounds),
            rounds_max=int(rounds.max() or 0),
        )

    def merge(self, other: Stats) -> Stats:
        """The statistics of both sets of games (exact; ``ValueError`` for other decks)."""
        if not isinstance(other, Stats):
            raise ValueError(f"can only merge Stats, got {type(other).__name__}")
        if other.decks != self.decks:
            raise ValueError(f"cannot merge statistics of decks {list(other.decks)} into {list(self.decks)}")
        add = lambda a, b: tuple(x + y for x, y in zip(a, b))  # noqa: E731
        return Stats(
            self.decks, self.games + other.games, add(self.wins_seat, other.wins_seat),
            add(self.wins_faction, other.wins_faction), add(self.seats_faction, other.seats_faction),
            self.unfinished + other.unfinished, self.turns_sum + other.turns_sum,
            self.turns_sq_sum + other.turns_sq_sum, add(self.turns_hist, other.turns_hist),
            add(self.end_reasons, other.end_reasons), max(self.turns_max, other.turns_max),
            self.rounds_sum + other.rounds_sum, add(self.rounds_hist, other.rounds_hist),
            max(self.rounds_max, other.rounds_max),
        )  # fmt: skip

    __add__ = merge

    @property
    def mean_turns(self) -> float:
        """Mean game length in turns (nan without games)."""
        return self.turns_sum / self.games if self.games else float("nan")

    @property
    def var_turns(self) -> float:
        """Population variance of the game length (exact up to the final division)."""
        n = self.games
        return (n * self.turns_sq_sum - self.turns_sum**2) / (n * n) if n else float("nan")

    def seat_table(self, bots: Optional[Sequence[Any]] = None) -> pl.DataFrame:
        """One row per seat: ``seat, faction, [bot,] games, wins, win_rate, ci_low, ci_high``
        (Wilson 95 %; the denominator is every game) — the table of ``SimResult.summary()``
        of the same games when ``bots`` (one spec or label per seat) is given."""
        cols: dict[str, Any] = {"seat": pl.Series(range(len(self.decks)), dtype=pl.Int8),
                                "faction": list(self.decks)}  # fmt: skip
        if bots is not None:
            if len(bots) != len(self.decks):
                raise ValueError(f"got {len(bots)} bots for {len(self.decks)} seats")
            cols["bot"] = [bot_label(b) for b in bots]
        cols["games"] = pl.Series([self.games] * len(self.decks), dtype=pl.Int64)
        cols["wins"] = pl.Series(list(self.wins_seat), dtype=pl.Int64)
        return _with_rates(pl.DataFrame(cols))

    def faction_table(self) -> pl.DataFrame:
        """One row per faction played, seats pooled (in order of first seat): ``faction,
        games`` ((game, seat) pairs of it), ``wins, win_rate, ci_low, ci_high`` — the table of
        ``SimResult.summary(by="faction")`` of the same games."""
        order = list(dict.fromkeys(self.decks))
        index = [list(_core.FACTIONS).index(f) for f in order]
        return _with_rates(
            pl.DataFrame(
                {
                    "faction": order,
                    "games": pl.Series([self.seats_faction[i] for i in index], dtype=pl.Int64),
                    "wins": pl.Series([self.wins_faction[i] for i in index], dtype=pl.Int64),
                }
            )
        )

    def length_table(self) -> pl.DataFrame:
        """The game-length histogram: ``turns`` (``TURN_BINS`` stands for that many or
        more) and ``games``, bins with games only."""
        rows = [(t, n) for t, n in enumerate(self.turns_hist) if n]
        return pl.DataFrame(rows, schema={"turns": pl.Int64, "games": pl.Int64}, orient="row")


def _with_rates(table: pl.DataFrame) -> pl.DataFrame:
    low, high = wilson_bounds("wins", "games")
    return table.with_columns(win_rate=pl.col("wins") / pl.col("games"), ci_low=low, ci_high=high)


def simulate_stats(
    decks: Sequence[str] = ("ner", "tisza"),
    bots: Union[str, Mapping[str, Any], Sequence[Any]] = "random",
    games: int = 1000,
    seed: int = 0,
    threads: Optional[int] = None,
    params: Optional[Mapping[str, Union[int, bool, str]]] = None,
    card_data: CardDataSource = None,
    start_player: Optional[int] = None,
    first_game: int = 0,
) -> Stats:
    """Play games ``first_game .. first_game + games - 1`` of a batch and return their
    :class:`Stats` (arguments as for :func:`ketharmad.simulate`; the games are the same).

    Memory does not grow with ``games``. ``ValueError`` on a bad argument, ``RuntimeError``
    naming the game and seed when a game fails, ``KeyboardInterrupt`` on Ctrl-C.
    """
    decks_ = check_decks(decks)
    bots_ = check_bots(bots, len(decks_))
    games_ = check_int("games", games, 1)
    seed_ = check_seed(seed)
    threads_ = check_threads(threads)
    params_ = check_params(params)
    start_ = None if start_player is None else check_int("start_player", start_player, 0, len(decks_) - 1)
    first_ = check_int("first_game", first_game, 0)
    text = load_card_data(card_data)
    raw = _core.simulate_stats(
        text, decks_, bots_, games_, seed_, threads_, params_, start_player=start_, first_game=first_
    )
    return Stats.from_core(raw, decks_)
