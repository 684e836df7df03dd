"""``ketharmad.games``: Schotten Totten 2 and Osztrakon through the core's harness (re-exports;
the code lives in :mod:`ketharmad.game.harness`)."""

from .game.harness import (
    GAME_OUTPUTS,
    GameResult,
    GameShard,
    GameStats,
    HarnessGame,
    describe_game_shard,
    game_matchups,
    game_state,
    games,
    harness_parameters,
    run_game_shard,
    simulate_game,
)

__all__ = ["games", "simulate_game", "game_matchups", "GameResult", "GameStats", "GameShard", "run_game_shard",
           "describe_game_shard", "game_state", "harness_parameters", "HarnessGame", "GAME_OUTPUTS"]
