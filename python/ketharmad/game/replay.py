"""One game of a batch recorded decision by decision, for every game (issue 28): what the
replay viewer (:mod:`ketharmad.results.replay_html`) and ``ketharmad diff`` show.

>>> from ketharmad.game.replay import record_game
>>> r = record_game("schotten_totten_2", bots=["greedy", "search:iterations=50"], seed=1, index=3)
>>> len(r.decisions), r.winner, r.log[:2]
>>> d = r.decisions[0]
>>> d.seat, d.options, d.chosen, d.scores      # scores: the search's root statistics

The game is stepped through the step API with ``bot_choice(bots[seat])`` (the choice and the
seeded stream of ``bot_action``, plus the search's root statistics), so it is exactly game
``index`` of the batch with ``seed`` (``ketharmad.simulate`` / ``ketharmad.play`` with the same
arguments): the same winner, turns and log lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional, Union, Unpack

from .data import load_card_data
from .driver import driver_for
from .formats import apply_format
from .spec import GameSpec, SetupKeywords, resolve, take_setup
from .validate import bot_label, check_bots, check_int, check_params
from .view import card_names, view_of

__all__ = ["Decision", "GameRecord", "record_game", "game_of", "MAX_DECISIONS"]

#: The most decisions a recorded game may have (a replay that large would not open in a browser).
MAX_DECISIONS = 100_000


@dataclass
class Decision:
    """One decision of a recorded game.

    ``step``: its index (0 = the first decision); ``seat``, ``kind`` (Kétharmad's decision
    kind, ``""`` for the other games), ``turn`` (the game's clock then); ``options``: the legal
    actions as ``(id, label)``; ``chosen``: the id the bot chose; ``scores``: for a search
    bot that searched this decision, one ``(id, visits, mean reward -1..1)`` per option it
    tried (most visited first), else None; ``log``: the log lines the answer led to (until
    the next decision); ``view``: the table before the decision
    (:func:`ketharmad.game.view.view_of`, everything)."""

    step: int
    seat: int
    kind: str
    turn: int
    options: list[tuple[int, str]]
    chosen: int
    scores: Optional[list[tuple[int, int, float]]]
    log: list[str]
    view: dict[str, Any]

    @property
    def chosen_label(self) -> str:
        return next(label for i, label in self.options if i == self.chosen)


class GameRecord:
    """One game recorded decision by decision (:func:`record_game`).

    ``game`` (its name), ``spec`` (the :class:`GameSpec`), ``bots`` (labels, one per seat),
    ``seat_names`` (``"P0 ner"``, ``"attacker"``, ``"seat 3"``), ``seed`` and ``index`` (game
    ``index`` of the batch with ``seed``); ``decisions``; ``start_log``: the log lines before
    the first decision (Kétharmad's setup); ``final_view``: the table at the end; ``winner``
    (None without one), ``winners``, ``end_reason``, ``turns``; :attr:`log`: every log line."""

    def __init__(self, spec: GameSpec, bots: list[str], seat_names: list[str], seed: int,
                 index: int) -> None:  # fmt: skip
        self.spec = spec
        self.game: str = spec.name
        self.bots = bots
        self.seat_names = seat_names
        self.seed = seed
        self.index = index
        self.decisions: list[Decision] = []
        self.start_log: list[str] = []
        self.final_view: dict[str, Any] = {}
        self.winner: Optional[int] = None
        self.winners: list[int] = []
        self.end_reason: Optional[str] = None
        self.turns = 0

    @property
    def log(self) -> list[str]:
        """The game's whole log: what ``ketharmad.play`` prints before its outcome line."""
        return [*self.start_log, *(line for d in self.decisions for line in d.log)]

    def outcome(self) -> str:
        head = "no winner" if self.winner is None else f"winner: {self.seat_names[self.winner]}"
        return (
            f"{head} after {self.turns} turns, {len(self.decisions)} decisions ({self.end_reason})"
        )

    def __repr__(self) -> str:
        return (f"GameRecord({self.game!r}, seed={self.seed}, index={self.index}, "
                f"{len(self.decisions)} decisions, {self.outcome()})")  # fmt: skip


def game_of(
    game: Union[str, GameSpec] = "ketharmad",
    bots: Any = "random",
    *,
    decks: Optional[Sequence[str]] = None,
    params: Optional[Mapping[str, Any]] = None,
    card_data: Any = None,
    format: Any = None,
    start_player: Optional[int] = None,
    seats: Optional[int] = None,
) -> tuple[GameSpec, list[Any]]:
    """The checked :class:`GameSpec` and one bot spec per seat of a replayed or played game
    (the arguments of ``ketharmad play``): Kétharmad's built-in bots (a str or dict, or one
    per seat); a harness game's spec strings, one per seat (the list's length is the seat
    count) or one for every seat of ``seats`` (default the game's smallest count). A
    ValueError names anything wrong: an unknown game, a setup key the game does not take, a
    bad bot or seat count."""
    spec = resolve(game, decks=decks, params=params, card_data=card_data, format=format,
                   start_player=start_player, seats=seats)  # fmt: skip
    if spec.is_ketharmad:
        return spec, check_bots(bots, spec.n_seats)
    driver = driver_for(spec)
    n = len(bots) if isinstance(bots, (list, tuple)) and spec.seats is None else spec.n_seats
    if isinstance(bots, (list, tuple)) and len(bots) != n:
        raise ValueError(
            f"{spec.name}: {len(bots)} bot specs for {n} seats; give one for every seat or one per seat"
        )
    checked = driver.check_bots(bots, n)
    if spec.seats is None and n != spec.n_seats:
        spec = resolve(spec, seats=n)
    return spec, checked


def _seat_names(spec: GameSpec, g: Any) -> list[str]:
    n = int(g.num_players)
    if spec.is_ketharmad:
        return [f"P{s} {d}" for s, d in enumerate(g.decks)]
    sides = list(spec.sides)
    return [sides[s] if s < len(sides) else f"seat {s}" for s in range(n)]


def _harness_line(turn: int, seat: int, who: str, label: str) -> str:
    """A harness game's log line (as :class:`ketharmad.game.harness_play.HarnessLog` writes it)."""
    return f"[turn {turn}] seat {seat} ({who}): {label}"


def record_game(
    game: Union[str, GameSpec] = "ketharmad",
    bots: Any = "random",
    seed: int = 0,
    index: int = 0,
    *,
    decks: Optional[Sequence[str]] = None,
    params: Optional[Mapping[str, Any]] = None,
    **setup: Unpack[SetupKeywords],
) -> GameRecord:
    """Record game ``index`` of the batch with ``seed`` decision by decision (see the module
    documentation); the arguments are those of ``ketharmad.play`` (:func:`game_of`; the setup
    keywords ``card_data``, ``format``, ``start_player``, ``seats``). A game with more than
    :data:`MAX_DECISIONS` decisions is a ValueError (a replay that large would not open in a
    browser)."""
    card_data, format, start_player, seats = take_setup(
        "record_game", setup, ("card_data", "format", "start_player", "seats")
    )
    spec, bot_specs = game_of(game, bots, decks=decks, params=params, card_data=card_data,
                              format=format, start_player=start_player, seats=seats)  # fmt: skip
    max_decisions = MAX_DECISIONS
    seed = check_int("seed", seed, 0)
    index = check_int("index", index, 0)
    driver = driver_for(spec)
    names: dict[str, str] = {}
    g: Any  # a ketharmad.Game or a HarnessGame: the step API they share, and their own clocks
    if spec.is_ketharmad:
        g = driver.stepper(seed=seed, index=index, log=True)
        text, _ = apply_format(load_card_data(spec.card_data), check_params(spec.params),
                               spec.get("format"))  # fmt: skip
        names = card_names(text)
    else:
        g = driver.stepper(seed=seed, index=index, seats=spec.n_seats)
    labels = [bot_label(b) for b in bot_specs]
    rec = GameRecord(spec, labels, _seat_names(spec, g), seed, index)
    sides = list(spec.sides) if not spec.is_ketharmad else []
    logged = 0
    if spec.is_ketharmad:
        rec.start_log = list(g.log)
        logged = len(rec.start_log)
    while not g.is_over:
        if len(rec.decisions) >= max_decisions:
            raise ValueError(f"{spec.name}: game {index} has more than {max_decisions} decisions")
        seat = int(g.current_player)
        view = view_of(g, names=names)
        options = [(int(i), str(label)) for i, label in g.legal_actions()]
        kind = str(g.decision_kind) if spec.is_ketharmad else ""
        turn = int(g.turn if spec.is_ketharmad else g.turns)
        chosen, scores = g.bot_choice(bot_specs[seat])
        g.step(chosen)
        if spec.is_ketharmad:
            lines = list(g.log)
            new, logged = lines[logged:], len(lines)
        else:
            side = sides[seat] if seat < len(sides) else ""
            who = f"{side}, {bot_specs[seat]}" if side else str(bot_specs[seat])
            new = [_harness_line(turn, seat, who, g.describe_action(chosen))]
        rec.decisions.append(Decision(step=len(rec.decisions), seat=seat, kind=kind, turn=turn, options=options,
                                      chosen=int(chosen), view=view, log=new,
                                      scores=None if scores is None else [(int(a), int(v), float(m))
                                                                         for a, v, m in scores]))  # fmt: skip
    rec.final_view = view_of(g, names=names)
    rec.winner = None if g.winner is None else int(g.winner)
    rec.winners = [int(w) for w in g.winners] if hasattr(g, "winners") else (
        [] if rec.winner is None else [rec.winner])  # fmt: skip
    rec.end_reason = g.end_reason
    rec.turns = int(g.turn if spec.is_ketharmad else g.turns)
    return rec
