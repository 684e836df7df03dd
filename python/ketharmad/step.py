"""The step API (issue 12): one game driven one decision at a time, from Python.

>>> import ketharmad
>>> g = ketharmad.Game(["ner", "tisza"], seed=1, index=0)
>>> while not g.is_over:
...     g.step(g.bot_action("heuristic"))      # or any id from g.legal_action_ids()
>>> g.winner, g.returns()

The game stops at every decision with two or more options (single options are taken
automatically, as in :func:`ketharmad.simulate`). Every option has an id in a fixed action
space of ``num_actions`` ids (the same id means the same thing in every game of the card
set: see :meth:`Game.describe_action` and docs/step_api.md). Stepping a game with
``bot_action(bots[g.current_player])`` plays exactly game ``game`` of
``simulate(decks, bots, seed=seed)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Optional, Union, Unpack

import numpy as np

from . import _core
from ._deprecation import issue_deprecation_warning
from .game.data import load_card_data
from .game.driver import driver_for, provide
from .game.formats import apply_format
from .game.harness import game_state
from .game.spec import GameSpec, SetupKeywords, setup_of, spec_of, take_setup
from .game.validate import check_decks, check_params


class Action(NamedTuple):
    """A legal action: its id in the fixed action space and a readable label."""

    id: int
    label: str

    def __int__(self) -> int:
        return self.id


#: Game's default decks (identity tells "not given" apart for the other games).
_DEFAULT_DECKS: tuple[str, ...] = ("ner", "tisza")


def _harness_game(
    game: str,
    decks: Any,
    seed: int,
    index: Optional[int],
    params: Any,
    seats: Optional[int],
    **ketharmad_only: Any,
) -> _core.HarnessGame:
    """``Game(game=...)`` of a game on the generic harness: its step object (game_state)."""
    given = {"decks": decks is not _DEFAULT_DECKS}
    given.update({k: (v is not None and v is not False) for k, v in ketharmad_only.items()})
    driver_for(game).refuse(
        "Game", given, "seats, seed, index and params (it is ketharmad.game_state)"
    )
    return game_state(game, seats=seats, seed=seed, game_index=0 if index is None else index,
                      params=dict(params) if params is not None else None)  # fmt: skip


class Game(_core.Game):
    """One Kétharmad game stopped at a decision (see the module documentation).

    Args:
        decks: one deck per seat (2-4 seats): a faction from ``ketharmad.FACTIONS``, a Mixed
            deck ``"a+b"``, a custom deck ``{"name": ..., "cards": {...}}`` or a deck file
            (docs/decks.md). ``Game.decks`` gives each seat's deck label.
        seed, index: the batch seed and the game's index in that batch: the game is game
            ``index`` of ``simulate(decks, ..., seed=seed)``.
        game: the game's name (``"ketharmad"``, the default) or a
            :class:`ketharmad.GameSpec` (:func:`ketharmad.load_game`: its setup, explicit
            keywords added). An int is the older form of ``index`` (``Game(decks, seed=s,
            game=k)`` is ``Game(decks, seed=s, index=k)``, with a DeprecationWarning:
            deprecated in 0.2.0, removed in 0.3.0; not both). ``Game(game="schotten_totten_2" | "osztrakon", seats=...,
            seed=s, index=k, params=...)`` returns that game's step object instead, a
            :class:`ketharmad.HarnessGame` (what the deprecated ``game_state`` returned; not an
            instance of this class), and refuses the Kétharmad-only arguments (``decks``,
            ``card_data``, ``start_player``, ``log``, ``record_plays``, ``format``).
        seats: the seat count of another game (default its smallest: Schotten Totten 2 2,
            Osztrakon 5); not for Kétharmad (its seats are its decks).
        params: parameter overrides ``{name: value}`` (see :func:`ketharmad.parameters`).
        card_data: None for the packaged card set, ``"balanced"``, or a TOML file's path
            (a setup keyword, :class:`ketharmad.game.spec.SetupKeywords`, as ``format`` and
            ``start_player``; or in ``game=load_game(...)``).
        start_player: None draws the start seat from the game's seed; a seat fixes it.
        log: keep the readable log (:attr:`log`); costs a string per action.
        record_plays: keep every card play (for :func:`ketharmad._core.columns_of`).
        format: the game format, as in :func:`ketharmad.simulate` (``"ffa"``, the default,
            or ``"coalition"`` and ``"pairs"``: exactly 4 decks; ``returns()`` gives +1 to
            both winners; ``"diplomacy"``: 3 or 4 decks).

    The stepping methods (``step``, ``legal_action_ids``, ``current_player`` …) are the
    core's own (no Python layer in the hot loop).
    """

    __slots__ = ()

    def __new__(
        cls,
        decks: Sequence[str] = _DEFAULT_DECKS,
        *,
        seed: int = 0,
        game: Union[str, GameSpec, int] = "ketharmad",
        params: Optional[Mapping[str, Union[int, bool, str]]] = None,
        log: bool = False,
        record_plays: bool = False,
        index: Optional[int] = None,
        **setup: Unpack[SetupKeywords],
    ) -> Game:
        card_data, format, start_player, seats = take_setup(
            "Game", setup, ("card_data", "format", "start_player", "seats")
        )
        if isinstance(
            game, GameSpec
        ):  # a game value: its setup, with this call's explicit keywords
            spec, decks_given, card_data, format, start_player, params, seats = setup_of(
                game, "Game", decks=None if decks is _DEFAULT_DECKS else decks, card_data=card_data, format=format,
                start_player=start_player, params=params, seats=seats)  # fmt: skip
            game, decks = spec.name, _DEFAULT_DECKS if decks_given is None else decks_given
        if isinstance(game, str):
            if not spec_of(game).is_ketharmad:
                return _harness_game(
                    game,
                    decks,
                    seed,
                    index,
                    params,
                    seats,
                    card_data=card_data,  # type: ignore[return-value]  # not a Game: __new__ cannot say so
                    start_player=start_player,
                    log=log,
                    record_plays=record_plays,
                    format=format,
                )
            game = 0 if index is None else index
        elif index is not None:
            raise ValueError(
                f"give the game's index once: index={index!r} or (the older form) game={game!r}"
            )
        else:
            issue_deprecation_warning("Game(game=<int>) as the game's index", "Game(index=...)")
        if seats is not None:
            raise ValueError(
                "seats is for the games on the generic harness (Game(game='osztrakon', seats=7)); "
                "a Kétharmad game has one seat per deck"
            )
        if isinstance(decks, str):
            raise ValueError("decks must be a list of faction names, one per seat, not a string")
        for name, v in (("seed", seed), ("game" if index is None else "index", game)):
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise ValueError(f"{name} must be a whole number >= 0, got {v!r}")
        decks_ = check_decks(decks)
        text, params_ = apply_format(load_card_data(card_data), check_params(params), format)
        return super().__new__(
            cls,
            text,
            decks_,
            int(seed),
            int(game),
            params_ or None,
            start_player,
            bool(log),
            bool(record_plays),
        )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    @property
    def _core(self) -> Game:
        """The core game (this object itself; kept for ``_core.columns_of``)."""
        return self

    # The core's own members: num_players, num_actions, observation_size, seed, game,
    # decks, current_player, decision_kind ("mulligan", "bottom", "main", "respond",
    # "target", "attackers", "blocks", "divide_damage", "expose_amount", "discard",
    # "sacrifice", "decline_start"; None once over), is_over, winner, end_reason, round, turn, log,
    # returns() (+1 winner, -1 the others; all 0 without a winner), legal_action_ids(),
    # action_mask(), step(action), step_index(i), observation(seat),
    # observation_tensor(seat), describe_action(id), advance(bots). docs/step_api.md.

    def legal_actions(self) -> list[Action]:
        """The legal actions of the pending decision, with readable labels."""
        return [Action(i, label) for i, label in super().legal_actions()]

    def bot_action(self, spec: Union[str, Mapping[str, Any]] = "heuristic") -> int:
        """The id a built-in bot (``"random"``, ``"heuristic"``, ``{"kind": "search", ...}``)
        would choose here, with the seeded stream :func:`ketharmad.simulate` gives that
        seat's bot in this game (each call advances it, as in the batch)."""
        return super().bot_action(dict(spec) if isinstance(spec, Mapping) else spec)

    def bot_choice(
        self, spec: Union[str, Mapping[str, Any]] = "heuristic"
    ) -> tuple[int, Optional[list[tuple[int, int, float]]]]:
        """:meth:`bot_action` (the same choice and stream) with the search's root statistics:
        ``(id, scores)``, ``scores`` one ``(id, visits, mean reward -1..1)`` per option a
        ``search`` or ``ismcts`` bot tried at this decision, most visited first (``search``:
        its rollouts per option and 2 x its win rate - 1), or None when the bot did not search
        it (another bot, or a decision it leaves to its heuristic). For viewers (the replay)."""
        return super().bot_choice(dict(spec) if isinstance(spec, Mapping) else spec)

    def advance(self, bots: Sequence[Union[None, str, Mapping[str, Any]]]) -> None:
        """Let built-in bots play: ``bots`` has one entry per seat, a bot spec or None.
        Seats with a spec are answered in Rust until a None seat must decide (or the game is
        over)."""
        super().advance([dict(b) if isinstance(b, Mapping) else b for b in bots])

    def clone(self) -> Game:
        """An independent copy at the same decision (the same continuation for the same
        answers; built-in bots' streams are copied too)."""
        return _core.Game.__new__(type(self), "", [], 0, 0, None, None, False, False, self)

    def determinize(self, seat: int, seed: int) -> Game:
        """A copy in which everything ``seat`` cannot see is re-dealt at random (with
        ``seed``) from what it could be, and the future randomness reseeded: a sample of the
        seat's information set, for search. It replays the game since its last checkpoint
        and stops at the same decision (``current_player``/``decision_kind`` tell if the
        re-dealt cards led elsewhere, which is rare)."""
        return _core.Game.__new__(
            type(self), "", [], 0, 0, None, None, False, False, self, int(seat), int(seed)
        )


provide(ketharmad_stepper=Game)
