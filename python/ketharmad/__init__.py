"""Kétharmad: a fast, deterministic simulator of the Kétharmad card game.

>>> import ketharmad
>>> res = ketharmad.simulate(["ner", "tisza"], games=10_000, seed=1)
>>> res.summary()          # per-seat win rates with Wilson 95 % intervals
>>> res.games, res.players # polars DataFrames, one row per game / per (game, seat)
>>> print(ketharmad.play(["ner", "tisza"], seed=1, game=42))  # replay one game with its log

Balance lab (docs/balance_lab.md):

>>> m = ketharmad.matchups(games_per_side=2000)        # 4x4 faction matrix, start balanced
>>> cs = ketharmad.card_stats(ketharmad.simulate(["ner", "tisza"], "heuristic", 20_000,
...                                              record_plays=True))   # 17lands-style card rates
>>> sw = ketharmad.sweep({"ner_orban_viktor.influence": [4, 5, 6]}, decks="all")
>>> ketharmad.write_run(m, "runs/")                     # Parquet with provenance

Other games (docs/games.md): ``game="schotten_totten_2" | "osztrakon"`` on simulate, play,
matchups, tournament, Game and env; ``ketharmad.games()`` lists them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _core, stats
from ._api import cards, parameters, play, simulate
from .lab.balance import BalanceResult, balance
from .lab.card_stats import CardStatsResult, card_stats
from ._export import export_card_data
from ._formats import formats
from ._files import write_run
from .lab.report import write_report
from .lab.matchups import MatchupResult, matchups
from .lab.standings import deck_table, seat_table
from ._results import GameLog, SimResult
from .step import Action, Game
from .games import GameResult, GameStats, HarnessGame, game_matchups, game_state, games, simulate_game
from .lab.sweep import SweepResult, sweep
from .lab.tournament import TournamentResult, bots, tournament
from .lab.harness import GameMatchupResult, GameTournamentResult
from ._harness_play import HarnessLog

if TYPE_CHECKING:  # the rl extra is optional: imported by env() / gym_env() only
    from . import rl

#: The faction (deck) names, in the core's order.
FACTIONS: tuple[str, ...] = tuple(_core.FACTIONS)
#: Why a game ended, in the core's code order.
END_REASONS: tuple[str, ...] = tuple(_core.END_REASONS)
#: The bot kinds the core knows.
BOT_KINDS: tuple[str, ...] = tuple(_core.BOT_KINDS)

__version__: str = _core.version()


def env(*args: Any, **kwargs: Any) -> rl.KetharmadAECEnv | rl.HarnessAECEnv:
    """A PettingZoo AEC environment (one agent per seat); see :func:`ketharmad.rl.env`
    (``game="schotten_totten_2" | "osztrakon"``: :func:`game_env`). Needs the ``rl`` extra
    (``pip install 'ketharmad[rl]'``), imported only here."""
    from .rl import env as _env

    return _env(*args, **kwargs)


def game_env(*args: Any, **kwargs: Any) -> rl.HarnessAECEnv:
    """A PettingZoo AEC environment of Schotten Totten 2 or Osztrakon; see
    :func:`ketharmad.rl.game_env`. Needs the ``rl`` extra (``pip install 'ketharmad[rl]'``)."""
    from .rl import game_env as _game_env

    return _game_env(*args, **kwargs)


def gym_env(*args: Any, **kwargs: Any) -> rl.KetharmadGymEnv | rl.HarnessGymEnv:
    """A Gymnasium environment playing one seat against built-in bots; see
    :func:`ketharmad.rl.gym_env` (``game="schotten_totten_2" | "osztrakon"``:
    :class:`ketharmad.rl.HarnessGymEnv`, the other seats played by that game's bots). Needs the ``rl`` extra (``pip install 'ketharmad[rl]'``)."""
    from .rl import gym_env as _gym_env

    return _gym_env(*args, **kwargs)

__all__ = [
    "FACTIONS",
    "END_REASONS",
    "BOT_KINDS",
    "Action",
    "Game",
    "GameLog",
    "SimResult",
    "MatchupResult",
    "CardStatsResult",
    "SweepResult",
    "BalanceResult",
    "balance",
    "matchups",
    "card_stats",
    "sweep",
    "write_run",
    "write_report",
    "TournamentResult",
    "bots",
    "tournament",
    "__version__",
    "env",
    "gym_env",
    "cards",
    "export_card_data",
    "formats",
    "seat_table",
    "deck_table",
    "parameters",
    "play",
    "simulate",
    "stats",
    "games",
    "simulate_game",
    "game_matchups",
    "GameResult",
    "GameStats",
    "game_state",
    "HarnessGame",
    "game_env",
    "GameMatchupResult",
    "GameTournamentResult",
    "HarnessLog",
]
