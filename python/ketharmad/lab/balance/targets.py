"""Balance targets as data: what ``ketharmad.balance`` aims for and what it may change.

A targets document is a TOML file or a dict with the sections ``two_player``,
``four_player``, ``start_player``, ``turns``, ``length`` (the metrics), ``change`` (the search
space) and ``ladder`` (the bots every metric is measured under, per-rung bands and the skill
band).
The schema is documented in ``docs/balance.md``; every error is a ``ValueError`` naming the
field (``targets.two_player.pairs.ner-tisza.tolerance: ...``).
"""

from __future__ import annotations

import difflib
import fnmatch
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Optional, Union

from ... import _core

__all__ = [
    "Metric",
    "LengthMetric",
    "Ladder",
    "Rung",
    "Targets",
    "ParamSpace",
    "load_targets",
    "param_kind",
    "MAX_TARGETS_FILE_BYTES",
]

#: Largest targets file read.
from ...game.data import MAX_TOML_FILE_BYTES as MAX_TARGETS_FILE_BYTES
from ...game.data import read_toml_file

_SECTIONS = {
    "two_player",
    "four_player",
    "start_player",
    "turns",
    "length",
    "change",
    "format",
    "ladder",
}
#: The sections that name metrics (a rung's ``[ladder.bands.<rung>]`` may override each).
_METRIC_SECTIONS = ("two_player", "four_player", "start_player", "turns", "length")
_KINDS = (
    "influence",
    "credibility",
    "cost_generic",
    "cost_pip",
    "copies",
    "keyword",
    "text",
    "rule",
)
_NUMBERED_KEYWORDS = {"scandal", "expose", "movement", "defector", "lone", "sympathy"}

#: Defaults: the issue's bands (2 players 50 % +- 5, 4 players 25 % +- 4).
DEFAULT_2P_TARGET, DEFAULT_2P_TOL = 0.50, 0.05
DEFAULT_4P_TARGET, DEFAULT_4P_TOL = 0.25, 0.04
#: Parameters a balance run may change when ``change.allow`` is not given.
DEFAULT_ALLOW = ("*",)
#: What never changes unless the targets give their own ``freeze``: copies (a deck's card
#: count) and the coloured cost pips (what a faction can pay at all).
DEFAULT_FREEZE = ("*.copies", "*.cost_f", "*.cost_m", "*.cost_u")
DEFAULT_MAX_EDITS = 15
DEFAULT_MAX_EDITS_PER_CARD = 2
#: How many steps the search may move one parameter when no ``max_change`` is given.
DEFAULT_SEARCH_STEPS = 5
#: How far (in steps) a number may move from its printed value when neither
#: ``change.max_change`` nor the kind's ``max_change`` says otherwise: a tuned card, not a
#: new one.
DEFAULT_MAX_CHANGE = 2
#: The share of each band's half-width the search keeps clear of the band's edges.
DEFAULT_MARGIN = 0.25


@dataclass(frozen=True)
class Metric:
    """One balanced quantity and its band ``[low, high]``.

    ``kind``: ``"2p"`` (``faction``'s win rate against ``opponent``, start player balanced),
    ``"4p"`` (``faction``'s share of 4-player free-for-all wins), ``"start"`` (the start
    player's win rate in the 2-player games) or ``"turns"`` (median turns per player of the
    2-player games).
    """

    name: str
    kind: str
    target: float
    low: float
    high: float
    faction: Optional[str] = None
    opponent: Optional[str] = None

    @property
    def tolerance(self) -> float:
        return max(self.target - self.low, self.high - self.target)

    def excess(self, value: float) -> float:
        """How far ``value`` is outside the band (0 inside)."""
        return max(0.0, self.low - value, value - self.high)

    def scaled(self, value: float) -> float:
        """``|value - target|`` in units of the band's half-width on that side (<= 1 in band)."""
        d = value - self.target
        half = (self.high - self.target) if d >= 0 else (self.target - self.low)
        return abs(d) / half if half > 0 else (0.0 if d == 0 else float("inf"))


@dataclass(frozen=True)
class LengthMetric(Metric):
    """A game-length band (``[length]``): ``kind`` ``length`` (the median of the games'
    turns) or ``length_mean`` (their mean), over the ``players``-player games."""

    players: int = 2


@dataclass(frozen=True)
class ParamSpace:
    """One parameter the run may change: its original value, step and bounds."""

    name: str
    card: str
    kind: str
    default: Any  # int, or float when ``numeric`` is "float"
    step: Any
    low: Any
    high: Any
    #: "int" (every Kétharmad parameter) or "float" (some harness-game parameters): the
    #: values are ``default + k * step`` (floats rounded to 12 digits), ``k`` an integer.
    numeric: str = "int"

    def values(self, steps: int) -> list[Any]:
        """The values within ``steps`` steps of the default, inside the bounds."""
        return [self.at(k) for k in range(-steps, steps + 1) if self.contains(self.at(k))]

    def at(self, k: int) -> Any:
        """The value ``k`` steps from the default."""
        if self.numeric == "int":
            return self.default + k * self.step
        return float(round(self.default + k * self.step, 12))

    def contains(self, v: Any) -> bool:
        if self.numeric == "int":
            return bool(self.low <= v <= self.high)
        return bool(self.low - 1e-9 * self.step <= v <= self.high + 1e-9 * self.step)

    def k_of(self, v: Any) -> int:
        """The steps from the default of a value on the grid."""
        if self.numeric == "int":
            return int((v - self.default) // self.step)
        return int(round((v - self.default) / self.step))

    def k_floor(self, bound: Any) -> int:
        """``floor((bound - default) / step)``: the last grid step at or below ``bound``."""
        if self.numeric == "int":
            return int((bound - self.default) // self.step)
        return math.floor((bound - self.default) / self.step + 1e-9)

    def k_ceil(self, bound: Any) -> int:
        """``ceil((bound - default) / step)``: the first grid step at or above ``bound``."""
        if self.numeric == "int":
            return int(-((self.default - bound) // self.step))
        return -math.floor((self.default - bound) / self.step + 1e-9)


@dataclass
class Targets:
    """A parsed targets document: the metrics and the search space."""

    metrics: list[Metric]
    allow: list[str]
    freeze: list[str]
    kinds: dict[str, dict[str, int]]
    max_edits: int
    max_edits_per_card: int
    source: dict[str, Any] = field(default_factory=dict)
    #: Steps a number may move from its printed value (a kind's ``max_change`` wins).
    max_change: int = DEFAULT_MAX_CHANGE
    #: The search aims inside the inner ``1 - margin`` of each band's half-width.
    margin: float = DEFAULT_MARGIN
    #: The game format the metrics are measured in (``format = "quick"``, a table as
    #: ``format=`` takes a dict, or a format file path); None: the free-for-all.
    format: Any = None
    #: How the document's partial lists are read (``two_player.pairs`` naming some pairs: what
    #: happens to the others), one line each; the balance result's notes repeat them.
    scope: list[str] = field(default_factory=list)
    #: ``[ladder]``: the rungs (bots) every metric is measured under, or None (one bot, ``bots=``).
    ladder: Optional[Ladder] = None

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """The unordered 2-player pairs (faction order) the metrics need."""
        out: list[tuple[str, str]] = []
        order = list(_core.FACTIONS)
        for m in self.metrics:
            if m.kind == "2p":
                assert m.faction is not None and m.opponent is not None  # a 2p metric names both
                a, b = sorted((m.faction, m.opponent), key=order.index)
                if (a, b) not in out:
                    out.append((a, b))
        two = ("start", "turns", "length", "length_mean")
        if any(m.kind in two and getattr(m, "players", 2) == 2 for m in self.metrics) and not out:
            out = [(a, b) for i, a in enumerate(order) for b in order[i + 1 :]]
        return sorted(out, key=lambda p: (order.index(p[0]), order.index(p[1])))

    @property
    def four_player(self) -> bool:
        return any(
            m.kind == "4p" or (m.kind in _LENGTH_STATS.values() and getattr(m, "players", 2) == 4)
            for m in self.metrics
        )

    def check_shares(self, winners_per_game: int) -> None:
        """A ValueError when the 4-player bands cannot all hold at once: every 4-player game
        has ``winners_per_game`` winners (1; 2 in a team format) among the four factions, so
        their shares sum to that (a measured 0 games without a winner in 4,000 heuristic and
        4,000 random games): the lows may not sum above it, nor (all four named) the highs
        below it."""
        four = [m for m in self.metrics if m.kind == "4p"]
        if not four:
            return
        low = sum(m.low for m in four)
        high = sum(m.high for m in four)
        bands = ", ".join(f"{m.faction} [{m.low:g}, {m.high:g}]" for m in four)
        if low > winners_per_game + 1e-9:
            raise ValueError(
                f"targets.four_player: the bands cannot all hold: their lows sum to {low:g}, but the four "
                f"factions' shares sum to {winners_per_game} (every 4-player game has {winners_per_game} "
                f"winner{'s' if winners_per_game > 1 else ''}); lower them ({bands})"
            )
        if len(four) == 4 and high < winners_per_game - 1e-9:
            raise ValueError(
                f"targets.four_player: the bands cannot all hold: their highs sum to {high:g}, but the four "
                f"factions' shares sum to {winners_per_game} (every 4-player game has {winners_per_game} "
                f"winner{'s' if winners_per_game > 1 else ''}); raise them ({bands})"
            )

    def _check_patterns(self, names: list[str]) -> None:
        """Every ``allow`` and ``freeze`` pattern matches a parameter of the card data (a
        misspelt one would silently allow or freeze nothing); the error names the pattern
        and the closest names."""
        for where, patterns, user in (("allow", self.allow, self.allow != list(DEFAULT_ALLOW)),
                                      ("freeze", self.freeze, self.freeze != list(DEFAULT_FREEZE))):  # fmt: skip
            if not user:
                continue
            for pat in patterns:
                hit = (
                    any(_allowed(n, [pat]) for n in names)
                    if where == "allow"
                    else any(fnmatch.fnmatchcase(n, pat) for n in names)
                )
                if hit:
                    continue
                close = difflib.get_close_matches(pat.replace("*", ""), names, n=3, cutoff=0.6)
                rule = (where == "allow" and not pat.startswith(("rules.", "keyword.", "format."))
                        and any(fnmatch.fnmatchcase(n, pat) for n in names))  # fmt: skip
                raise ValueError(
                    f"targets.change.{where}: {pat!r} matches no parameter"
                    + (" (rules.*, keyword.* and format.* parameters are allowed only by a pattern "
                       "that starts with that prefix)" if rule else "")
                    + (f"; did you mean {', '.join(repr(c) for c in close)}?" if close else "")
                    + " (see ketharmad.parameters())"
                )  # fmt: skip

    def _check_kinds(self, rows: list[dict[str, Any]]) -> None:
        """A kind bound outside the declared range of every parameter of its kind (an
        Influence minimum of 150) is a ValueError, not a bound that empties (or inverts) the
        search space."""
        for kind, cfg in self.kinds.items():
            of_kind = [r for r in rows if r["kind"] == "int" and param_kind(r["name"]) == kind]
            if not of_kind:
                continue
            lo = min(int(r["min"]) for r in of_kind)
            hi = max(int(r["max"]) for r in of_kind)
            where = f"targets.change.kinds.{kind}"
            for key in ("min", "max"):
                v = cfg.get(key)
                if v is not None and not lo <= v <= hi:
                    raise ValueError(
                        f"{where}.{key} = {v} is outside the declared range of every {kind} "
                        f"parameter ({lo} to {hi}; ketharmad.parameters())"
                    )

    def space(
        self, card_data_params: Any, fixed: Union[Mapping[str, Any], tuple[()]] = ()
    ) -> list[ParamSpace]:
        """The allowed parameters (``ketharmad.parameters()`` rows matched by ``allow``, not
        by ``freeze``, integer kind, not fixed by ``params=``), in registry order.

        Refused by name (ValueError): an ``allow`` or ``freeze`` pattern that matches no
        parameter, a kind bound outside every declared range of its kind, and an allowed
        parameter whose printed value (its default) lies outside its kind's ``min``/``max``
        (the bound would be silently ignored or move the card at once)."""
        rows = list(card_data_params.iter_rows(named=True))
        self._check_patterns([r["name"] for r in rows])
        self._check_kinds(rows)
        out = []
        outside: list[str] = []
        for row in rows:
            name = row["name"]
            if row["kind"] != "int" or name in fixed:
                continue
            if not _allowed(name, self.allow) or any(
                fnmatch.fnmatchcase(name, f) for f in self.freeze
            ):
                continue
            kind = param_kind(name)
            cfg = self.kinds.get(kind, {})
            low = max(int(row["min"]), cfg.get("min", int(row["min"])))
            high = min(int(row["max"]), cfg.get("max", int(row["max"])))
            default = int(row["default"])
            if not low <= default <= high and ("min" in cfg or "max" in cfg):
                outside.append(f"{name} = {default}")
                continue
            reach = cfg.get("max_change", self.max_change) * cfg.get("step", 1)
            low = max(low, default - reach)
            high = min(high, default + reach)
            if low == high:
                continue
            out.append(ParamSpace(name, row["card"], kind, default, cfg.get("step", 1), low, high))
        if outside:
            kinds = sorted({param_kind(o.split(" = ")[0]) for o in outside})
            bounds = "; ".join(
                f"{k}: " + ", ".join(f"{b} {self.kinds[k][b]}" for b in ("min", "max") if b in self.kinds[k])
                for k in kinds
            )  # fmt: skip
            raise ValueError(
                f"targets.change.kinds: {len(outside)} allowed parameter{'s are' if len(outside) > 1 else ' is'} "
                f"printed outside the kind's bounds ({bounds}): {', '.join(outside[:8])}"
                + (f" and {len(outside) - 8} more" if len(outside) > 8 else "")
                + "; widen the bounds to include the printed value, or freeze the parameter"
            )
        if not out:
            raise ValueError(
                f"targets.change.allow: no parameter matches {self.allow} "
                f"(less targets.change.freeze {self.freeze}); see ketharmad.parameters()"
            )
        return out


def _allowed(name: str, patterns: list[str]) -> bool:
    rule = name.startswith(("rules.", "keyword.", "format."))
    for pat in patterns:
        if rule and not (pat.startswith(("rules.", "keyword.", "format.")) or pat == name):
            continue  # rules.*, keyword.* and format.* only when listed explicitly
        if fnmatch.fnmatchcase(name, pat):
            return True
    return False


def param_kind(name: str) -> str:
    """The kind of a parameter for steps and bounds: influence, credibility, cost_generic,
    cost_pip, copies, keyword (a keyword's N), text (a number of the rules text), rule."""
    if name.startswith(("rules.", "keyword.", "format.")):
        return "rule"
    fieldname = name.split(".", 1)[1]
    if fieldname in ("influence", "credibility", "cost_generic", "copies"):
        return fieldname
    if fieldname in ("cost_f", "cost_m", "cost_u"):
        return "cost_pip"
    if fieldname in _NUMBERED_KEYWORDS:
        return "keyword"
    return "text"


# ---------------------------------------------------------------- parsing


def _num(where: str, value: Any, low: float = 0.0, high: float = 1.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{where} must be a number, got {value!r}")
    v = float(value)
    if not (low <= v <= high):
        raise ValueError(f"{where} must be in {low:g}..{high:g}, got {value!r}")
    return v


def _int(where: str, value: Any, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{where} must be an integer >= {low}, got {value!r}")
    return int(value)


def _table(where: str, value: Any, keys: set[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{where} must be a table, got {type(value).__name__}")
    unknown = sorted(set(value) - keys)
    if unknown:
        raise ValueError(
            f"{where}: unknown key(s) {', '.join(map(str, unknown))}; valid: {', '.join(sorted(keys))}"
        )
    return value


def _band(
    where: str, spec: Any, target: float, tol: float, high_limit: float = 1.0
) -> tuple[float, float, float]:
    """(target, low, high) from a number (a target) or a table {target, tolerance, low, high}."""
    if isinstance(spec, Mapping):
        _table(where, spec, {"target", "tolerance", "low", "high"})
        if "target" in spec:
            target = _num(f"{where}.target", spec["target"], 0.0, high_limit)
        if "tolerance" in spec:
            tol = _num(f"{where}.tolerance", spec["tolerance"], 0.0, high_limit)
        low = _num(f"{where}.low", spec["low"], 0.0, high_limit) if "low" in spec else target - tol
        high = (
            _num(f"{where}.high", spec["high"], 0.0, high_limit) if "high" in spec else target + tol
        )
    else:
        target = _num(where, spec, 0.0, high_limit)
        low, high = target - tol, target + tol
    if not low <= target <= high:
        raise ValueError(
            f"{where}: need low <= target <= high, got {low:g} <= {target:g} <= {high:g}"
        )
    return target, max(0.0, low), min(high_limit, high)


def _faction(where: str, name: Any) -> str:
    if name not in _core.FACTIONS:
        raise ValueError(f"{where}: unknown faction {name!r}; valid: {', '.join(_core.FACTIONS)}")
    return str(name)


def _patterns(where: str, value: Any) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ValueError(f"{where} must be a list of parameter name patterns, got {value!r}")
    return list(value)


def parse_targets(doc: Mapping[str, Any]) -> Targets:
    """Check a targets dict (the TOML document) and return :class:`Targets`."""
    if not isinstance(doc, Mapping):
        raise ValueError(f"targets must be a dict or a TOML file path, got {type(doc).__name__}")
    _table("targets", doc, _SECTIONS)
    scope: list[str] = []
    metrics = _parse_metrics("targets", doc, scope)
    ladder = _parse_ladder(doc) if "ladder" in doc else None
    ch = _table(
        "targets.change",
        doc.get("change", {}),
        {"allow", "freeze", "kinds", "max_edits", "max_edits_per_card", "max_change", "margin"},
    )
    allow = _patterns("targets.change.allow", ch["allow"]) if "allow" in ch else list(DEFAULT_ALLOW)
    freeze = (
        _patterns("targets.change.freeze", ch["freeze"]) if "freeze" in ch else list(DEFAULT_FREEZE)
    )
    kinds: dict[str, dict[str, int]] = {}
    raw_kinds = ch.get("kinds", {})
    if not isinstance(raw_kinds, Mapping):
        raise ValueError(
            "targets.change.kinds must be a table of kinds, e.g. [change.kinds.influence]"
        )
    for kind, cfg in raw_kinds.items():
        where = f"targets.change.kinds.{kind}"
        if kind not in _KINDS:
            raise ValueError(f"{where}: unknown kind {kind!r}; valid: {', '.join(_KINDS)}")
        cfg = _table(where, cfg, {"step", "min", "max", "max_change"})
        kinds[kind] = {k: _int(f"{where}.{k}", v, 1 if k == "step" else 0) for k, v in cfg.items()}
        if (
            "min" in kinds[kind]
            and "max" in kinds[kind]
            and kinds[kind]["min"] > kinds[kind]["max"]
        ):
            raise ValueError(f"{where}: min {kinds[kind]['min']} is above max {kinds[kind]['max']}")
    max_edits = _int("targets.change.max_edits", ch.get("max_edits", DEFAULT_MAX_EDITS), 1)
    per_card = _int(
        "targets.change.max_edits_per_card",
        ch.get("max_edits_per_card", DEFAULT_MAX_EDITS_PER_CARD),
        1,
    )
    max_change = _int("targets.change.max_change", ch.get("max_change", DEFAULT_MAX_CHANGE), 1)
    margin = _num("targets.change.margin", ch.get("margin", DEFAULT_MARGIN), 0.0, 0.9)
    fmt = doc.get("format")
    if fmt is not None and not isinstance(fmt, (str, Mapping)):
        raise ValueError(
            f"targets.format must be a format name, a table or a format file path, got {fmt!r}"
        )
    if isinstance(fmt, Mapping) and "name" not in fmt:
        raise ValueError(
            'targets.format as a table needs a name, e.g. { name = "mine", base = "quick" }'
        )
    return Targets(metrics, allow, freeze, kinds, max_edits, per_card, source=dict(doc), format=fmt,
                   max_change=max_change, margin=margin, scope=scope, ladder=ladder)  # fmt: skip


def _parse_metrics(p: str, doc: Mapping[str, Any], scope: list[str]) -> list[Metric]:
    """The metrics of a document's metric sections (``p``: the prefix of every error, e.g.
    ``targets`` or ``targets.ladder.bands.tuned``)."""
    named = [s for s in _METRIC_SECTIONS if s in doc]
    if not named:  # nothing named: the defaults, 2 and 4 players
        named = ["two_player", "four_player"]
    metrics: list[Metric] = []
    factions = list(_core.FACTIONS)
    if "two_player" in named:
        sec = _table(
            f"{p}.two_player",
            doc.get("two_player", {}),
            {"target", "tolerance", "pairs", "others"},
        )
        t = _num(f"{p}.two_player.target", sec.get("target", DEFAULT_2P_TARGET))
        tol = _num(f"{p}.two_player.tolerance", sec.get("tolerance", DEFAULT_2P_TOL))
        pairs = sec.get("pairs")
        others = sec.get("others", True)
        if not isinstance(others, bool):
            raise ValueError(
                f"{p}.two_player.others must be true (the pairs that `pairs` does not name keep "
                "the section's target and tolerance) or false (they are not measured), "
                f"got {others!r}"
            )
        cells: dict[tuple[str, str], Any] = {}
        if pairs is None:
            for i, a in enumerate(factions):
                for b in factions[i + 1 :]:
                    cells[(a, b)] = t
        else:
            if not isinstance(pairs, Mapping) or not pairs:
                raise ValueError(
                    f'{p}.two_player.pairs must be a non-empty table such as {{ "ner-tisza" = 0.5 }}'
                )
            for key, spec in pairs.items():
                where = f"{p}.two_player.pairs.{key}"
                a, sep, b = str(key).partition("-")
                if not sep:
                    raise ValueError(
                        f'{where}: a pair is written faction-opponent, e.g. "ner-tisza"'
                    )
                a, b = _faction(where, a), _faction(where, b)
                if a == b:
                    raise ValueError(f"{where}: a mirror pair has no balance target")
                if (a, b) in cells or (b, a) in cells:
                    raise ValueError(
                        f"{where}: the pair {a}-{b} is given twice (a-b and b-a are the same games)"
                    )
                cells[(a, b)] = spec
            named_pairs = len(cells)
            for i, a in enumerate(factions):
                for b in factions[i + 1 :]:
                    if others and (a, b) not in cells and (b, a) not in cells:
                        cells[(a, b)] = t
            rest = 6 - named_pairs
            if rest:
                scope.append(
                    f"targets: two_player.pairs names {named_pairs} pair(s); the other {rest} "
                    + (f"keep the section's band, {t:.0%} +- {tol:.0%} (two_player.others = false "
                       "leaves them out)" if others else
                       "are not measured (two_player.others = false)")
                )  # fmt: skip
            cells = {k: v for k, v in cells.items() if v is not False}
        for (a, b), spec in cells.items():
            tgt, low, high = _band(f"{p}.two_player.pairs.{a}-{b}", spec, t, tol)
            metrics.append(Metric(f"2p {a}-{b}", "2p", tgt, low, high, a, b))
    if "four_player" in named:
        sec = _table(
            f"{p}.four_player", doc.get("four_player", {}), {"target", "tolerance", "factions"}
        )
        t = _num(f"{p}.four_player.target", sec.get("target", DEFAULT_4P_TARGET))
        tol = _num(f"{p}.four_player.tolerance", sec.get("tolerance", DEFAULT_4P_TOL))
        per = sec.get("factions", {})
        if not isinstance(per, Mapping):
            raise ValueError(
                f"{p}.four_player.factions must be a table such as {{ osszefogas = 0.31 }}"
            )
        for f in per:
            _faction(f"{p}.four_player.factions.{f}", f)
        for f in factions:
            spec = per.get(f, t)
            if spec is False:
                continue
            tgt, low, high = _band(f"{p}.four_player.factions.{f}", spec, t, tol)
            metrics.append(Metric(f"4p {f}", "4p", tgt, low, high, f))
    if "start_player" in named:
        sec = _table(
            f"{p}.start_player", doc["start_player"], {"target", "tolerance", "low", "high"}
        )
        if not sec:
            raise ValueError(f"{p}.start_player needs low and high (or target and tolerance)")
        tgt, low, high = _band(f"{p}.start_player", sec, 0.5, DEFAULT_2P_TOL)
        metrics.append(Metric("start player", "start", tgt, low, high))
    if "turns" in named:
        sec = _table(f"{p}.turns", doc["turns"], {"target", "tolerance", "low", "high"})
        if not ({"low", "high"} <= set(sec) or "target" in sec):
            raise ValueError(
                f"{p}.turns needs low and high (or target and tolerance), in turns per player"
            )
        mid = sec.get("target")
        if mid is None:
            lo = _num(f"{p}.turns.low", sec["low"], 0.0, 1e6)
            hi = _num(f"{p}.turns.high", sec["high"], 0.0, 1e6)
            mid = (lo + hi) / 2
        tgt, low, high = _band(f"{p}.turns", {**sec, "target": mid}, 0.0, 1.0, high_limit=1e6)
        metrics.append(Metric("median turns per player", "turns", tgt, low, high))
    if "length" in named:
        metrics += _parse_length(f"{p}.length", doc["length"])
    if not metrics:
        raise ValueError(f"{p}: every metric is switched off; name at least one pair or faction")
    return metrics


#: ``[length]``: the statistic of the games' turns each key bands, and its metric kind.
_LENGTH_STATS = {"median": "length", "mean": "length_mean"}


def _parse_length(where: str, value: Any) -> list[Metric]:
    """``[length]``: ``median`` and/or ``mean`` bands in the game's turns (every seat's turns
    counted) of the 2-player games (``players = 2``, the default) or the 4-player games."""
    sec = _table(where, value, {"median", "mean", "players"})
    players = sec.get("players", 2)
    if isinstance(players, bool) or players not in (2, 4):
        raise ValueError(f"{where}.players must be 2 or 4 (the games measured), got {players!r}")
    out: list[Metric] = []
    for key, kind in _LENGTH_STATS.items():
        if key not in sec:
            continue
        spec = sec[key]
        w = f"{where}.{key}"
        if not isinstance(spec, Mapping) or not ({"low", "high"} <= set(spec) or "target" in spec):
            raise ValueError(
                f"{w} needs low and high (or target and tolerance), in the game's turns, "
                f"e.g. {{ low = 14, high = 24 }}; got {spec!r}"
            )
        _table(w, spec, {"target", "tolerance", "low", "high"})
        mid = spec.get("target")
        if mid is None:
            lo = _num(f"{w}.low", spec["low"], 0.0, 1e6)
            hi = _num(f"{w}.high", spec["high"], 0.0, 1e6)
            if lo > hi:
                raise ValueError(f"{w}: low {lo:g} is above high {hi:g}")
            mid = (lo + hi) / 2
        tgt, low, high = _band(w, {**spec, "target": mid}, 0.0, 1.0, high_limit=1e6)
        name = f"{key} game length ({players} players)"
        out.append(LengthMetric(name, kind, tgt, low, high, players=int(players)))
    if not out:
        raise ValueError(
            f"{where} needs a band: median = {{ low = .., high = .. }} and/or mean = {{ .. }}"
        )
    return out


#: Bot kinds cheap enough to screen candidates when ``ladder.screen`` is not given (the rule
#: bots; the search bots and the learned bot confirm).
CHEAP_KINDS = ("random", "heuristic", "aggro", "control", "tuned")
#: Games per pair of adjacent rungs of the skill check when ``ladder.skill_games`` is not given.
DEFAULT_SKILL_GAMES = 480


@dataclass(frozen=True)
class Rung:
    """One rung of a ladder: its name (the key of ``[ladder.bands.<name>]``), its bot spec,
    its metrics (the top-level bands, with the rung's overrides) and whether it screens."""

    name: str
    spec: Any
    metrics: tuple[Metric, ...]
    screen: bool


@dataclass(frozen=True)
class Ladder:
    """``[ladder]``: the rungs (weakest first), and the skill band (``skill_margin``: each
    rung's win rate over the rung below, None: not checked, on ``skill_games`` games a pair)."""

    rungs: tuple[Rung, ...]
    skill_margin: Optional[float] = None
    skill_games: int = DEFAULT_SKILL_GAMES

    @property
    def names(self) -> list[str]:
        return [r.name for r in self.rungs]

    @property
    def specs(self) -> list[Any]:
        return [r.spec for r in self.rungs]


def _rung_names(where: str, raw: Any) -> list[tuple[str, Any]]:
    """(name, checked bot spec) of every rung: a string rung is named by itself, a table by its
    ``name`` key, else by its kind when no other rung has that kind, else by its label."""
    from ...game.validate import _check_bot_spec, bot_label

    if not isinstance(raw, list) or not raw:
        raise ValueError(
            f"{where} must be a non-empty list of bot specs, weakest first, e.g. "
            f'["heuristic", "tuned", {{ kind = "ismcts", iterations = 20 }}]; got {raw!r}'
        )
    specs: list[tuple[Optional[str], Any]] = []
    for i, r in enumerate(raw):
        w = f"{where}[{i}]"
        given: Optional[str] = None
        if isinstance(r, Mapping):
            r = dict(r)
            given = r.pop("name", None)
            if given is not None and (not isinstance(given, str) or not given):
                raise ValueError(f"{w}.name must be a non-empty string, got {given!r}")
        specs.append((given, _check_bot_spec(r, w)))
    kinds = [s if isinstance(s, str) else s["kind"] for _, s in specs]
    out: list[tuple[str, Any]] = []
    for (given, spec), kind in zip(specs, kinds, strict=True):
        if given is not None:
            name = given
        elif isinstance(spec, str):
            name = spec
        else:
            name = kind if kinds.count(kind) == 1 else bot_label(spec)
        if any(name == n for n, _ in out):
            raise ValueError(
                f"{where}: two rungs are named {name!r}; give one a name, e.g. "
                f'{{ kind = "{kind}", name = "{kind}-strong", ... }}'
            )
        out.append((name, spec))
    return out


def _rung_doc(doc: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """A rung's metric sections: the top-level ones (the defaults when none is named), each
    key the rung gives replacing the same key (``pairs`` and ``factions`` entry by entry), a
    section the rung sets to ``false`` left out."""
    base = {s: doc[s] for s in _METRIC_SECTIONS if s in doc}
    if not base:
        base = {"two_player": {}, "four_player": {}}
    out: dict[str, Any] = dict(base)
    for sec, val in over.items():
        if val is False:
            out.pop(sec, None)
            continue
        top = base.get(sec)
        if not isinstance(top, Mapping) or not isinstance(val, Mapping):
            out[sec] = val
            continue
        merged = {**top, **val}
        for key in ("pairs", "factions"):
            if isinstance(top.get(key), Mapping) and isinstance(val.get(key), Mapping):
                same = {frozenset(str(k).split("-")) for k in val[key]} if key == "pairs" else set()
                kept = {k: v for k, v in top[key].items()
                        if key != "pairs" or frozenset(str(k).split("-")) not in same}  # fmt: skip
                merged[key] = {**kept, **val[key]}
        out[sec] = merged
    return out


def _parse_ladder(doc: Mapping[str, Any]) -> Ladder:
    """``[ladder]``: ``rungs`` (bot specs, weakest first), ``screen`` (the rungs that screen
    candidates), ``bands.<rung>`` (a rung's own metric sections), ``skill_margin`` and
    ``skill_games`` (the skill band)."""
    where = "targets.ladder"
    sec = _table(where, doc["ladder"], {"rungs", "screen", "bands", "skill_margin", "skill_games"})
    if "rungs" not in sec:
        raise ValueError(f"{where}.rungs is missing: the bots of the ladder, weakest first")
    named = _rung_names(f"{where}.rungs", sec["rungs"])
    names = [n for n, _ in named]
    screen_raw = sec.get("screen")
    if screen_raw is None:
        kinds = [s if isinstance(s, str) else s["kind"] for _, s in named]
        screen = [n for n, k in zip(names, kinds, strict=True) if k in CHEAP_KINDS] or list(names)
    else:
        if isinstance(screen_raw, str):
            screen_raw = [screen_raw]
        if not isinstance(screen_raw, list) or not screen_raw:
            raise ValueError(
                f"{where}.screen must be a non-empty list of rung names, got {screen_raw!r}"
            )
        for n in screen_raw:
            if n not in names:
                raise ValueError(
                    f"{where}.screen: {n!r} is not among the rungs ({', '.join(map(repr, names))})"
                )
        screen = list(screen_raw)
    bands = sec.get("bands", {})
    if not isinstance(bands, Mapping):
        raise ValueError(f"{where}.bands must be a table of rung tables, e.g. [ladder.bands.tuned]")
    for n in bands:
        if n not in names:
            raise ValueError(
                f"{where}.bands.{n}: unknown rung {n!r}; rungs: {', '.join(map(repr, names))}"
            )
    rungs = []
    for name, spec in named:
        over = _table(f"{where}.bands.{name}", bands.get(name, {}), set(_METRIC_SECTIONS))
        for s_, v in over.items():
            if v is not False and not isinstance(v, Mapping):
                raise ValueError(
                    f"{where}.bands.{name}.{s_} must be a table (as the top-level [{s_}]) or false, got {v!r}"
                )
        if over:
            doc_r = _rung_doc(doc, over)
            if not any(s_ in doc_r for s_ in _METRIC_SECTIONS):
                raise ValueError(
                    f"{where}.bands.{name}: every metric section is false; a rung needs at least one"
                )
            metrics = _parse_metrics(f"{where}.bands.{name}", doc_r, [])
        else:
            metrics = _parse_metrics("targets", doc, [])
        rungs.append(Rung(name, spec, tuple(metrics), name in screen))
    margin = sec.get("skill_margin")
    if margin is not None:
        margin = _num(f"{where}.skill_margin", margin, 0.5, 1.0)
        if len(rungs) < 2:
            raise ValueError(
                f"{where}.skill_margin needs at least two rungs (each rung against the one below)"
            )
        from ...game.validate import bot_label

        for lo_r, hi_r in zip(rungs[:-1], rungs[1:], strict=True):
            if bot_label(lo_r.spec) == bot_label(hi_r.spec):
                raise ValueError(
                    f"{where}.rungs: rungs {lo_r.name!r} and {hi_r.name!r} are the same bot; the "
                    "skill band needs different bots"
                )
    games = _int(f"{where}.skill_games", sec.get("skill_games", DEFAULT_SKILL_GAMES), 24)
    if games % 24:
        raise ValueError(
            f"{where}.skill_games must be a multiple of 24 (2 seatings x 12 deck pairings), got {games}"
        )
    return Ladder(tuple(rungs), margin, games)


def load_targets(
    targets: Union[str, os.PathLike[str], Mapping[str, Any], Targets, None],
) -> Targets:
    """A :class:`Targets` from a TOML path, a dict, an existing Targets or None (defaults)."""
    if isinstance(targets, Targets):
        return targets
    if targets is None:
        return parse_targets({})
    if isinstance(targets, Mapping):
        return parse_targets(targets)
    if isinstance(targets, (str, os.PathLike)):
        path = os.fspath(targets)
        doc = read_toml_file(path, "targets file")
        try:
            tg = parse_targets(doc)
        except ValueError as e:
            raise ValueError(f"targets file {path}: {e}") from None
        if isinstance(tg.format, str) and tg.format.endswith(
            ".toml"
        ):  # relative to the targets file
            tg.format = os.path.join(os.path.dirname(os.path.abspath(path)), tg.format)
        return tg
    raise ValueError(
        f"targets must be a TOML file path, a dict or None, got {type(targets).__name__}"
    )
