"""One game of a harness game (Schotten Totten 2, Osztrakon) replayed with its readable log:
``ketharmad.play(game="schotten_totten_2", bots=[...], seed=s, index=i)``.

The harness games keep no text log of their own; the log is built here from the step API
(:func:`ketharmad.games.game_state`): every decision's seat, the bot's chosen action id and its
``describe_action`` label. Stepping ``bot_action(bots[current_player])`` plays exactly game
``index`` of ``simulate_game(game, bots, seed=s)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional, Union

import polars as pl

from .harness import _game_info, game_state

__all__ = ["HarnessLog", "play_game"]

ParamValue = Union[int, float, bool, str]


class HarnessLog:
    """One replayed game of a harness game: its decisions and outcome.

    Attributes:
        game, bots, sides, batch_seed, index, params: what was replayed (game ``index`` of
            ``simulate_game(game, bots, seed=batch_seed, params=params)``).
        actions: one row per decision: ``step, turn, seat, side, bot, action`` (the id),
            ``description`` (``describe_action``) and ``options`` (legal actions then).
        log: the readable log, one str per decision.
        winner (None without one), winners, end_reason, turns, returns: the outcome.
    """

    def __init__(self, **kw: Any) -> None:
        self.game: str = kw["game"]
        self.bots: list[str] = kw["bots"]
        self.sides: list[str] = kw["sides"]
        self.batch_seed: int = kw["batch_seed"]
        self.index: int = kw["index"]
        self.params: dict[str, ParamValue] = kw["params"]
        self.actions: pl.DataFrame = kw["actions"]
        self.winner: Optional[int] = kw["winner"]
        self.winners: list[int] = kw["winners"]
        self.end_reason: Optional[str] = kw["end_reason"]
        self.turns: int = kw["turns"]
        self.returns: list[float] = kw["returns"]
        self.log: list[str] = [
            f"[turn {r['turn']}] seat {r['seat']} ({self._who(r['seat'])}): {r['description']}"
            for r in self.actions.iter_rows(named=True)
        ]

    def _who(self, seat: int) -> str:
        side = self.sides[seat] if seat < len(self.sides) else ""
        return f"{side}, {self.bots[seat]}" if side else self.bots[seat]

    def outcome(self) -> str:
        """One line: winner (or none), length and end reason."""
        if self.winner is None:
            head = "no winner"
        else:
            head = f"winner: seat {self.winner} ({self._who(self.winner)})"
        return (
            f"{head} after {self.turns} turns, {self.actions.height} decisions ({self.end_reason})"
        )

    def __str__(self) -> str:
        head = (f"{self.game}: game {self.index} of the batch with seed {self.batch_seed}; "
                + ", ".join(f"seat {s} {self._who(s)}" for s in range(len(self.bots))))  # fmt: skip
        return "\n".join([head, *self.log, self.outcome()])

    def __repr__(self) -> str:
        return (f"HarnessLog(game={self.game!r}, batch_seed={self.batch_seed}, index={self.index}, "
                f"winner={self.winner}, turns={self.turns}, end_reason={self.end_reason!r}, "
                f"{self.actions.height} decisions)")  # fmt: skip


def play_game(
    game: str,
    bots: object = "random",  # checked here: a spec string or a list of them
    seed: int = 0,
    index: int = 0,
    params: Optional[Mapping[str, ParamValue]] = None,
) -> HarnessLog:
    """Replay game ``index`` of ``simulate_game(game, bots, seed=seed, params=params)`` with
    its log. ``bots``: one spec string for every seat at the game's smallest seat count, or
    one per seat."""
    info = _game_info(game)
    if isinstance(bots, str):
        bots = [bots] * info["min_seats"]
    if isinstance(bots, Mapping) or not isinstance(bots, (list, tuple)):
        raise ValueError(
            f"bots must be a bot spec string or a list of them, one per seat, got {bots!r}"
        )
    bots_ = list(bots)
    for i, b in enumerate(bots_):
        if not isinstance(b, str):
            raise ValueError(f"bots[{i}] must be a bot spec string like 'greedy', got {b!r}")
    if not info["min_seats"] <= len(bots_) <= info["max_seats"]:
        raise ValueError(
            f"{game} takes {info['min_seats']} to {info['max_seats']} seats, got {len(bots_)} bots"
        )
    params_ = dict(params) if params is not None else {}
    g = game_state(game, seats=len(bots_), seed=seed, game_index=index, params=params_ or None)
    sides = list(g.sides)
    rows: list[dict[str, Any]] = []
    while not g.is_over:
        seat = g.current_player
        assert seat is not None
        options = len(g.legal_action_ids())
        a = g.bot_action(bots_[seat])
        rows.append({"step": len(rows), "turn": g.turns, "seat": seat,
                     "side": sides[seat] if seat < len(sides) else "", "bot": bots_[seat], "action": a,
                     "description": g.describe_action(a), "options": options})  # fmt: skip
        g.step(a)
    schema = {"step": pl.Int64, "turn": pl.Int64, "seat": pl.Int64, "side": pl.String, "bot": pl.String,
              "action": pl.Int64, "description": pl.String, "options": pl.Int64}  # fmt: skip
    return HarnessLog(game=game, bots=bots_, sides=sides, batch_seed=seed, index=index, params=params_,
                      actions=pl.DataFrame(rows, schema=schema), winner=g.winner,
                      winners=[int(x) for x in g.winners], end_reason=g.end_reason, turns=int(g.turns),
                      returns=[float(x) for x in g.returns()])  # fmt: skip
