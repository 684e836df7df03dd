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
"""

from __future__ import annotations

from . import _core, stats
from ._api import cards, parameters, play, simulate
from .lab.balance import BalanceResult, balance
from .lab.card_stats import CardStatsResult, card_stats
from ._export import export_card_data
from ._files import write_run
from .lab.report import write_report
from .lab.matchups import MatchupResult, matchups
from ._results import GameLog, SimResult
from .step import Action, Game
from .lab.sweep import SweepResult, sweep
from .lab.tournament import TournamentResult, bots, tournament

#: The faction (deck) names, in the core's order.
FACTIONS: tuple[str, ...] = tuple(_core.FACTIONS)
#: Why a game ended, in the core's code order.
END_REASONS: tuple[str, ...] = tuple(_core.END_REASONS)
#: The bot kinds the core knows.
BOT_KINDS: tuple[str, ...] = tuple(_core.BOT_KINDS)

__version__: str = _core.version()

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
    "cards",
    "export_card_data",
    "parameters",
    "play",
    "simulate",
    "stats",
]
