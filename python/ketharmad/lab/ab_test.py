"""``ab_test(a, b, ...)``: is bot ``a`` stronger than bot ``b``? A sequential test like
Fishtest's, written once for every game: pairs of games on the same seed (the same deal)
with the seats swapped, counted as a pentanomial, played in growing batches until the
generalized SPRT (:mod:`ketharmad.lab.sprt`) accepts H0 or H1, or the game budget is spent
(docs/bots.md, "A/B tests")."""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional, Union, Unpack

import numpy as np
import polars as pl

from ..game.data import describe_card_data, load_card_data
from ..game.driver import Block, GameDriver
from ..game.formats import apply_format, format_info
from ..game.harness import harness_info
from ..game.spec import GameSpec, SetupKeywords
from ..game.validate import _check_bot_spec, bot_label, check_params, check_seed
from ..results.lab_report import _figure, _provenance_md, _save, md_table
from ..results.report import _lab_params_label, format_table
from ..run.cluster import executor_for
from ..run.options import RunArg, RunOptions
from .harness import (
    GameLabResult,
    _check_seats,
    _check_whole,
    _params_of,
    _rotation,
    check_bot_specs,
    game_setup,
)
from .html_views import ab_views
from .sprt import elo_of_score, llr_pentanomial, pair_estimate, wald_bounds
from .tournament import _deck_pairs

__all__ = ["ab_test", "ABTestResult"]

#: Each batch has this many times the pairs of the one before (rounded up to the layout's unit).
GROWTH = 1.25
#: No batch has more than this many times the pairs of the first.
MAX_GROWTH = 8
#: The game budget when ``max_games`` is not given.
DEFAULT_MAX_GAMES = 200_000

DECISIONS = {
    "H1": "H1 accepted: A is stronger than B by elo1 rather than elo0",
    "H0": "H0 accepted: A is not stronger than B by elo1 (the difference is elo0 or less)",
    "inconclusive": "inconclusive: the game budget ran out before the LLR crossed a bound",
}


@dataclass
class _Layout:
    """How one batch of pairs is played: ``blocks(offset, pairs)`` gives the blocks and,
    per pair of blocks, the seat of A in each game of the pair (2 seats) or the seat both
    bots take (more seats: A in one game, B in the other, the field elsewhere)."""

    driver: GameDriver
    specs: list[Any]  # a, b
    unit: int  # pairs per batch are a multiple of this
    seats: int
    pairings: list[list[str]]  # Kétharmad's deck pairings; [] for the harness games
    field: Any = None  # more seats: the bot on every other seat
    setup: Optional[dict[str, Any]] = None

    def blocks(self, offset: int, pairs: int) -> list[tuple[Block, Block, int, int]]:
        """The pairs of blocks of games ``offset .. offset + pairs - 1``: ``(first, second,
        seat_a_first, seat_b_second)``; the two blocks of a pair play the same games."""
        a, b = self.specs
        out = []
        if self.pairings:
            per = pairs // len(self.pairings)
            for d, deck in enumerate(self.pairings):
                first = offset + d * per
                out.append(
                    (
                        Block((a, b), first, per, tuple(deck)),
                        Block((b, a), first, per, tuple(deck)),
                        0,
                        1,
                    )
                )
            return out
        if self.seats == 2:
            return [(Block((a, b), offset, pairs), Block((b, a), offset, pairs), 0, 1)]
        for s, first, share in _rotation(pairs, self.seats):
            la, lb = [self.field] * self.seats, [self.field] * self.seats
            la[s], lb[s] = a, b
            out.append(
                (
                    Block(tuple(la), offset + first, share),
                    Block(tuple(lb), offset + first, share),
                    s,
                    s,
                )
            )
        return out


def _points(result: Any, seat: int, seats: int, other: Optional[int]) -> np.ndarray:
    """Per game (in game order) the points of the bot on ``seat``: 1 for a win, ½ for a game
    without a winner (or won by both bots of a 2-seat game), 0 for a loss. ``other``: the
    seat of the other bot in a 2-seat game (None: more seats; a win of ``seat`` is 1, else 0)."""
    g = result.games.sort("game")
    if "winners_mask" in g.columns:
        mask = g["winners_mask"].to_numpy().astype(np.uint64)
        mine = (mask >> np.uint64(seat)) & np.uint64(1)
        if other is None:
            return mine.astype(np.float64)
        theirs = (mask >> np.uint64(other)) & np.uint64(1)
        return 0.5 + 0.5 * (mine.astype(np.float64) - theirs.astype(np.float64))
    w = g["winner"].fill_null(-1).to_numpy()
    return np.where(w == seat, 1.0, np.where(w < 0, 0.5, 0.0))


def _batch_counts(
    lay: _Layout, pairs: list[tuple[Block, Block, int, int]], played: list[Any]
) -> np.ndarray:
    """The pentanomial counts of one batch: per pair, A's points in its game plus (2 seats) its
    points in the swapped game, or (more seats) 1 + A's win - B's win."""
    counts = np.zeros(5, dtype=np.int64)
    it = iter(played)
    for _first, _second, sa, sb in pairs:
        ra, rb = next(it), next(it)
        if lay.seats == 2:
            pts = _points(ra, sa, lay.seats, 1 - sa) + _points(rb, sb, lay.seats, 1 - sb)
        else:
            pts = 1.0 + _points(ra, sa, lay.seats, None) - _points(rb, sb, lay.seats, None)
        cells = np.rint(pts * 2).astype(np.int64)
        counts += np.bincount(cells, minlength=5)[:5]
    return counts


class ABTestResult(GameLabResult):
    """The result of :func:`ketharmad.ab_test`.

    Attributes:
        decision: ``"H1"`` (A is stronger by ``elo1``), ``"H0"`` (it is not: ``elo0`` or less)
            or ``"inconclusive"`` (``max_games`` spent first).
        llr, bounds: the final log-likelihood ratio and Wald's (lower, upper) bounds.
        pentanomial: the pair counts by A's points in the pair (0, ½, 1, 1½, 2).
        pairs, n_games: pairs of games and games played.
        score, score_low, score_high: A's mean score per game with its 95 % interval (the
            pairs' variance; a fixed-sample interval, slightly optimistic after a sequential
            stop).
        elo, elo_low, elo_high: the same as a logistic Elo difference.
        trace: one row per batch (``batch, pairs, games, llr, score, elo, elo_low, elo_high``).
        a, b: the bots' labels; bots: their specs; elo0, elo1, alpha, beta: the test.
        game, seed, params, card_data, decks, seats, field, elapsed: the run's arguments and
            wall time.
    """

    kind = "ab_test"

    def __init__(self, **kw: Any) -> None:
        self.game: str = kw["game"]
        self._info = kw.get("info")
        self.a: str = kw["a"]
        self.b: str = kw["b"]
        self.bots: list[Any] = kw["bots"]
        self.elo0: float = kw["elo0"]
        self.elo1: float = kw["elo1"]
        self.alpha: float = kw["alpha"]
        self.beta: float = kw["beta"]
        self.bounds: tuple[float, float] = kw["bounds"]
        self.decision: str = kw["decision"]
        self.pentanomial: list[int] = kw["pentanomial"]
        self.trace: pl.DataFrame = kw["trace"]
        self.seed: int = kw["seed"]
        self.params: dict[str, Any] = kw["params"]
        self.card_data: str = kw.get("card_data", f"game {self.game}")
        self.decks: Optional[list[list[str]]] = kw.get("decks")
        self.seats: int = kw["seats"]
        self.field: Optional[str] = kw.get("field")
        self.elapsed: float = kw["elapsed"]
        if self._info is None:
            self._card_text: str = kw["card_text"]
        self.plan = None
        self.pairs = int(sum(self.pentanomial))
        self.llr = float(self.trace["llr"][-1]) if self.trace.height else 0.0
        self.score, self.score_low, self.score_high = pair_estimate(self.pentanomial)
        self.elo, self.elo_low, self.elo_high = (
            elo_of_score(x) for x in (self.score, self.score_low, self.score_high)
        )

    @property
    def n_games(self) -> int:
        return 2 * self.pairs

    def tables(self) -> dict[str, pl.DataFrame]:
        pent = pl.DataFrame({"points": [0.0, 0.5, 1.0, 1.5, 2.0], "pairs": self.pentanomial})
        summary = pl.DataFrame([{"a": self.a, "b": self.b, "decision": self.decision, "llr": self.llr,
                                 "lower": self.bounds[0], "upper": self.bounds[1], "elo0": self.elo0,
                                 "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta, "pairs": self.pairs,
                                 "games": self.n_games, "score": self.score, "score_low": self.score_low,
                                 "score_high": self.score_high, "elo": self.elo, "elo_low": self.elo_low,
                                 "elo_high": self.elo_high}])  # fmt: skip
        return {"ab_summary": summary, "ab_pentanomial": pent, "ab_trace": self.trace}

    def _design(self) -> str:
        if self._info is None:
            return (f"pairs of games on the same deal with the seats swapped, over {len(self.decks or [])} "
                    "deck pairing(s)")  # fmt: skip
        if self.seats == 2:
            return "pairs of games on the same seed with the sides swapped"
        return (f"pairs of games on the same seed, A in one and B in the other on the same seat (rotating), "
                f"{self.field} on the other {self.seats - 1} seats")  # fmt: skip

    def headline(self) -> str:
        lo, hi = self.bounds
        return (f"{DECISIONS[self.decision]} after {self.n_games:,} games ({self.pairs:,} pairs); "
                f"LLR {self.llr:+.2f}, bounds [{lo:.2f}, {hi:.2f}]")  # fmt: skip

    def _estimate(self) -> str:
        return (f"A's score {100 * self.score:.1f}% [{100 * self.score_low:.1f}, {100 * self.score_high:.1f}], "
                f"Elo {self.elo:+.1f} [{self.elo_low:+.1f}, {self.elo_high:+.1f}] (logistic, 95%)")  # fmt: skip

    def _pent_rows(self) -> tuple[list[str], list[list[str]], list[bool]]:
        names = ["0", "½", "1", "1½", "2"]
        return (["A's points in the pair"] + names, [["pairs"] + [f"{n:,}" for n in self.pentanomial]],
                [False] + [True] * 5)  # fmt: skip

    def text(self) -> str:
        lines = [f"ABTestResult({self.game}): A = {self.a}, B = {self.b}; H0 elo {self.elo0:g}, H1 elo {self.elo1:g}, "
                 f"alpha {self.alpha:g}, beta {self.beta:g}; seed {self.seed}, params: {_lab_params_label(self.params)}, "
                 f"{self.elapsed:.2f} s", self.headline(), self._estimate(), self._design() + ";"]  # fmt: skip
        lines += ["  " + s for s in format_table(*self._pent_rows())]
        return "\n".join(lines)

    def _markdown(self, folder: Any, plots: bool) -> list[str]:
        out = [f"# A/B test: {self.a} against {self.b} ({self.game})", ""]
        out += _provenance_md(self, None)
        out += ["", f"**{self.headline()}.**", "", self._estimate() + ".", "",
                f"H0: elo = {self.elo0:g}, H1: elo = {self.elo1:g} (A's logistic Elo over B), alpha = {self.alpha:g}, "
                f"beta = {self.beta:g}; {self._design()}; the generalized SPRT of Fishtest on the pentanomial counts.",
                "", "## Pairs", "", md_table(*self._pent_rows()), "", "## LLR by batch", ""]  # fmt: skip
        rows = [[str(r["batch"]), f"{r['games']:,}", f"{r['llr']:+.2f}", f"{100 * r['score']:.1f}%",
                 f"{r['elo']:+.1f} [{r['elo_low']:+.1f}, {r['elo_high']:+.1f}]"] for r in self.trace.iter_rows(named=True)]  # fmt: skip
        out.append(
            md_table(
                ["batch", "games", "LLR", "A's score", "Elo (95%)"],
                rows,
                [True, True, True, True, False],
            )
        )
        if plots and folder is not None:
            for p in self.plots(folder):
                out += ["", f"![{p.stem}]({p.name})"]
        return out

    def html_views(self) -> list[Any]:
        """The report's chart of the LLR after each batch, with the bounds."""
        return ab_views(self)

    def plots(self, folder: Union[str, os.PathLike[str]]) -> list[Path]:
        """The LLR after each batch against the games played, with the two bounds."""
        root = Path(folder)
        root.mkdir(parents=True, exist_ok=True)
        fig = _figure(6.4, 3.6)
        ax = fig.add_subplot(1, 1, 1)
        games = [0] + self.trace["games"].to_list()
        ax.plot(games, [0.0] + self.trace["llr"].to_list(), marker="o", ms=3, label="LLR")
        lo, hi = self.bounds
        ax.axhline(hi, color="tab:green", ls="--", label=f"accept H1 ({hi:.2f})")
        ax.axhline(lo, color="tab:red", ls="--", label=f"accept H0 ({lo:.2f})")
        ax.set_xlabel("games")
        ax.set_ylabel("log-likelihood ratio")
        ax.set_title(f"{self.a} vs {self.b}: {self.decision}")
        ax.legend(loc="best", fontsize=8)
        return [_save(fig, root / "ab_test_llr.png")]


def _check_test(
    elo0: object, elo1: object, alpha: object, beta: object
) -> tuple[float, float, float, float]:
    vals = {}
    for name, v in (("elo0", elo0), ("elo1", elo1), ("alpha", alpha), ("beta", beta)):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise ValueError(f"{name} must be a finite number, got {v!r}")
        vals[name] = float(v)
    if vals["elo0"] >= vals["elo1"]:
        raise ValueError(
            f"elo0 must be below elo1 (H0: elo0, H1: elo1), got elo0={elo0!r}, elo1={elo1!r}"
        )
    for name in ("elo0", "elo1"):
        if abs(vals[name]) >= 1000:
            raise ValueError(f"{name} must be between -1000 and 1000 Elo, got {vals[name]!r}")
    for name in ("alpha", "beta"):
        if not 0 < vals[name] < 0.5:
            raise ValueError(
                f"{name} must be between 0 and 0.5 (an error rate), got {vals[name]!r}"
            )
    return vals["elo0"], vals["elo1"], vals["alpha"], vals["beta"]


def _ketharmad_layout(driver: GameDriver, a: Any, b: Any, decks: Any, params: Any, card_data: Any,
                      format: Any) -> tuple[_Layout, dict[str, Any], dict[str, Any]]:  # fmt: skip
    specs = [_check_bot_spec(a, "a", agents=True), _check_bot_spec(b, "b", agents=True)]
    text, params_ = apply_format(load_card_data(card_data), check_params(params), format)
    teams = format_info(text, params_)
    if teams.seats_min > 2:
        raise ValueError(f"ab_test plays 2-player games: a 2-player format, not {teams.name!r} "
                         f"({teams.seats_min}-{teams.seats_max} seats)")  # fmt: skip
    pairings = _deck_pairs(decks, 2, "ab_test")
    lay = _Layout(driver, specs, len(pairings), 2, pairings, setup={"card_text": text})
    result = {"decks": pairings, "card_data": describe_card_data(card_data), "card_text": text}
    return lay, params_, result


def _harness_layout(driver: GameDriver, a: Any, b: Any, params: Any, seats: Any,
                    field: Any) -> tuple[_Layout, dict[str, Any], dict[str, Any]]:  # fmt: skip
    info = harness_info(driver.name)
    specs = check_bot_specs([a, b], "a, b")
    params_ = _params_of(params)
    two = info["max_seats"] == 2
    if two and seats not in (None, 2):
        raise ValueError(f"{driver.name} takes 2 to 2 seats, got seats={seats!r}")
    if two and field is not None:
        raise ValueError(f"field: a game of more than 2 seats only ({driver.name} has 2)")
    k = 2 if two else _check_seats(info, seats)
    field_ = None if two else check_bot_specs([specs[1] if field is None else field], "field")[0]
    lay = _Layout(driver, specs, 1 if two else k, k, [], field=field_)
    return lay, params_, {"info": info, "field": field_}


def _batch_sizes(first: int, unit: int, max_pairs: int) -> Any:
    """Pairs per batch: ``first``, then GROWTH times more each batch (a multiple of ``unit``,
    at most MAX_GROWTH x ``first``), until ``max_pairs`` (a multiple of ``unit``) are played."""
    done, size = 0, float(first)
    while done < max_pairs:
        n = min(int(math.ceil(size / unit)) * unit, MAX_GROWTH * first)
        n = min(n, max_pairs - done)
        yield n
        done += n
        size *= GROWTH


def ab_test(
    a: Any,
    b: Any,
    *,
    elo0: float = 0.0,
    elo1: float = 10.0,
    alpha: float = 0.05,
    beta: float = 0.05,
    game: Union[str, GameSpec] = "ketharmad",
    params: Optional[Mapping[str, Any]] = None,
    seed: int = 0,
    max_games: int = DEFAULT_MAX_GAMES,
    run: RunArg = None,
    **setup: Unpack[SetupKeywords],
) -> ABTestResult:
    """Test whether bot ``a`` is stronger than bot ``b`` with a generalized SPRT (Fishtest's):
    H0 "A's logistic Elo over B is ``elo0``" against H1 "it is ``elo1``", with error rates
    ``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting H0 when H1 holds).

    Games come in pairs on the same seed with the seats swapped (Kétharmad: the same deal, A
    on each side, spread evenly over all 12 deck pairings, or one given as
    ``game=ketharmad.load_game(decks=[x, y])``; Schotten
    Totten 2: A as Attacker and as Defender), so the deal's luck cancels within a pair; a
    pair counts by A's points in it (0, ½, 1, 1½, 2: the pentanomial; a game without a winner
    is ½). A game of more seats (Osztrakon) pairs a game with A on a seat against the same
    game with B on that seat, B on every other seat, the seat
    rotating; the pair's points are 1 + A's win − B's win. Batches of pairs
    (the first: 240 for Kétharmad, 20 per deck pairing; 250 for Schotten Totten 2; 50 x seats
    for Osztrakon), each 1.25 x the one before (at most 8 x the first), are played until the
    LLR crosses a bound or ``max_games`` (default 200,000) are played ("inconclusive").

    Batch ``k`` plays games that no other batch plays, and the schedule depends on nothing
    but the arguments, so the result is a pure function of them, the same for any
    ``run.threads``, executor or cluster. ``run.progress`` prints a line per batch (LLR,
    games, Elo so far). A bot may be a Python agent (Kétharmad; slower, game by game).

    Refused by name before a game is played: ``elo0 >= elo1``, error rates outside (0, ½),
    an unknown bot, knob or knob value, a bot of another game, a format of more than 2
    seats, a budget below one batch. ``**setup``: ``card_data``, ``format`` (Kétharmad), ``seats``
    (Osztrakon). Returns an :class:`ABTestResult` (``decision``, ``llr``,
    ``elo`` with its interval, ``pentanomial``, ``trace``; ``write_run`` / ``write_report``
    write its tables, report and the LLR plot).
    """
    run = RunOptions.of(run)
    elo0_, elo1_, alpha_, beta_ = _check_test(elo0, elo1, alpha, beta)
    driver, decks, card_data, format, params, seats = game_setup("ab_test", game, params, setup)
    if driver.is_ketharmad:
        driver.refuse("ab_test", {"seats": seats is not None})
        lay, params_, extra = _ketharmad_layout(driver, a, b, decks, params, card_data, format)
        default_batch = 20 * len(lay.pairings)
    else:
        driver.refuse("ab_test", {"card_data": card_data is not None, "format": format is not None},
                      "a, b, elo0, elo1, alpha, beta, params, seats, seed, max_games and run")  # fmt: skip
        lay, params_, extra = _harness_layout(driver, a, b, params, seats, None)
        default_batch = 250 if lay.seats == 2 else 50 * lay.seats
    seed_ = check_seed(seed)
    first = default_batch
    max_g = _check_whole("max_games", max_games, 2)
    if max_g < 2 * first:
        raise ValueError(f"max_games={max_g:,} is less than one batch of {first:,} pairs ({2 * first:,} games); "
                         f"give max_games >= {2 * first:,}")  # fmt: skip
    cells = lay.setup or {}
    probe = [blk for f, s, _, _ in lay.blocks(0, lay.unit) for blk in (f, s)]
    driver.check_cells(probe, seed_, params_, **cells)
    lower, upper = wald_bounds(alpha_, beta_)
    counts = np.zeros(5, dtype=np.int64)
    trace: list[dict[str, Any]] = []
    offset = 0
    decision = "inconclusive"
    start = time.perf_counter()
    with executor_for(run.executor, run.cluster) as ex:
        for k, n in enumerate(_batch_sizes(first, lay.unit, max_g // 2 // lay.unit * lay.unit)):
            pairs = lay.blocks(offset, n)
            blocks = [blk for f, s, _, _ in pairs for blk in (f, s)]
            played = driver.play_cells(
                blocks, seed_, params_, rows=True, threads=run.threads, executor=ex, **cells
            )
            counts += _batch_counts(lay, pairs, played.results)
            offset += n
            llr = llr_pentanomial(counts.tolist(), elo0_, elo1_)
            s, lo_s, hi_s = pair_estimate(counts.tolist())
            trace.append({"batch": k, "pairs": int(counts.sum()), "games": 2 * int(counts.sum()), "llr": llr,
                          "score": s, "elo": elo_of_score(s), "elo_low": elo_of_score(lo_s),
                          "elo_high": elo_of_score(hi_s)})  # fmt: skip
            if run.progress:
                t = trace[-1]
                print(f"ab_test: {t['games']:,} games, LLR {llr:+.2f} [{lower:.2f}, {upper:.2f}], "
                      f"Elo {t['elo']:+.1f} [{t['elo_low']:+.1f}, {t['elo_high']:+.1f}]", file=sys.stderr)  # fmt: skip
            if llr >= upper:
                decision = "H1"
                break
            if llr <= lower:
                decision = "H0"
                break
    elapsed = time.perf_counter() - start
    labels = [bot_label(s) if driver.is_ketharmad else s for s in lay.specs]
    return ABTestResult(game=driver.name, a=labels[0], b=labels[1], bots=lay.specs, elo0=elo0_, elo1=elo1_,
                        alpha=alpha_, beta=beta_, bounds=(lower, upper), decision=decision,
                        pentanomial=[int(x) for x in counts], trace=pl.DataFrame(trace, schema=_TRACE_SCHEMA),
                        seed=seed_, params=params_, seats=lay.seats, elapsed=elapsed, **extra)  # fmt: skip


_TRACE_SCHEMA = {"batch": pl.Int64, "pairs": pl.Int64, "games": pl.Int64, "llr": pl.Float64, "score": pl.Float64,
                 "elo": pl.Float64, "elo_low": pl.Float64, "elo_high": pl.Float64}  # fmt: skip
