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
from typing import Any, Optional, Union, cast

import numpy as np
import polars as pl

from .. import _core
from ..game.data import CardDataSource, load_card_data
from ..game.decks import deck_faction, deck_label
from ..game.validate import (
    bot_label,
    check_bots,
    check_decks,
    check_int,
    check_params,
    check_seed,
    check_threads,
)
from ..stats import wilson_bounds

__all__ = [
    "Stats",
    "simulate_stats",
    "TURN_BINS",
    "CardCounts",
    "expand_bits",
    "CARD_SETS",
    "N_CARD_BITS",
]

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
            bins = dict(zip(h[col.name].to_list(), h["count"].to_list(), strict=True))
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
            turns_max=int(cast(Optional[int], turns.max()) or 0),  # an Int64 column's max
            rounds_sum=int(rounds.sum()),
            rounds_hist=hist(rounds),
            rounds_max=int(cast(Optional[int], rounds.max()) or 0),
        )

    def merge(self, other: Stats) -> Stats:
        """The statistics of both sets of games (exact; ``ValueError`` for other decks)."""
        if not isinstance(other, Stats):
            raise ValueError(f"can only merge Stats, got {type(other).__name__}")
        if other.decks != self.decks:
            raise ValueError(
                f"cannot merge statistics of decks {list(other.decks)} into {list(self.decks)}"
            )
        add = lambda a, b: tuple(x + y for x, y in zip(a, b, strict=True))  # noqa: E731
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
                                "faction": [deck_faction(d) for d in self.decks]}  # fmt: skip
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
        # pooled by deck from the per-seat wins (each seat plays one deck all batch): the same
        # as the per-faction counts for faction decks, and defined for Mixed and custom decks
        labels = [deck_label(d) for d in self.decks]
        order = list(dict.fromkeys(labels))
        seats = [[s for s, lab in enumerate(labels) if lab == o] for o in order]
        return _with_rates(
            pl.DataFrame(
                {
                    "faction": order,
                    "games": pl.Series([self.games * len(ss) for ss in seats], dtype=pl.Int64),
                    "wins": pl.Series(
                        [sum(self.wins_seat[s] for s in ss) for ss in seats], dtype=pl.Int64
                    ),
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
    start_ = (
        None
        if start_player is None
        else check_int("start_player", start_player, 0, len(decks_) - 1)
    )
    first_ = check_int("first_game", first_game, 0)
    text = load_card_data(card_data)
    raw = _core.simulate_stats(
        text,
        decks_,
        bots_,
        games_,
        seed_,
        threads_,
        params_,
        start_player=start_,
        first_game=first_,
    )
    return Stats.from_core(raw, decks_)


# ---------------------------------------------------------------- card-record counts

#: The card sets counted per (faction, card): the kept opening hand, the cards drawn later, the
#: two together (in hand) and the cards played from hand or recruited.
CARD_SETS = ("opening", "drawn", "in_hand", "played")
#: Bits of a card set: card-definition indices 0..127 (bit k is row k of ``ketharmad.cards()``).
N_CARD_BITS = 128
#: Card-record rows expanded at once (each takes 128 bytes per set while expanded).
_CHUNK_ROWS = 1 << 17


def expand_bits(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """``(n, 128)`` bool matrix of two uint64 halves: column k is bit k of the 128-bit set
    (``lo`` holds bits 0..63, ``hi`` 64..127)."""
    lo_ = np.ascontiguousarray(lo, dtype="<u8")
    hi_ = np.ascontiguousarray(hi, dtype="<u8")
    n = lo_.shape[0]
    raw = np.empty((n, 16), dtype=np.uint8)
    raw[:, :8] = lo_.view(np.uint8).reshape(n, 8)
    raw[:, 8:] = hi_.view(np.uint8).reshape(n, 8)
    return np.unpackbits(raw, axis=1, bitorder="little").view(bool)


def count_card_sets(part: pl.DataFrame) -> tuple[int, int, np.ndarray]:
    """The card-record rows of one faction counted: ``(seat_games, wins, counts)`` where
    ``counts[s, 0, k]`` is how many rows' set ``CARD_SETS[s]`` holds card k and
    ``counts[s, 1, k]`` how many of those the seat won. Expands ``_CHUNK_ROWS`` rows at a
    time, so memory stays bounded."""
    n = part.height
    won_all = part["won"].to_numpy().astype(bool)
    sets = {name: (part[f"{name}_lo"].to_numpy(), part[f"{name}_hi"].to_numpy())
            for name in ("opening", "drawn", "played")}  # fmt: skip
    acc = np.zeros((len(CARD_SETS), 2, N_CARD_BITS), np.int64)
    for start in range(0, n, _CHUNK_ROWS):
        sl = slice(start, min(n, start + _CHUNK_ROWS))
        won = won_all[sl]
        bits = {name: expand_bits(lo[sl], hi[sl]) for name, (lo, hi) in sets.items()}
        bits["in_hand"] = bits["opening"] | bits["drawn"]
        for s, name in enumerate(CARD_SETS):
            b = bits[name]
            acc[s, 0] += np.count_nonzero(b, axis=0)
            acc[s, 1] += np.count_nonzero(b[won], axis=0)
    return n, int(won_all.sum()), acc


def card_sets_frame(faction: str, seat_games: int, wins: int, counts: np.ndarray) -> pl.DataFrame:
    """128 rows (card indices) of one faction's counts: ``faction, card_index, deck_games,
    deck_wins`` and ``<set>_games, <set>_wins`` for every set of :data:`CARD_SETS`."""
    cols: dict[str, Any] = {
        "faction": [faction] * N_CARD_BITS,
        "card_index": np.arange(N_CARD_BITS, dtype=np.int64),
        "deck_games": np.full(N_CARD_BITS, seat_games, np.int64),
        "deck_wins": np.full(N_CARD_BITS, wins, np.int64),
    }
    for s, name in enumerate(CARD_SETS):
        cols[f"{name}_games"] = np.asarray(counts[s, 0], np.int64)
        cols[f"{name}_wins"] = np.asarray(counts[s, 1], np.int64)
    return pl.DataFrame(cols)


@dataclass(frozen=True, eq=False)
class CardCounts:
    """Integer card-record counts of games of one deck list: what
    :func:`ketharmad.card_stats` needs, without the rows. Faction axes follow
    ``ketharmad.FACTIONS``; card axes are card-definition indices 0..127.

    Attributes:
        decks: the faction of every seat.
        games: games counted.
        plays_recorded: whether the plays were counted (``play_count``, ``turn_sum``; all
            zero otherwise).
        deck: ``(factions, 2)``: seat-games of each faction and how many it won.
        sets: ``(factions, len(CARD_SETS), 2, 128)``: ``sets[f, s, 0, k]`` seat-games of
            faction f whose card set ``CARD_SETS[s]`` held card k, ``sets[f, s, 1, k]`` those
            won.
        play_count: ``(factions, 128)``: plays of card k by a seat of faction f.
        turn_sum: ``(factions, 128)``: the sum of those plays' turns (so the mean turn is
            ``turn_sum / play_count``, exact up to the final division).
    """

    decks: tuple[str, ...]
    games: int
    plays_recorded: bool
    deck: np.ndarray
    sets: np.ndarray
    play_count: np.ndarray
    turn_sum: np.ndarray

    __hash__ = None  # type: ignore[assignment]  # unhashable on purpose (numpy arrays inside)

    @classmethod
    def empty(cls, decks: Sequence[str], plays_recorded: bool = True) -> CardCounts:
        """No games yet (the identity of :meth:`merge`)."""
        f = len(_core.FACTIONS)
        z = lambda *shape: np.zeros(shape, np.int64)  # noqa: E731
        return cls(tuple(decks), 0, plays_recorded, z(f, 2), z(f, len(CARD_SETS), 2, N_CARD_BITS),
                   z(f, N_CARD_BITS), z(f, N_CARD_BITS))  # fmt: skip

    @classmethod
    def from_frames(
        cls,
        card_records: pl.DataFrame,
        plays: Optional[pl.DataFrame],
        decks: Sequence[str],
        card_ids: Sequence[str],
        games: Optional[int] = None,
    ) -> CardCounts:
        """The counts of a batch's (or a shard's) ``card_records`` and ``plays`` (None: plays
        not recorded) frames, as :func:`ketharmad.simulate` returns them; ``card_ids``: the
        card ids in card-definition order (the plays name cards by id). ``games`` defaults to
        the records' rows over the seats."""
        if len(card_ids) > N_CARD_BITS:
            raise ValueError(
                f"card sets hold {N_CARD_BITS} cards, the card data has {len(card_ids)}"
            )
        factions = {f: i for i, f in enumerate(_core.FACTIONS)}
        out = cls.empty(decks, plays is not None)
        for (faction,), part in card_records.partition_by("faction", as_dict=True).items():
            if faction not in factions:
                raise ValueError(f"card records of an unknown faction {faction!r}")
            n, wins, acc = count_card_sets(part)
            out.deck[factions[faction]] += (n, wins)
            out.sets[factions[faction]] += acc
        if plays is not None and plays.height:
            index = {c: k for k, c in enumerate(card_ids)}
            per = plays.group_by("faction", "card").agg(
                n=pl.len().cast(pl.Int64), t=pl.col("turn").cast(pl.Int64).sum()
            )
            for faction, card, n, t in per.iter_rows():
                if faction not in factions or card not in index:
                    raise ValueError(f"a play of an unknown faction or card: {faction!r}, {card!r}")
                out.play_count[factions[faction], index[card]] += n
                out.turn_sum[factions[faction], index[card]] += t
        n_games = card_records.height // max(1, len(decks)) if games is None else games
        return cls(
            out.decks,
            int(n_games),
            out.plays_recorded,
            out.deck,
            out.sets,
            out.play_count,
            out.turn_sum,
        )

    def merge(self, other: CardCounts) -> CardCounts:
        """The counts of both sets of games (exact; ``ValueError`` for other decks or when
        only one of them counted plays)."""
        if not isinstance(other, CardCounts):
            raise ValueError(f"can only merge CardCounts, got {type(other).__name__}")
        if other.decks != self.decks:
            raise ValueError(
                f"cannot merge card counts of decks {list(other.decks)} into {list(self.decks)}"
            )
        if other.plays_recorded != self.plays_recorded:
            raise ValueError("cannot merge card counts with plays into card counts without plays")
        return CardCounts(
            self.decks, self.games + other.games, self.plays_recorded, self.deck + other.deck,
            self.sets + other.sets, self.play_count + other.play_count, self.turn_sum + other.turn_sum,
        )  # fmt: skip

    __add__ = merge

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CardCounts):
            return NotImplemented
        return (
            self.decks == other.decks
            and self.games == other.games
            and self.plays_recorded == other.plays_recorded
            and all(np.array_equal(getattr(self, k), getattr(other, k))
                    for k in ("deck", "sets", "play_count", "turn_sum"))
        )  # fmt: skip

    def frame(self) -> pl.DataFrame:
        """One row per faction played (``ketharmad.FACTIONS`` order) and card index
        (0..127): ``faction, card_index, deck_games, deck_wins, opening_games, opening_wins,
        drawn_games, drawn_wins, in_hand_games, in_hand_wins, played_games, played_wins``
        (the columns of ``card_set_counts``), ``play_count`` and ``turn_sum`` (null when plays
        were not recorded)."""
        parts = []
        for i, faction in enumerate(_core.FACTIONS):
            if self.deck[i, 0] == 0:
                continue
            part = card_sets_frame(
                faction, int(self.deck[i, 0]), int(self.deck[i, 1]), self.sets[i]
            )
            if self.plays_recorded:
                part = part.with_columns(
                    play_count=pl.Series(self.play_count[i]), turn_sum=pl.Series(self.turn_sum[i])
                )
            else:
                part = part.with_columns(
                    play_count=pl.lit(None, pl.Int64), turn_sum=pl.lit(None, pl.Int64)
                )
            parts.append(part)
        if not parts:
            raise ValueError("no card records counted")
        return pl.concat(parts)
