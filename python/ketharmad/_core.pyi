"""Type stub for the Rust extension ``ketharmad._core`` (see docs/core_interface.md).

Every error is a ``ValueError`` naming the problem; a panic inside one game becomes
``RuntimeError("game <i> (seed <s>) panicked: ...")`` and any other panic ``RuntimeError(
"internal error in <function>: ...")`` (never a ``PanicException``). ``simulate`` and ``play``
run on a worker thread and raise ``KeyboardInterrupt`` within about a second of Ctrl-C.
"""

from typing import Any, Optional, TypedDict, Union

import numpy as np
import numpy.typing as npt

ParamValue = Union[int, bool, str]
BotSpec = Union[str, dict[str, Any]]

FACTIONS: list[str]
"""``["ner", "osszefogas", "tisza", "radikalisok"]``"""
END_REASONS: list[str]
"""``["last_player_standing", "simultaneous_elimination", "unfinished_round_cap",
"unfinished_action_cap"]``; ``end_reason`` codes index into it."""
BOT_KINDS: list[str]
"""``["random", "heuristic", "aggro", "control", "search"]``"""
MAX_THREADS: int
"""Largest ``threads`` accepted (1024); pools are capped at the machine's cores."""
AVAILABLE_THREADS: int
"""The machine's cores as the core sees them (``std::thread::available_parallelism``)."""
GAME_ROW_BYTES: int
"""Bytes of the raw ``games`` columns per game."""
SEAT_ROW_BYTES: int
"""Bytes of the raw ``players`` columns per game and seat."""
PLAY_ROW_BYTES: int
"""Bytes of the raw ``plays`` columns per card play."""

class _PlayResult(TypedDict):
    log: list[str]
    winner: int  # -1 = none
    turns: int
    rounds: int
    end_reason: int  # index into END_REASONS
    support: list[int]
    scandal: list[int]
    rollouts: list[int]  # per seat: search rollouts played (0 for other bots)
    unfinished_rollouts: list[int]  # per seat: rollouts cut by a cap or rollout_rounds
    seed: int
    start_player: int

def version() -> str: ...
def card_table(card_data: str) -> dict[str, list[Any]]:
    """Columns id, name, faction, type, copies, cost, cost_generic, cost_f, cost_m, cost_u,
    influence (int | None), credibility (int | None), keywords, party, role, text; one entry
    per distinct card, in file order."""

def parameter_table(card_data: str) -> dict[str, list[Any]]:
    """Columns name, default (int), default_str, kind ("int" | "bool" | "cost"), min, max,
    card (card id or "rules"), description."""

def validate(
    card_data: str, decks: list[str], bots: list[BotSpec], params: dict[str, ParamValue]
) -> None: ...
def simulate(
    card_data: str,
    decks: list[str],
    bots: list[BotSpec],
    games: int,
    seed: int,
    threads: Optional[int] = None,
    params: Optional[dict[str, ParamValue]] = None,
    start_player: Optional[int] = None,
    record_plays: bool = False,
    first_game: int = 0,
) -> dict[str, dict[str, npt.NDArray[np.generic]]]:
    """Returns ``{"games": {...}, "players": {...}, "plays": {...}}``; plays games
    ``first_game .. first_game + games - 1`` of the batch (the ``game`` column is absolute).

    games (length ``games``): game int64, seed uint64, winner int8 (-1 = none), turns int32,
    rounds int32, end_reason uint8, start_player int8, actions int32.

    players (length ``games * n_seats``, game-major, seat-minor): game int64, seat int8,
    faction uint8, won bool, support int32, scandal int32, eliminated bool,
    eliminated_round int32 (-1 if not), cards_played int32, attacks int32, exposes int32,
    mulligans int8, turns_taken int32, main_decisions int32, rollouts uint32 and
    unfinished_rollouts uint32 (search bots: rollouts played, and those cut unfinished by a
    round/action cap or ``rollout_rounds``; 0 for other bots), and the card sets
    opening_lo/hi, drawn_lo/hi, played_lo/hi uint64 (bit k = card-definition k).

    plays (empty unless ``record_plays``): game int64, seat int8, card uint16, turn uint16.

    ``threads`` above ``MAX_THREADS`` and result columns that cannot be allocated raise
    ``ValueError`` before any game runs; Ctrl-C raises ``KeyboardInterrupt``.
    """

def card_data_hash(card_data: str) -> str:
    """FNV-1a hash of the card-data text, 16 hex digits."""

def bot_table() -> dict[str, list[Any]]: ...
def _pools_built() -> int:
    """Test hook: thread pools built so far in this process (one per distinct size)."""

def play(
    card_data: str,
    decks: list[str],
    bots: list[BotSpec],
    seed: int,
    game: int,
    params: Optional[dict[str, ParamValue]] = None,
    start_player: Optional[int] = None,
) -> _PlayResult: ...
