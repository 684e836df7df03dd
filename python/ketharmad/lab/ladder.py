"""``ladder(bots, ...)``: bots of rising skill rated on common seeds, with intervals, and a
check that each rung beats the one below by a margin; written once for every game over
:func:`ketharmad.tournament` (docs/bots.md, "Ladders")."""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any, Optional, Union, Unpack

import numpy as np
import polars as pl

from ..game.data import SHIPPED_MODELS as SHIPPED
from ..game.driver import driver_for
from ..game.spec import GameSpec, SetupKeywords, take_setup
from ..game.validate import bot_label
from ..results.lab_report import _provenance_md, md_table
from ..results.report import ci_text, format_table, pct
from ..run.options import RunArg
from .ratings import luce_ratings
from .tournament import TournamentResult, tournament

__all__ = ["ladder", "LadderResult", "DEFAULT_LADDERS"]

#: The shipped ladder of each game, weakest rung first (docs/bots.md has their ratings).
DEFAULT_LADDERS: dict[str, list[Any]] = {
    "ketharmad": [
        "random",
        "heuristic",
        "tuned",
        "learned",
        {"kind": "ismcts", "iterations": 20},
        "ismcts",
        # the search with the learned value and the learned policy ranking its root, which wins
        # the close calls (prior_bonus; docs/learning.md)
        {
            "kind": "ismcts",
            "iterations": 190,
            "halving": 1,
            "width": 6,
            "prior_tree": 0,
            "value": "shipped",
            "prior": "shipped",
            "prior_bonus": 0.02,
        },
    ],
    # the top rung: the search with the shipped value model scoring the Attacker's cuts (the
    # Defender's searches keep the game's evaluation, where the model did not help; docs/learning.md)
    "schotten_totten_2": [
        "random",
        "greedy",
        f"learned:model={SHIPPED['st2-policy']}",
        "search",
        "search:value=shipped,value_seats=1",
    ],
    "osztrakon": ["random", "greedy+never", "b1"],
}

#: Bootstrap resamples of the rating intervals when ``bootstrap`` is not given.
DEFAULT_BOOTSTRAP = 200


def _groups(res: TournamentResult, labels: list[str], counts: np.ndarray) -> list[Any]:
    """The Luce groups of the pairs table with ``counts`` (rows x [wins a, wins b, none])."""
    index = {b: i for i, b in enumerate(labels)}
    out = []
    field = "field" in res.pairs.columns
    for row, (wa, wb, none) in zip(res.pairs.iter_rows(named=True), counts, strict=True):
        if field:
            a, b, k = index[row["bot"]], index[row["field"]], int(row["seats"])
            out.append(
                ({a: 1, b: k - 1}, {a: wa + none / k, b: wb + none * (k - 1) / k}, wa + wb + none)
            )
        else:
            a, b = index[row["bot_a"]], index[row["bot_b"]]
            out.append(({a: 1, b: 1}, {a: wa + none / 2, b: wb + none / 2}, wa + wb + none))
    return out


def _counts(res: TournamentResult) -> np.ndarray:
    p = res.pairs
    if "field" in p.columns:
        wa = p["wins"].to_numpy()
        return np.stack([wa, p["games"].to_numpy() - wa, np.zeros_like(wa)], axis=1)
    none = p["unfinished"] if "unfinished" in p.columns else p["no_winner"]
    return np.stack([p["wins_a"].to_numpy(), p["wins_b"].to_numpy(), none.to_numpy()], axis=1)


def _elo(strength: Sequence[float]) -> np.ndarray:
    return 1500.0 + 400.0 * np.log10(np.asarray(strength, dtype=np.float64))


def _intervals(
    res: TournamentResult, labels: list[str], resamples: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Percentile intervals (95 %) of each bot's rating over ``resamples`` parametric
    bootstrap resamples: every pair's games redrawn from its observed outcome shares, the
    Luce (Bradley–Terry) fit repeated."""
    counts = _counts(res)
    if resamples == 0:
        nan = np.full(len(labels), math.nan)
        return nan, nan
    rng = np.random.default_rng([seed, 0x1ADDE2])
    fits = np.empty((resamples, len(labels)))
    n = counts.sum(axis=1)
    shares = counts / np.maximum(n, 1)[:, None]
    for r in range(resamples):
        drawn = np.stack([rng.multinomial(int(g), s) for g, s in zip(n, shares, strict=True)])
        fits[r] = _elo(
            luce_ratings(len(labels), _groups(res, labels, drawn.astype(float)), iters=2_000)
        )
    return np.percentile(fits, 2.5, axis=0), np.percentile(fits, 97.5, axis=0)


def _order_rows(res: TournamentResult, labels: list[str], margin: float) -> list[dict[str, Any]]:
    """Each rung against the one below: the upper rung's win rate (2 seats; a harness game
    of more seats: its win share alone against a field of the lower rung) with its interval,
    and whether it beats the lower rung by ``margin`` (rate at least even + margin and the
    interval's low end above even)."""
    rows = []
    p = res.pairs
    for lower, upper in itertools.pairwise(labels):
        if "field" in p.columns:
            r = p.filter((pl.col("bot") == upper) & (pl.col("field") == lower)).row(0, named=True)
            rate, lo, hi, even = r["win_rate"], r["ci_low"], r["ci_high"], r["even_share"]
        else:
            hit = p.filter((pl.col("bot_a") == lower) & (pl.col("bot_b") == upper))
            if hit.height:
                r = hit.row(0, named=True)
                rate, lo, hi = 1 - r["win_rate_a"], 1 - r["ci_high"], 1 - r["ci_low"]
            else:
                r = p.filter((pl.col("bot_a") == upper) & (pl.col("bot_b") == lower)).row(
                    0, named=True
                )
                rate, lo, hi = r["win_rate_a"], r["ci_low"], r["ci_high"]
            even = 0.5
        ok = rate is not None and rate >= even + margin and lo > even
        rows.append({"lower": lower, "upper": upper, "games": int(r["games"]), "win_rate": rate, "ci_low": lo,
                     "ci_high": hi, "even": even, "margin": margin, "ok": bool(ok)})  # fmt: skip
    return rows


class LadderResult(TournamentResult):
    """The result of :func:`ketharmad.ladder`: a :class:`TournamentResult` (``pairs``,
    ``ratings``) whose ``ratings`` also have ``rating_low, rating_high`` (95 % percentile
    bootstrap intervals) and a ``rung`` (the bot's place in the given order, 0 = the lowest),
    plus ``order``: each rung against the one below (``lower, upper, games, win_rate, ci_low,
    ci_high, even, margin, ok``), ``ordered`` (every rung ``ok``) and ``margin``."""

    kind = "ladder"

    def __init__(
        self, base: TournamentResult, order: pl.DataFrame, margin: float, bootstrap: int
    ) -> None:
        self.__dict__.update(base.__dict__)
        self.order = order
        self.margin = margin
        self.bootstrap = bootstrap
        self.ordered = bool(order["ok"].all())

    def tables(self) -> dict[str, pl.DataFrame]:
        return {
            "ladder_ratings": self.ratings,
            "ladder_order": self.order,
            "ladder_pairs": self.pairs,
        }

    def _order_table(self) -> tuple[list[str], list[list[str]], list[bool]]:
        rows = [[r["upper"], r["lower"], f"{r['games']:,}", pct(r["win_rate"]), ci_text(r["ci_low"], r["ci_high"]),
                 pct(r["even"] + r["margin"]), "yes" if r["ok"] else "NO"] for r in self.order.iter_rows(named=True)]  # fmt: skip
        return (["rung", "against the rung below", "games", "win rate", "95% CI", "needed", "beats it"], rows,
                [False, False, True, True, False, True, False])  # fmt: skip

    def _ladder_ratings(self) -> tuple[list[str], list[list[str]], list[bool]]:
        rows = [[str(r["rung"]), r["bot"], f"{r['rating']:.0f}", f"[{r['rating_low']:.0f}, {r['rating_high']:.0f}]",
                 f"{r['games']:,}"] for r in self.ratings.sort("rung").iter_rows(named=True)]  # fmt: skip
        return ["rung", "bot", "rating", "95% CI", "games"], rows, [True, False, True, False, True]

    def _verdict(self) -> str:
        if self.ordered:
            return f"ordered: every rung beats the rung below by at least {100 * self.margin:.1f} points"
        bad = [
            f"{r['upper']} over {r['lower']}"
            for r in self.order.iter_rows(named=True)
            if not r["ok"]
        ]
        return f"NOT ordered by a margin of {100 * self.margin:.1f} points: " + ", ".join(bad)

    def text(self) -> str:
        lines = [f"LadderResult({self.game}, {len(self.bots)} rungs, {self.n_games:,} games, seed {self.seed}, "
                 f"{self.elapsed:.2f} s): {self._verdict()}", "ratings (Bradley-Terry, Elo scale; 95% bootstrap "
                 f"intervals over {self.bootstrap} resamples), lowest rung first:"]  # fmt: skip
        lines += ["  " + s for s in format_table(*self._ladder_ratings())]
        lines.append("each rung against the one below:")
        lines += ["  " + s for s in format_table(*self._order_table())]
        return "\n".join(lines)

    def _markdown(self, folder: Any, plots: bool) -> list[str]:
        out = [f"# Ladder: {self.game}, {len(self.bots)} rungs", ""]
        out += _provenance_md(self, None)
        how = self._how()
        out += ["", f"**{self._verdict()}.**", "", how[0].upper() + how[1:] + ".", "",
                "## Ratings (Bradley–Terry, Elo scale, 95 % bootstrap intervals)", "",
                md_table(*self._ladder_ratings()), "", "## Each rung against the one below", "",
                md_table(*self._order_table()), "", "## Pairs", "", md_table(*self._pair_table())]  # fmt: skip
        return out


def ladder(
    bots: Optional[Sequence[Any]] = None,
    *,
    game: Union[str, GameSpec] = "ketharmad",
    games: Optional[int] = None,
    seed: int = 0,
    margin: float = 0.0,
    bootstrap: int = DEFAULT_BOOTSTRAP,
    decks: Optional[Sequence[Any]] = None,
    params: Optional[Mapping[str, Any]] = None,
    run: RunArg = None,
    **setup: Unpack[SetupKeywords],
) -> LadderResult:
    """Rate ``bots`` (weakest rung first; None: the game's :data:`DEFAULT_LADDERS`) on common
    seeds and check their order.

    Every pair of bots plays as in :func:`ketharmad.tournament` (the same ``games``,
    ``decks``, ``params``, ``run`` and the setup keywords ``card_data``, ``format``, ``seats``: seats swapped,
    decks rotated, common seeds; a harness game of more seats: each bot alone against a field
    of each other). The ratings are the tournament's Bradley–Terry fit (Elo scale) with 95 %
    intervals from ``bootstrap`` parametric resamples (each pair's games redrawn from its
    observed outcome shares and the fit repeated; seeded from ``seed``; 0: no intervals).
    ``order`` compares each rung with the one below: the upper rung's win rate over it (a
    game of more seats: its share alone against a field of the lower rung) must be at least
    even (½, or 1/seats) + ``margin`` with the low end of its 95 % interval above even.
    Same arguments, same result on any ``run``; bad bots, knobs or arguments are refused by
    name before a game is played, as by the tournament.
    """
    name = game.name if isinstance(game, GameSpec) else driver_for(game).name
    specs = list(DEFAULT_LADDERS[name] if bots is None else bots)
    if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 <= margin < 0.5:
        raise ValueError(
            f"margin must be a number from 0 to 0.5 (points of win rate), got {margin!r}"
        )
    if isinstance(bootstrap, bool) or not isinstance(bootstrap, int) or bootstrap < 0:
        raise ValueError(f"bootstrap must be a whole number >= 0, got {bootstrap!r}")
    card_data, format, seats = take_setup("ladder", setup, ("card_data", "format", "seats"))
    base = tournament(specs, games=games, seed=seed, params=params, game=game, run=run, decks=decks,
                      card_data=card_data, format=format, seats=seats)  # fmt: skip
    labels = [str(x) for x in base.ratings["bot"].to_list()]
    given = [bot_label(b) for b in base.bots]  # the order given
    low, high = _intervals(base, given, bootstrap, seed)
    order_of = {b: i for i, b in enumerate(given)}
    lo_of = dict(zip(given, low.tolist(), strict=True))
    hi_of = dict(zip(given, high.tolist(), strict=True))
    base.ratings = base.ratings.with_columns(
        rung=pl.Series([order_of[b] for b in labels], dtype=pl.Int64),
        rating_low=pl.Series([lo_of[b] for b in labels]),
        rating_high=pl.Series([hi_of[b] for b in labels]),
    )
    order = pl.DataFrame(_order_rows(base, given, float(margin)))
    return LadderResult(base, order, float(margin), bootstrap)
