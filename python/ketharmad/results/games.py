"""The reduction of a batch of one game on the generic harness: :class:`GameStats` (counts;
``simulate_game(..., output="stats")``). Its rows are a :class:`ketharmad.SimResult`, the one
batch result of every game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Optional

import polars as pl

from .sim import SimResult, attacker_win_rate, seat_summary

__all__ = ["GameStats"]


#: The columns every harness batch has (the Outcome's extra columns come after them).
_BASE_GAME_COLUMNS = frozenset(
    {"game", "seed", "winner", "winners_mask", "turns", "end_reason", "unfinished"}
)


_BASE_SEAT_COLUMNS = frozenset({"game", "seat", "won", "return"})


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
    def from_core(
        cls, raw: Mapping[str, Any], game: str, bots: Sequence[str], seed: int
    ) -> GameStats:
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
    def from_result(cls, r: SimResult) -> GameStats:
        """The same counts computed from the rows of a harness :class:`SimResult` (polars)."""
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

    def merge(self, other: GameStats) -> GameStats:
        """The stats of this range followed by ``other``'s (same game, bots and seed)."""
        if (other.game, other.bots, other.seed) != (self.game, self.bots, self.seed):
            raise ValueError(
                "GameStats.merge: the stats are of different batches (game, bots or seed differ)"
            )
        if list(other.game_sums) != list(self.game_sums) or list(other.seat_sums) != list(
            self.seat_sums
        ):
            raise ValueError("GameStats.merge: the stats have other extra columns")

        def add(a: Mapping[Any, int], b: Mapping[Any, int]) -> dict[Any, int]:
            out = dict(a)
            for k, v in b.items():
                out[k] = out.get(k, 0) + v
            return dict(sorted(out.items()))

        return GameStats(
            game=self.game, bots=list(self.bots), sides=list(self.sides), seed=self.seed,
            games=self.games + other.games, wins=[a + b for a, b in zip(self.wins, other.wins, strict=False)],
            no_winner=self.no_winner + other.no_winner, shared=self.shared + other.shared,
            unfinished=self.unfinished + other.unfinished, turns=add(self.turns, other.turns),
            end_reasons=add(self.end_reasons, other.end_reasons),
            game_sums={k: v + other.game_sums[k] for k, v in self.game_sums.items()},
            seat_sums={k: [a + b for a, b in zip(v, other.seat_sums[k], strict=False)] for k, v in self.seat_sums.items()},
            return_sums=[a + b for a, b in zip(self.return_sums, other.return_sums, strict=False)],
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
        :meth:`SimResult.summary` gives for the same batch)."""
        n = self.games
        return seat_summary(self.bots, self.sides, self.wins, n)

    def attacker_win_rate(self) -> tuple[float, float, float]:
        """Schotten Totten 2: the Attacker's (seat 0) win rate and its Wilson 95 % interval."""
        return attacker_win_rate(self.game, self.summary())
