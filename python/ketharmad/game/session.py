"""One game played by a person at one seat against the built-in bots, with undo (issue 28):
what ``ketharmad play --human SEAT`` drives in the terminal, for every game.

>>> from ketharmad.game.session import PlaySession
>>> s = PlaySession("schotten_totten_2", bots="greedy", human=1, seed=3)
>>> s.view()            # what seat 1 may see (ketharmad.game.view)
>>> s.options()         # the legal actions: (id, label)
>>> s.choose(0)         # answer with the first; the bots answer until seat 1 decides again
>>> s.undo()            # back to seat 1's previous decision (the bots' streams too)
>>> s.over, s.log, s.outcome()

The other seats are answered with ``bot_action(bots[seat])``, the seeded streams of the batch:
a person who answers as the bot of their seat would plays exactly game ``index`` of the batch
with ``seed``. Undo restores a copy taken before each of the person's decisions
(``clone()``: the game, its record and every bot's stream).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional, Union

from .data import load_card_data
from .driver import driver_for
from .formats import apply_format
from .replay import game_of
from .spec import GameSpec
from .validate import bot_label, check_params
from .view import card_names, view_of

__all__ = ["PlaySession"]


@dataclass
class _Snapshot:
    game: Any
    lines: int
    decisions: int


class PlaySession:
    """A game with a person at seat ``human`` (see the module documentation). ``bots``: one
    spec for every seat or one per seat (the person's seat's entry is not used); ``setup``:
    the keywords of :func:`ketharmad.game.replay.game_of`. A seat out of range, an unknown
    game or a bad bot is a ValueError naming it."""

    def __init__(
        self,
        game: Union[str, GameSpec] = "ketharmad",
        bots: Any = "random",
        human: int = 0,
        seed: int = 0,
        index: int = 0,
        **setup: Any,
    ) -> None:
        self.spec, self.bots = game_of(game, bots, **setup)
        n = len(self.bots)
        if isinstance(human, bool) or not isinstance(human, int) or not 0 <= human < n:
            raise ValueError(
                f"human seat {human!r} does not exist: this {self.spec.name} game has seats 0..{n - 1}"
            )
        self.human = human
        self.seed, self.index = seed, index
        driver = driver_for(self.spec)
        self._names: dict[str, str] = {}
        self.game: Any  # a ketharmad.Game or a HarnessGame (the step API they share)
        if self.spec.is_ketharmad:
            self.game = driver.stepper(seed=seed, index=index, log=True)
            text, _ = apply_format(load_card_data(self.spec.card_data), check_params(self.spec.params),
                                   self.spec.get("format"))  # fmt: skip
            self._names = card_names(text)
            self.seat_names = [f"P{s} {d}" for s, d in enumerate(self.game.decks)]
        else:
            self.game = driver.stepper(seed=seed, index=index, seats=self.spec.n_seats)
            sides = list(self.spec.sides)
            self.seat_names = [sides[s] if s < len(sides) else f"seat {s}" for s in range(n)]
        self.bot_labels = [bot_label(b) for b in self.bots]
        self._lines: list[str] = []  # a harness game's log (Kétharmad keeps its own)
        self.decisions = 0
        self._undo: list[_Snapshot] = []
        self._advance()

    # -- the game --------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return bool(self.game.is_over)

    @property
    def log(self) -> list[str]:
        """Every log line so far (Kétharmad's engine log; the other games one line per
        decision, as :class:`ketharmad.game.harness_play.HarnessLog` writes them)."""
        return list(self.game.log) if self.spec.is_ketharmad else list(self._lines)

    @property
    def winner(self) -> Optional[int]:
        return None if self.game.winner is None else int(self.game.winner)

    @property
    def turn(self) -> int:
        return int(self.game.turn if self.spec.is_ketharmad else self.game.turns)

    def outcome(self) -> str:
        if not self.over:
            return f"not over: {self.decisions} decisions, turn {self.turn}"
        who = "no winner" if self.winner is None else f"winner: {self.seat_names[self.winner]}"
        you = "" if self.winner is None else (" (you)" if self.winner == self.human else "")
        return f"{who}{you} after {self.turn} turns, {self.decisions} decisions ({self.game.end_reason})"

    def view(self) -> dict[str, Any]:
        """What the person's seat may see now (:func:`ketharmad.game.view.view_of`)."""
        return view_of(self.game, seat=self.human, names=self._names)

    def decision_kind(self) -> str:
        return str(self.game.decision_kind or "") if self.spec.is_ketharmad else ""

    def options(self) -> list[tuple[int, str]]:
        """The legal actions of the person's pending decision, as (id, label)."""
        return [(int(i), str(label)) for i, label in self.game.legal_actions()]

    # -- answering -------------------------------------------------------------------------
    def choose(self, i: int) -> None:
        """Answer the person's decision with option ``i`` (an index into :meth:`options`);
        then the bots answer until the person decides again or the game is over."""
        if self.over:
            raise ValueError("the game is over: no decision to answer")
        opts = self.options()
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(opts):
            raise ValueError(f"option {i!r} does not exist: choose 0..{len(opts) - 1}")
        self._undo.append(_Snapshot(self.game.clone(), len(self._lines), self.decisions))
        self._step(opts[i][0], "you")
        self._advance()

    def can_undo(self) -> bool:
        return bool(self._undo)

    def undo(self) -> bool:
        """Back to the person's previous decision (False: there is none)."""
        if not self._undo:
            return False
        snap = self._undo.pop()
        self.game = snap.game
        del self._lines[snap.lines :]
        self.decisions = snap.decisions
        return True

    def _step(self, action: int, who: str) -> None:
        seat = int(self.game.current_player)
        turn = self.turn
        self.game.step(action)
        self.decisions += 1
        if not self.spec.is_ketharmad:
            side = self.seat_names[seat] if self.spec.sides else ""
            name = f"{side}, {who}" if side else who
            self._lines.append(
                f"[turn {turn}] seat {seat} ({name}): {self.game.describe_action(action)}"
            )

    def _advance(self) -> None:
        while not self.over and int(self.game.current_player) != self.human:
            seat = int(self.game.current_player)
            self._step(int(self.game.bot_action(self.bots[seat])), self.bot_labels[seat])

    def seat_label(self, seat: int) -> str:
        you = " (you)" if seat == self.human else f" ({self.bot_labels[seat]})"
        return self.seat_names[seat] + you

    @staticmethod
    def zones_of(view: Mapping[str, Any], owner: Optional[int]) -> Sequence[Mapping[str, Any]]:
        return [z for z in view["zones"] if z["owner"] == owner]
