"""``ketharmad.games``: Schotten Totten 2 and Osztrakon through the core's harness (re-exports;
the code lives in :mod:`ketharmad.game.harness` (the game table, the step API),
:mod:`ketharmad.run.harness` (batches) and :mod:`ketharmad.results.games` (their results))."""

from .api import games
from .game.harness import (
    COMPONENT_DOCS,
    HarnessGame,
    ParamValue,
    game_state,
    harness_parameters,
    no_card_table,
)
from .results.games import GameStats
from .run.harness import (
    GAME_OUTPUTS,
    GameShard,
    describe_game_shard,
    game_matchups,
    run_game_shard,
    simulate_game,
)

__all__ = [
    "games",
    "simulate_game",
    "game_matchups",
    "GameStats",
    "GameShard",
    "run_game_shard",
    "describe_game_shard",
    "game_state",
    "harness_parameters",
    "no_card_table",
    "HarnessGame",
    "GAME_OUTPUTS",
    "COMPONENT_DOCS",
    "ParamValue",
]
