"""How the balancer measures a point, as one value (issue 23): :class:`BalanceSettings`.

>>> import ketharmad
>>> ketharmad.balance("targets.toml", settings={"games_2p": 100, "robustness_search": None})

The block sizes and the robustness samples used to be five keywords of
:func:`ketharmad.balance` (``games_2p=``, ``games_4p=``, ``games_per_block=``,
``robustness_bots=``, ``robustness_search=``); they still work until 0.3.0, with a
DeprecationWarning (:func:`fold_balance_settings`), and are folded into ``settings=``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Optional, TypeVar, Union

from ..._deprecation import fold_keywords
from ..._options import OptionsValue
from ...game.validate import check_int

__all__ = [
    "BalanceSettings",
    "SettingsArg",
    "SETTINGS_FIELDS",
    "DEFAULT_GAMES_2P",
    "DEFAULT_GAMES_4P",
    "fold_balance_settings",
]

F = TypeVar("F", bound=Callable[..., Any])

#: Kétharmad's games per block of a 2-player cell (a pair and its start side) and of a
#: 4-player seating.
DEFAULT_GAMES_2P = 50
DEFAULT_GAMES_4P = 6


@dataclass(frozen=True, repr=False)
class BalanceSettings(OptionsValue):
    """How :func:`ketharmad.balance` measures a point (the stages and the budget are its
    arguments; these are the sizes of what it plays).

    * ``games_2p``, ``games_4p`` (Kétharmad): games per block of a 2-player cell (pair and
      start side) and of a 4-player seating, 1 to 100,000 (default 50 and 6).
    * ``games_per_block`` (the harness games): games of a bot lineup per block (None: 100);
      with Kétharmad a ValueError.
    * ``robustness_bots``: the second bot profile of ``.robustness`` ("auto": ``aggro`` for
      the heuristic family, ``heuristic`` otherwise; None: skip; or a bot spec).
    * ``robustness_search``: the search-bot sample of ``.robustness_search`` ("auto": the
      search bot at 10 iterations on every seat when ``bots`` is of the heuristic family,
      None otherwise; None: skip; or a bot spec).
    * ``strategy``: ``"cards"`` (default): the card-level repair, suspect cards first, small
      steps, fewest edits (:mod:`ketharmad.lab.balance.repair`); ``"descent"``: the earlier
      search (propose, measured descent, Optuna), kept to compare against.
    * ``repair_from``: a point (``{parameter: value}``, edits of the card data the run starts
      from) where the card-level repair starts instead of the start itself: an earlier run's
      proposal, continued with every one of its edits counted against ``max_edits`` and free
      to move, be reverted or be swapped for another number (docs/balance.md "Card-level
      repair"). The screen, the diagnosis and the confirmation still measure against the start;
      the point itself is a candidate. None (default): the repair starts at the start. A name
      the targets do not allow, a value outside its bounds or more edits than ``max_edits``
      is a ValueError naming it.

    Frozen; a bad block size is a ValueError when the value is built (a bad bot spec when
    the balancer reads it)."""

    games_2p: int = DEFAULT_GAMES_2P
    games_4p: int = DEFAULT_GAMES_4P
    games_per_block: Optional[int] = None
    robustness_bots: Any = "auto"
    robustness_search: Any = "auto"
    strategy: str = "cards"
    repair_from: Optional[Mapping[str, Union[int, float]]] = None

    _arg = "settings"
    _item = "field"

    def __post_init__(self) -> None:
        object.__setattr__(self, "games_2p", check_int("games_2p", self.games_2p, 1, 100_000))
        object.__setattr__(self, "games_4p", check_int("games_4p", self.games_4p, 1, 100_000))
        if self.games_per_block is not None:
            object.__setattr__(
                self, "games_per_block", check_int("games_per_block", self.games_per_block, 1)
            )
        if self.strategy not in STRATEGIES:
            raise ValueError(
                f"settings.strategy must be one of {', '.join(map(repr, STRATEGIES))}, "
                f"got {self.strategy!r}"
            )
        if self.repair_from is not None:
            if not isinstance(self.repair_from, Mapping):
                raise ValueError(
                    "settings.repair_from must be a mapping {parameter: value}, got "
                    f"{type(self.repair_from).__name__}"
                )
            point = {}
            for k, v in self.repair_from.items():
                if not isinstance(k, str):
                    raise ValueError(
                        f"settings.repair_from: parameter names are strings, got {k!r}"
                    )
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise ValueError(
                        f"settings.repair_from[{k!r}] must be a number, got {type(v).__name__} {v!r}"
                    )
                point[k] = v
            object.__setattr__(self, "repair_from", dict(sorted(point.items())))
            if self.strategy != "cards":
                raise ValueError(
                    "settings.repair_from is where the card-level repair starts: it needs "
                    f'strategy="cards", got {self.strategy!r}'
                )


#: The balancer's searches (``settings.strategy``).
STRATEGIES = ("cards", "descent")

#: What ``settings=`` takes: None, a BalanceSettings or a dict of its fields.
SettingsArg = Union[BalanceSettings, Mapping[str, Any], None]

#: The fields of :class:`BalanceSettings`, in order.
SETTINGS_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(BalanceSettings))
#: The fields that were keywords of :func:`ketharmad.balance` before 0.2 (deprecated forms).
OLD_KEYWORDS: tuple[str, ...] = SETTINGS_FIELDS[:5]


def _fold(call: str, takes: tuple[str, ...], settings: Any, old: dict[str, Any]) -> BalanceSettings:
    """The one ``settings=`` of a call from its ``settings`` and its deprecated keywords
    ``old``: a field given both ways is a ValueError."""
    return BalanceSettings.folded(call, settings, old)


def fold_balance_settings() -> Callable[[F], F]:
    """Decorator of :func:`ketharmad.balance`: its old keywords ``games_2p=`` ... work until
    0.3.0 with a DeprecationWarning naming ``settings=BalanceSettings(...)``, and reach it
    folded into a checked ``settings=``."""
    return fold_keywords(
        "settings", OLD_KEYWORDS, _fold, example="settings=BalanceSettings({fields})"
    )
