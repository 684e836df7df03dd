"""Kétharmad: a fast, deterministic simulator of the Kétharmad card game.

>>> import ketharmad
>>> res = ketharmad.simulate(["ner", "tisza"], games=10_000, seed=1)
>>> res.summary()          # per-seat win rates with Wilson 95 % intervals
>>> res.games, res.players # polars DataFrames, one row per game / per (game, seat)
>>> print(ketharmad.play(["ner", "tisza"], seed=1, index=42))  # replay one game with its log

Balance lab (docs/balance_lab.md):

>>> m = ketharmad.matchups(games_per_side=2000)        # 4x4 faction matrix, start balanced
>>> cs = ketharmad.card_stats(ketharmad.simulate(["ner", "tisza"], "heuristic", 20_000,
...                                              record_plays=True))   # 17lands-style card rates
>>> sw = ketharmad.sweep({"ner_orban_viktor.influence": [4, 5, 6]}, decks="all")
>>> ketharmad.write_run(m, "runs/")                     # Parquet with provenance + report.html
>>> ketharmad.compare_runs("runs/a", "runs/b")         # the cells that changed beyond noise
>>> ketharmad.health(game="ketharmad", games=2000)    # 12+ game-health metrics (docs/health.md)

Other games (docs/games.md): ``game="schotten_totten_2" | "osztrakon"`` (a name, or a
:class:`GameSpec` from :func:`load_game`) on simulate, play, matchups, tournament, Game and env;
``ketharmad.games()`` lists them (a polars table).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import _core, stats
from . import games as _games_module
from ._deprecation import deprecate_function, issue_deprecation_warning
from ._version import __version__
from .api import cards, formats, parameters, play, replay_html, simulate
from .game import GameSpec, load_game
from .game.harness_play import HarnessLog
from .game.replay import GameRecord, record_game
from .games import GameStats, HarnessGame, games
from .lab.ab_test import ABTestResult, ab_test
from .lab.balance import BalanceResult, BalanceSettings, balance
from .lab.card_stats import CardStatsResult, card_stats
from .lab.diagnose import DiagnoseResult, diagnose
from .lab.diff import DiffResult, diff
from .lab.health import HealthResult, health
from .lab.ladder import LadderResult, ladder
from .lab.matchups import MatchupResult, matchups
from .lab.standings import deck_table, seat_table
from .lab.sweep import SweepResult, sweep
from .lab.tournament import TournamentResult, bots, tournament
from .lab.tune import TuneResult, tune_bot
from .learn.train import TrainAllResult, train
from .results.compare import CompareResult, compare_runs
from .results.export import export_card_data
from .results.files import write_run
from .results.lab import write_report
from .results.sim import GameLog, SimResult
from .run.options import RunOptions
from .step import Action, Game

if TYPE_CHECKING:  # the rl extra is optional: imported by env() / gym_env() only
    from . import rl

#: The faction (deck) names, in the core's order.
FACTIONS: tuple[str, ...] = tuple(_core.FACTIONS)
#: Why a game ended, in the core's code order.
END_REASONS: tuple[str, ...] = tuple(_core.END_REASONS)
#: The bot kinds the core knows.
BOT_KINDS: tuple[str, ...] = tuple(_core.BOT_KINDS)


def env(*args: Any, **kwargs: Any) -> rl.KetharmadAECEnv | rl.HarnessAECEnv:
    """A PettingZoo AEC environment (one agent per seat); see :func:`ketharmad.rl.env`
    (``game="schotten_totten_2" | "osztrakon"`` or a :class:`GameSpec` of one: that game's
    environment). Needs the ``rl`` extra (``pip install 'ketharmad[rl]'``), imported only here."""
    from .rl import env as _env  # lazy: the rl extra (pettingzoo, gymnasium) is optional

    return _env(*args, **kwargs)


@deprecate_function("env(game=...)", name="game_env")
def game_env(*args: Any, **kwargs: Any) -> rl.HarnessAECEnv:
    """A PettingZoo AEC environment of Schotten Totten 2 or Osztrakon: ``env(game=...)``
    (:func:`ketharmad.rl.env`). Needs the ``rl`` extra (``pip install 'ketharmad[rl]'``)."""
    from .rl import _game_env  # lazy: the rl extra (pettingzoo, gymnasium) is optional

    return _game_env(*args, **kwargs)


#: Deprecated in 0.2.0, removed in 0.3.0 (each warns and names its replacement).
simulate_game = deprecate_function("simulate(game=...)", name="simulate_game")(
    _games_module.simulate_game
)
game_matchups = deprecate_function("matchups(game=...)", name="game_matchups")(
    _games_module.game_matchups
)
game_state = deprecate_function("Game(game=..., index=...)", name="game_state")(
    _games_module.game_state
)


def gym_env(*args: Any, **kwargs: Any) -> rl.KetharmadGymEnv | rl.HarnessGymEnv:
    """A Gymnasium environment playing one seat against built-in bots; see
    :func:`ketharmad.rl.gym_env` (``game="schotten_totten_2" | "osztrakon"``:
    :class:`ketharmad.rl.HarnessGymEnv`, the other seats played by that game's bots). Needs the ``rl`` extra (``pip install 'ketharmad[rl]'``)."""
    from .rl import gym_env as _gym_env  # lazy: the rl extra (pettingzoo, gymnasium) is optional

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
    "DiagnoseResult",
    "SweepResult",
    "BalanceResult",
    "BalanceSettings",
    "balance",
    "matchups",
    "card_stats",
    "diagnose",
    "sweep",
    "write_run",
    "write_report",
    "compare_runs",
    "CompareResult",
    "TournamentResult",
    "bots",
    "tournament",
    "ABTestResult",
    "ab_test",
    "LadderResult",
    "ladder",
    "TuneResult",
    "train",
    "TrainAllResult",
    "tune_bot",
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
    "GameSpec",
    "load_game",
    "RunOptions",
    "simulate_game",
    "game_matchups",
    "GameStats",
    "game_state",
    "HarnessGame",
    "game_env",
    "HarnessLog",
    "replay_html",
    "record_game",
    "GameRecord",
    "diff",
    "DiffResult",
    "health",
    "HealthResult",
]


#: The deprecated names and the classes they stand for (removed in 0.3.0).
_DEPRECATED_NAMES: dict[str, type] = {
    "GameResult": SimResult,
    "GameTournamentResult": TournamentResult,
    "GameMatchupResult": MatchupResult,
    "GameSweepResult": SweepResult,
}


def __getattr__(name: str) -> Any:
    """The deprecated names of the package (kept out of ``__all__``, so ``import *`` does
    not warn): ``GameResult`` is :class:`SimResult` (one batch result for every game),
    ``GameTournamentResult`` is :class:`TournamentResult`, ``GameMatchupResult`` is
    :class:`MatchupResult` and ``GameSweepResult`` is :class:`SweepResult` (one result class
    per lab feature, for every game)."""
    new = _DEPRECATED_NAMES.get(name)
    if new is not None:
        issue_deprecation_warning(name, new.__name__)
        return new
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
