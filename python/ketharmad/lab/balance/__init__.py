"""``ketharmad.balance``: the fewest card-number edits that bring the matchups into their
bands (docs/balance.md). ``search`` holds the stages (screen, propose, search, race, confirm)
and :class:`BalanceResult`, ``evaluate`` plays points on fixed game blocks through the plan
runner, ``targets`` reads the targets and ``report`` writes the text and Markdown reports; the
``ketharmad balance`` command is :mod:`ketharmad.cli.balance`."""

from .search import BalanceResult, balance

__all__ = ["BalanceResult", "balance"]
