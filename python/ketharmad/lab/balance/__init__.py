"""``ketharmad.balance``: the fewest parameter edits that bring the target metrics into their
bands, for every game (docs/balance.md). ``search`` holds the one staged balancer (screen,
propose, descend, Optuna, race, confirm, ablation, robustness) and :class:`BalanceResult`;
its plug-ins are the game's parameter space and evaluator (``evaluate``: Kétharmad's, on the
plan runner; ``games``: the harness games') and the metric kinds (``metrics``); ``targets``
reads Kétharmad's targets, ``settings`` the block sizes and robustness samples
(:class:`BalanceSettings`, ``settings=``), and ``report`` writes the text and Markdown reports; the
``ketharmad balance`` command is :mod:`ketharmad.cli.balance`."""

from .search import BalanceResult, balance
from .settings import BalanceSettings

__all__ = ["BalanceResult", "BalanceSettings", "balance"]
