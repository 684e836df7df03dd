"""Result objects returned by :func:`ketharmad.simulate` and :func:`ketharmad.play`."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, Optional, Union

import polars as pl

from .. import _core
from ..game.agents import is_agent
from ..game.decks import deck_label
from ..game.formats import format_info
from ..stats import wilson_bounds, wilson_interval
from .files import harness_provenance, sim_provenance, sim_tables, write_run
from .html_charts import interval_bars
from .report import _params_label, _summary_lines, _threads_label, game_stats, pct

__all__ = ["SimResult", "GameLog"]


class SimResult:
    """A batch of simulated games, of any game: what :func:`ketharmad.simulate` returns.

    A Kétharmad batch (its fast batch, ``is_harness`` False) has the attributes below; a
    batch of another game (or of Kétharmad on the generic harness,
    ``ketharmad.games.simulate_game``) has ``game``, ``bots``, ``sides`` (the name of each
    seat), ``seed``, ``params``, ``games`` (``game, seed, winner, winners_mask, turns,
    end_reason, unfinished`` and the game's own columns) and ``players`` (``game, seat, won,
    return`` and the game's own columns); its ``decks`` are empty and its ``card_records``
    None. ``summary()`` has the same columns in every game, with ``side`` for the seat's side
    (in Kétharmad ``faction``).

    Attributes:
        games: one row per game (``game, seed, winner, turns, rounds, end_reason,
            start_player, actions``); ``winner`` is null when no seat won.
        players: one row per (game, seat) (``game, seat, faction, bot, won, points, support,
            scandal, eliminated, eliminated_round, cards_played, attacks, exposes,
            mulligans, turns_taken, main_decisions, rollouts, unfinished_rollouts,
            pacts_broken``; ``rollouts`` and ``unfinished_rollouts`` count a search bot's
            rollouts and those cut unfinished, 0 for other bots; ``pacts_broken`` the
            diplomacy pacts the seat broke, docs/formats.md; ``points`` the victory points
            of a format that scores them, the circle, NaN otherwise), game-major, seat-minor.
        card_records: one row per (game, seat): ``game, seat, faction, won`` and the card
            sets ``opening_lo/hi`` (kept opening hand), ``drawn_lo/hi`` (drawn later),
            ``played_lo/hi`` (played from hand or recruited) as two uint64 halves of a
            128-bit set; bit k is row k of ``ketharmad.cards()``. See
            :func:`ketharmad.card_stats`.
        plays: None unless the batch ran with ``record_plays=True``; then one row per card
            played or recruited: ``game, seat, faction, card`` (card id), ``turn``.
        decks, bots, seed, params, threads, start_player, first_game: the (normalised)
            arguments of the run.
        card_data: ``"packaged"`` or the path of the card-data file used.
        elapsed: wall-clock seconds the run took (``games_per_second`` from it).
    """

    #: The run kind in provenance and run ids.
    kind: ClassVar[str] = "simulate"

    def __init__(
        self,
        games: pl.DataFrame,
        players: pl.DataFrame,
        *,
        decks: list[str],
        bots: list[Any],
        seed: int,
        params: dict[str, Union[int, bool, str]],
        threads: Optional[int],
        card_data: str,
        elapsed: float,
        card_records: Optional[pl.DataFrame] = None,
        plays: Optional[pl.DataFrame] = None,
        start_player: Optional[int] = None,
        card_text: Optional[str] = None,
        first_game: int = 0,
    ) -> None:
        self.game = "ketharmad"
        self._sides: Optional[list[str]] = None  # a harness batch's seat names
        self.games = games
        self.players = players
        self.card_records = card_records
        self.plays = plays
        self.start_player = start_player
        self._card_text = card_text
        self.decks = decks
        self.bots = bots
        self.seed = seed
        self.params = params
        self.threads = threads
        self.card_data = card_data
        self.elapsed = elapsed
        self.first_game = first_game

    @classmethod
    def of_harness(
        cls,
        game: str,
        bots: list[Any],
        sides: list[str],
        seed: int,
        games: pl.DataFrame,
        players: pl.DataFrame,
        *,
        params: Optional[Mapping[str, Any]] = None,
        threads: Optional[int] = None,
        elapsed: float = 0.0,
        first_game: int = 0,
    ) -> SimResult:
        """The result of a batch on the generic harness (``ketharmad.games.simulate_game``)."""
        r = cls(games, players, decks=[], bots=list(bots), seed=seed, params=dict(params or {}),
                threads=threads, card_data=game, elapsed=elapsed, first_game=first_game)  # fmt: skip
        r.game = game
        r._sides = list(sides)
        return r

    @property
    def is_harness(self) -> bool:
        """True for a batch played on the generic harness (its tables have the harness's
        columns: ``winners_mask``, ``return`` ...), False for Kétharmad's fast batch."""
        return self._sides is not None

    @property
    def sides(self) -> list[str]:
        """The side of each seat: the game's seat names (Schotten Totten 2: Attacker,
        Defender), in Kétharmad the deck labels."""
        if self._sides is not None:
            return list(self._sides)
        return [deck_label(d) for d in self.decks]

    @property
    def n_games(self) -> int:
        """Number of games in the batch."""
        return self.games.height

    @property
    def games_per_second(self) -> float:
        """Games played per wall-clock second of the run (``n_games / elapsed``)."""
        return self.n_games / self.elapsed if self.elapsed > 0 else float("nan")

    @property
    def python_agents(self) -> list[int]:
        """The seats played by Python agents (empty for a Rust batch)."""
        return [s for s, b in enumerate(self.bots) if is_agent(b)]

    def summary(self, by: str = "seat") -> pl.DataFrame:
        """Win rates with Wilson 95 % intervals.

        ``by="seat"`` (default): one row per seat with columns ``seat, faction, bot, games,
        wins, win_rate, ci_low, ci_high``. ``by="faction"``: one row per faction, pooling the
        seats that play it (useful for mirror matches); a Mixed deck or a custom list is a row
        of its own, named by its deck label (docs/decks.md). The denominator is every game,
        including games nobody won.
        """
        if self._sides is not None:
            return self._harness_summary(by)
        if by == "seat":
            keys = ["seat", "faction", "bot"]
        elif by == "faction":
            keys = ["faction"]
        else:
            raise ValueError(f"by must be 'seat' or 'faction', got {by!r}")
        players = self.players
        if by == "faction" and "deck" in players.columns:
            # pooled by deck: a Mixed deck or a custom list is a row of its own (docs/decks.md)
            players = players.drop("faction").rename({"deck": "faction"})
        table = players.group_by(keys, maintain_order=True).agg(
            games=pl.len().cast(pl.Int64),
            wins=pl.col("won").sum().cast(pl.Int64),
        )
        low, high = wilson_bounds("wins", "games")
        return table.with_columns(
            win_rate=pl.col("wins") / pl.col("games"), ci_low=low, ci_high=high
        )

    def _harness_summary(self, by: str) -> pl.DataFrame:
        """``summary()`` of a harness batch: per seat ``seat, side, bot, games, wins,
        win_rate, ci_low, ci_high`` (``by="side"`` or ``"faction"``: the same rows, a side is
        one seat)."""
        if by not in ("seat", "side", "faction"):
            raise ValueError(f"by must be 'seat' or 'side', got {by!r}")
        won = self.players.group_by("seat").agg(pl.col("won").cast(pl.Int64).sum())
        by_seat = dict(zip(won["seat"].to_list(), won["won"].to_list(), strict=True))
        wins = [int(by_seat.get(seat, 0)) for seat in range(len(self.bots))]
        return seat_summary(self.bots, self.sides, wins, self.games.height)

    def attacker_win_rate(self) -> tuple[float, float, float]:
        """Schotten Totten 2: the Attacker's (seat 0) win rate and its Wilson 95 % interval."""
        return attacker_win_rate(self.game, self.summary())

    def write_parquet(
        self, folder: Any, run_id: Optional[str] = None, overwrite: bool = False
    ) -> dict[str, Path]:
        """Write ``games``, ``players``, ``card_records``, ``plays`` (if recorded) and the
        seat ``summary`` as ``folder/<table>/<run_id>.parquet`` with provenance columns; see
        :func:`ketharmad.write_run`. Returns ``{table: path}``."""
        return write_run(self, folder, run_id=run_id, overwrite=overwrite)

    def _parquet_tables(self) -> dict[str, pl.DataFrame]:
        return sim_tables(self)

    def _provenance(self) -> dict[str, Any]:
        if self._sides is not None:
            return harness_provenance(self, "simulate")
        return sim_provenance(self)

    def text(self) -> str:
        """The plain-text summary (what ``ketharmad simulate`` prints for Kétharmad)."""
        if self.is_harness:
            with pl.Config(tbl_rows=20, tbl_width_chars=140):
                return f"{self.game}: {self.n_games:,} games, seed {self.seed}\n{self.summary()}"
        return sim_report(self)

    def html_views(self) -> list[Any]:
        """The report's chart: each seat's win rate with its Wilson 95 % interval."""
        s = self.summary()
        side = "side" if "side" in s.columns else "faction"
        d = s.with_columns(
            pl.format("seat {} · {} · {}", "seat", side, "bot").alias("seat, side and bot")
        )
        return [interval_bars("seats", "Win rate per seat (Wilson 95% intervals)", d,
                              label="seat, side and bot", value="win_rate", low="ci_low", high="ci_high",
                              value_title="win rate", reference=1 / max(1, s.height))]  # fmt: skip

    def joined(self) -> pl.DataFrame:
        """One row per (game, seat): the players table with the game columns joined on."""
        return self.players.join(self.games, on="game", how="left").sort(["game", "seat"])

    def __repr__(self) -> str:
        return sim_result_repr(self)


def seat_summary(
    bots: Sequence[Any], sides: Sequence[str], wins: Sequence[int], n: int
) -> pl.DataFrame:
    """The per-seat summary of a harness batch (rows or stats): ``seat, side, bot, games,
    wins, win_rate, ci_low, ci_high`` (Wilson 95 %); a seat without a side name is named by
    its number."""
    rows = []
    for seat, bot in enumerate(bots):
        w = wins[seat]
        lo, hi = wilson_interval(w, n)
        rows.append({"seat": seat, "side": sides[seat] if seat < len(sides) else str(seat), "bot": str(bot),
                     "games": n, "wins": w, "win_rate": w / n if n else float("nan"),
                     "ci_low": lo, "ci_high": hi})  # fmt: skip
    return pl.DataFrame(rows)


def attacker_win_rate(game: str, summary: pl.DataFrame) -> tuple[float, float, float]:
    """Schotten Totten 2: the Attacker's (seat 0) win rate and its Wilson 95 % interval, from
    a seat summary; another game is a ValueError."""
    if game != "schotten_totten_2":
        raise ValueError(f"attacker_win_rate is defined for schotten_totten_2, not {game!r}")
    s = summary.row(0, named=True)
    return (s["win_rate"], s["ci_low"], s["ci_high"])


class GameLog:
    """One replayed game: its log lines and outcome.

    Attributes:
        log: the game's log, one str per line.
        winner: winning seat, or None when nobody won.
        turns, rounds: game length.
        end_reason: why the game ended (one of ``ketharmad._core.END_REASONS``).
        support, scandal: final value per seat.
        seed: this game's own seed (the ``seed`` column of the batch's ``games`` row).
        decks, bots, game, batch_seed: the arguments it was replayed with.
    """

    def __init__(
        self,
        raw: Mapping[str, Any],
        *,
        decks: list[str],
        bots: list[Any],
        batch_seed: int,
        game: int,
        params: dict[str, Union[int, bool, str]],
    ) -> None:
        self.log: list[str] = list(raw["log"])
        winner = int(raw["winner"])
        self.winner: Optional[int] = None if winner < 0 else winner
        self.turns: int = int(raw["turns"])
        self.rounds: int = int(raw["rounds"])
        self.end_reason: str = _core.END_REASONS[int(raw["end_reason"])]
        self.support: list[int] = [int(x) for x in raw["support"]]
        self.scandal: list[int] = [int(x) for x in raw["scandal"]]
        self.seed: int = int(raw["seed"])
        sp = raw.get("start_player")
        self.start_player: Optional[int] = None if sp is None else int(sp)
        self.decks = decks
        self.bots = bots
        self.batch_seed = batch_seed
        self.game = game
        self.params = params

    def outcome(self) -> str:
        """One line: winner (or none), length, end reason and final support/scandal."""
        if self.winner is None:
            head = "no winner"
        else:
            head = f"winner: seat {self.winner} ({deck_label(self.decks[self.winner])})"
        seats = "; ".join(
            f"seat {i} {deck_label(f)} support {s} scandal {c}"
            for i, (f, s, c) in enumerate(zip(self.decks, self.support, self.scandal, strict=True))
        )
        length = f"{self.turns} turns, {self.rounds} rounds ({self.end_reason})"
        return f"{head} after {length}. Final: {seats}"

    def __str__(self) -> str:
        return "\n".join([*self.log, self.outcome()])

    def __repr__(self) -> str:
        return (
            f"GameLog(decks={self.decks!r}, batch_seed={self.batch_seed}, game={self.game}, "
            f"winner={self.winner}, turns={self.turns}, rounds={self.rounds}, "
            f"end_reason={self.end_reason!r}, {len(self.log)} log lines)"
        )


def sim_report(result: SimResult) -> str:
    """The full human-readable report printed by ``ketharmad simulate``."""
    st = game_stats(result.games)
    n = st["n"]
    rate = n / result.elapsed if result.elapsed > 0 else float("inf")
    bots = sorted(set(result.players["bot"].unique().to_list()))
    lines = [
        f"Ketharmad simulation: {n:,} games, {' vs '.join(deck_label(d) for d in result.decks)}, seed {result.seed}",
        f"bots: {', '.join(bots)}   threads: {_threads_label(result.threads)}   "
        f"card data: {result.card_data}   params: {_params_label(result.params)}",
        f"time: {result.elapsed:.2f} s ({rate:,.0f} games/s)",
        "",
        *_summary_lines(result.summary(), ["seat", "faction", "bot"]),
    ]
    if len(set(result.decks)) < len(result.decks):
        lines += [
            "",
            "pooled by faction:",
            *_summary_lines(result.summary(by="faction"), ["faction"]),
        ]
    teams = _teams(result)
    if teams:
        # a team format: the start player's team won (its `won`: both partners win, E87),
        # against a team's even share (50 % for two teams), not a seat's
        start = result.players.join(result.games.select("game", "start_player"), on="game")
        start_wins = int(start.filter(pl.col("seat") == pl.col("start_player"))["won"].sum())
        who, share = "start player's team wins", 1 / len(teams)
    else:
        start_wins, who, share = st["start_wins"], "start player wins", 1 / len(result.decks)
    lo, hi = wilson_interval(start_wins, n)
    lines += [
        "",
        f"{who}: {start_wins:,} of {n:,} ({pct(start_wins / n)}, "
        f"95% CI [{pct(lo)}, {pct(hi)}]; even share would be {pct(share)})",
        f"game length: turns mean {st['turns_mean']:.1f}, median {st['turns_median']:g}; "
        f"rounds mean {st['rounds_mean']:.1f}, median {st['rounds_median']:g}",
        f"no winner: {n - st['decided']:,}; unfinished (hit a cap): {st['unfinished']:,} "
        f"({pct(st['unfinished'] / n)})",
        "end reasons: " + ", ".join(f"{r} {c:,}" for r, c in st["end_reasons"].items()),
    ]
    return "\n".join(lines)


def _teams(result: Any) -> tuple[tuple[int, ...], ...]:
    """The teams of the result's format (``()`` without teams), as the core seats them."""
    fmt = (result.params or {}).get("rules.format")
    text = getattr(result, "_card_text", None)
    if fmt is None or text is None:
        return ()

    try:
        return format_info(text, result.params).teams
    except ValueError:
        return ()


def sim_result_repr(result: SimResult) -> str:
    """Compact multi-line repr of a SimResult: the run's arguments and the seat summary."""
    if result.is_harness:
        return _harness_repr(result)
    st = game_stats(result.games)
    head = (
        f"SimResult({st['n']:,} games, {' vs '.join(deck_label(d) for d in result.decks)}, seed={result.seed}, "
        f"params: {_params_label(result.params)}, {result.elapsed:.2f} s, "
        f"{result.games_per_second:,.0f} games/s)"
    )
    if result.python_agents:
        head += f"; Python agents in seats {result.python_agents}, played game by game in Python"
    lines = [
        head,
        *("  " + line for line in _summary_lines(result.summary(), ["seat", "faction", "bot"])),
    ]
    lines.append(
        f"  unfinished: {st['unfinished']:,}; turns mean {st['turns_mean']:.1f}; "
        f"see .games, .players, .summary()"
    )
    return "\n".join(lines)


def _harness_repr(result: SimResult) -> str:
    """The repr of a batch on the generic harness."""
    g = result.games
    n = g.height
    turns = float(g["turns"].mean()) if n else float("nan")  # type: ignore[arg-type]
    head = (f"SimResult(game {result.game}, {n:,} games, seed={result.seed}, "
            f"params: {_params_label(result.params)})")  # fmt: skip
    lines = [
        head,
        *("  " + line for line in _summary_lines(result.summary(), ["seat", "side", "bot"])),
    ]
    lines.append(f"  unfinished: {int(g['unfinished'].sum()):,}; turns mean {turns:.1f}; "
                 "see .games, .players, .summary()")  # fmt: skip
    return "\n".join(lines)
