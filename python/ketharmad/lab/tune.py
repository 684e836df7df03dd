"""``tune_bot(bot, against=..., ...)``: tune a bot's knobs for win rate against a field of bots
by self-play on common random numbers (Optuna's TPE), choose on fresh games and confirm on a
holdout, for every game over its driver's blocks (docs/bots.md, "Tuning a bot")."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional, Union, Unpack

import polars as pl

from ..game.data import describe_card_data, load_card_data
from ..game.driver import Block, GameDriver
from ..game.formats import apply_format, format_info
from ..game.spec import GameSpec, SetupKeywords
from ..game.validate import _check_bot_spec, bot_label, check_params, check_seed
from ..results.lab_report import _provenance_md, md_table
from ..results.report import ci_text, format_table, pct
from ..run.cluster import executor_for
from ..run.options import RunArg, RunOptions
from .harness import (
    GameLabResult,
    _check_seats,
    _check_whole,
    _params_of,
    _rotation,
    _wilson,
    check_bot_specs,
    game_setup,
)
from .tournament import _deck_pairs, bots

__all__ = ["tune_bot", "TuneResult", "COST_KNOBS"]

#: Knobs that buy strength with time, the switches of what a search searches, the halving
#: root's trust in its prior (``prior_bonus``: nothing without ``halving``) and the seats a
#: value model serves (``value_seats``: nothing without ``value``) (left out unless named in
#: ``knobs``).
COST_KNOBS = frozenset({"iterations", "every", "width", "rollout_rounds", "max_rollout_actions",
                        "key_only", "own_only", "halving", "prior_tree", "prior_bonus",
                        "value_seats"})  # fmt: skip
#: Search ranges that differ from the declared ones (the declared range is far wider than useful).
NARROW = {"c": (0.05, 5.0), "horizon": (1.0, 8.0), "widen": (0.25, 4.0), "eval_scale": (2.0, 40.0),
          "prior_bonus": (0.0, 0.1)}  # fmt: skip
#: Where the selection and the holdout games start (no trial plays them).
SELECT_OFFSET = 1 << 26
HOLDOUT_OFFSET = 1 << 27
#: Holdout games per opponent, in multiples of the trials' games.
CONFIRM = 8
#: Trials re-played on the selection games.
FINALISTS = 3


@dataclass
class _Field:
    driver: GameDriver
    against: list[Any]
    seats: int
    pairings: list[list[str]]
    params: dict[str, Any]
    setup: dict[str, Any]
    unit: int
    seed: int

    def blocks(self, cand: Any, first: int, games: int) -> list[tuple[Block, int]]:
        """Blocks of ``games`` games from ``first`` of ``cand`` against each opponent, with
        the seat of ``cand``: Kétharmad every deck pairing and both seatings; a 2-seat harness
        game both sides; more seats ``cand`` alone against a field of the opponent, its seat
        rotating."""
        out = []
        for opp in self.against:
            if self.pairings:
                per = games // (2 * len(self.pairings))
                for d, deck in enumerate(self.pairings):
                    f = first + d * per
                    out += [
                        (Block((cand, opp), f, per, tuple(deck)), 0),
                        (Block((opp, cand), f, per, tuple(deck)), 1),
                    ]
            elif self.seats == 2:
                out += [
                    (Block((cand, opp), first, games // 2), 0),
                    (Block((opp, cand), first, games // 2), 1),
                ]
            else:
                for s, f, share in _rotation(games, self.seats):
                    lineup = [opp] * self.seats
                    lineup[s] = cand
                    out.append((Block(tuple(lineup), first + f, share), s))
        return out

    def play(
        self, cand: Any, first: int, games: int, run: RunOptions, ex: Any
    ) -> list[tuple[int, float]]:
        """Per opponent: games and ``cand``'s points (a win 1, a game without a winner 1/seats)."""
        layout = self.blocks(cand, first, games)
        counts, _ = self.driver.play_blocks([b for b, _ in layout], self.seed, self.params, threads=run.threads,
                                            executor=ex, **self.setup)  # fmt: skip
        per_opp = len(layout) // len(self.against)
        out = []
        for i in range(len(self.against)):
            g = pts = 0.0
            for (_, seat), c in zip(
                layout[i * per_opp : (i + 1) * per_opp],
                counts[i * per_opp : (i + 1) * per_opp],
                strict=True,
            ):
                g += c.games
                pts += c.wins[seat] + c.no_winner / self.seats
            out.append((int(g), pts))
        return out


def _space(
    kind: str, knobs: Any, table: pl.DataFrame, given: Mapping[str, Any]
) -> dict[str, tuple[float, float]]:
    """The knobs to tune with their ranges: ``knobs`` None = every numeric knob of ``kind``
    but the cost knobs and those the spec fixes; a list of names; or a dict name -> (low, high)."""
    rows = {r["name"]: r for r in table.filter(pl.col("entry") == "knob").iter_rows(named=True)
            if kind in [k.strip() for k in (r["applies_to"] or "").split(",")] and r["min"] is not None
            and not math.isnan(r["min"])}  # fmt: skip
    if not rows:
        raise ValueError(f"bot {kind!r} has no knobs to tune (knobs: `ketharmad.bots()`)")
    if knobs is None:
        names = [n for n in rows if n not in COST_KNOBS and n not in given]
        return {n: NARROW.get(n, (float(rows[n]["min"]), float(rows[n]["max"]))) for n in names}
    items = knobs.items() if isinstance(knobs, Mapping) else [(n, None) for n in knobs]
    out = {}
    for n, rng in items:
        if n not in rows:
            raise ValueError(
                f"knobs: {n!r} is not a knob of {kind!r} (its knobs: {', '.join(rows)})"
            )
        lo, hi = float(rows[n]["min"]), float(rows[n]["max"])
        if rng is None:
            out[n] = NARROW.get(n, (lo, hi))
            continue
        a, b = (float(x) for x in rng)
        if not lo <= a < b <= hi:
            raise ValueError(
                f"knobs: {n!r} range {rng!r} must be a low < high inside {n}'s range [{lo:g}, {hi:g}]"
            )
        out[n] = (a, b)
    if not out:
        raise ValueError("knobs names no knob to tune")
    return out


def _integer(name: str) -> bool:
    return name in (
        "iterations",
        "width",
        "rollout_rounds",
        "max_rollout_actions",
        "horizon",
        "key_only",
        "own_only",
        "halving",
        "prior_tree",
    )


class TuneResult(GameLabResult):
    """The result of :func:`ketharmad.tune_bot`.

    Attributes:
        best: the tuned bot's spec (the starting bot when no trial beat it on the selection
            games); start: the starting spec; knobs: the tuned knobs and their ranges.
        trials: one row per trial (``trial``, each knob, ``score``: mean points share against
            the field on the training games).
        finalists: the candidates re-played on fresh selection games (``bot, train, select``).
        holdout: the best bot against each opponent on holdout games (``opponent, games,
            points, score, ci_low, ci_high``); confirmed: every holdout interval above even.
        game, seed, params, card_data, against, elapsed: the run's arguments and wall time.
    """

    kind = "tune_bot"

    def __init__(self, **kw: Any) -> None:
        self.game: str = kw["game"]
        self._info = kw["_info"]
        self._card_text: str = kw.get("_card_text", "")
        self.card_data: str = kw["card_data"]
        self.decks: Optional[list[list[str]]] = kw["decks"]
        self.best: Any = kw["best"]
        self.start: Any = kw["start"]
        self.knobs: dict[str, tuple[float, float]] = kw["knobs"]
        self.against: list[Any] = kw["against"]
        self.trials: pl.DataFrame = kw["trials"]
        self.finalists: pl.DataFrame = kw["finalists"]
        self.holdout: pl.DataFrame = kw["holdout"]
        self.confirmed: bool = kw["confirmed"]
        self.games_played: int = kw["games_played"]
        self.seed: int = kw["seed"]
        self.params: dict[str, Any] = kw["params"]
        self.bots: list[str] = kw["bots"]
        self.elapsed: float = kw["elapsed"]
        self.plan = None

    @property
    def n_games(self) -> int:
        return int(self.games_played)

    def tables(self) -> dict[str, pl.DataFrame]:
        return {
            "tune_trials": self.trials,
            "tune_finalists": self.finalists,
            "tune_holdout": self.holdout,
        }

    def _holdout_table(self) -> tuple[list[str], list[list[str]], list[bool]]:
        rows = [[r["opponent"], f"{r['games']:,}", pct(r["score"]), ci_text(r["ci_low"], r["ci_high"]), pct(r["even"])]
                for r in self.holdout.iter_rows(named=True)]  # fmt: skip
        return (
            ["against", "games", "score", "95% CI", "even"],
            rows,
            [False, True, True, False, True],
        )

    def headline(self) -> str:
        what = "CONFIRMED" if self.confirmed else "NOT CONFIRMED"
        return f"{what}: {bot_label(self.best)} against {', '.join(bot_label(a) for a in self.against)}"

    def text(self) -> str:
        lines = [f"TuneResult({self.game}, {len(self.trials)} trials, {self.n_games:,} games, seed {self.seed}, "
                 f"{self.elapsed:.1f} s)", self.headline(), f"started from {bot_label(self.start)}; tuned "
                 + ", ".join(f"{k} in [{a:g}, {b:g}]" for k, (a, b) in self.knobs.items()), "holdout:"]  # fmt: skip
        lines += ["  " + s for s in format_table(*self._holdout_table())]
        return "\n".join(lines)

    def _markdown(self, folder: Any, plots: bool) -> list[str]:
        out = [f"# Tuned bot: {bot_label(self.best)} ({self.game})", ""]
        out += _provenance_md(self, None)
        fin = [
            [r["bot"], pct(r["train"]), pct(r["select"])]
            for r in self.finalists.iter_rows(named=True)
        ]
        out += ["", f"**{self.headline()}.**", "", "## Holdout", "", md_table(*self._holdout_table()), "",
                "## Finalists (training and selection games)", "",
                md_table(["bot", "train", "select"], fin, [False, True, True])]  # fmt: skip
        return out


def _spec_of(start: Any, values: Mapping[str, float], ketharmad: bool) -> Any:
    vals = {k: (int(round(v)) if _integer(k) else round(float(v), 3)) for k, v in values.items()}
    if ketharmad:
        base = {"kind": start} if isinstance(start, str) else dict(start)
        return {**base, **vals}
    kind, _, opts = start.partition(":")
    cur = dict(o.split("=", 1) for o in opts.split(",") if o)
    cur.update({k: str(v) for k, v in vals.items()})
    return kind + (":" + ",".join(f"{k}={v}" for k, v in sorted(cur.items())) if cur else "")


def tune_bot(
    bot: Any = "heuristic",
    *,
    against: Optional[Sequence[Any]] = None,
    knobs: Union[None, Sequence[str], Mapping[str, tuple[float, float]]] = None,
    trials: int = 30,
    games: Optional[int] = None,
    game: Union[str, GameSpec] = "ketharmad",
    params: Optional[Mapping[str, Any]] = None,
    seed: int = 0,
    run: RunArg = None,
    **setup: Unpack[SetupKeywords],
) -> TuneResult:
    """Tune ``bot``'s knobs for its mean score against ``against`` (default: the bot as given).

    Each of ``trials`` trials (Optuna's multivariate TPE, seeded with ``seed``; the
    ``balance`` extra) plays a candidate against every opponent on the same ``games`` games
    per opponent (common random numbers: only the knobs differ between trials; Kétharmad
    over every deck pairing (or the one of
    ``game=ketharmad.load_game(decks=[x, y])``) with both seatings, default 480 games; a 2-seat game
    on both sides, default 200; more seats alone against a field of the opponent, its seat
    rotating, default 50 x seats). The score is the points share (a win 1, a game without a
    winner 1/seats). The best ``3`` trials and the starting bot are played again on fresh
    *selection* games (twice as many); the best there is ``best``. It is then played on
    *holdout* games no earlier stage used (8 x ``games`` per opponent): ``confirmed`` when its 95 % interval against every opponent lies above even.

    ``knobs``: None = every numeric knob of the bot's kind but the cost knobs
    (:data:`COST_KNOBS`) and those the spec fixes, over their declared ranges (the harness
    search's ``c`` over [0.05, 5]); a list of names; or a dict ``name -> (low, high)``.
    Refused by name before a game: an unknown knob, a range outside the declared one, a bot
    of another game, ``trials`` < 1, games that do not fill the layout. Same arguments, same
    result on any ``run``.
    """
    try:
        import optuna
    except ImportError:  # pragma: no cover - the balance extra is in the test extra
        raise ValueError("tune_bot needs Optuna: pip install 'ketharmad[balance]'") from None
    run = RunOptions.of(run)
    driver, decks, card_data, format, params, seats = game_setup("tune_bot", game, params, setup)
    trials_ = _check_whole("trials", trials, 1)
    seed_ = check_seed(seed)
    if driver.is_ketharmad:
        driver.refuse("tune_bot", {"seats": seats is not None})
        start = _check_bot_spec(bot, "bot", agents=False)
        opps = [_check_bot_spec(a, f"against[{i}]") for i, a in enumerate(against or [start])]
        text, params_ = apply_format(load_card_data(card_data), check_params(params), format)
        if format_info(text, params_).seats_min > 2:
            raise ValueError("tune_bot plays 2-player games: a 2-player format")
        pairings = _deck_pairs(decks, 2, "tune_bot")
        field = _Field(
            driver, opps, 2, pairings, params_, {"card_text": text}, 2 * len(pairings), seed_
        )
        kind = start if isinstance(start, str) else str(start["kind"])
        given = {} if isinstance(start, str) else {k: v for k, v in start.items() if k != "kind"}
        default_games = 480
        extra: dict[str, Any] = {"_info": None, "_card_text": text, "card_data": describe_card_data(card_data),
                                 "decks": pairings}  # fmt: skip
    else:
        from ..game.harness import harness_info

        driver.refuse("tune_bot", {"decks": decks is not None, "card_data": card_data is not None,
                                   "format": format is not None},
                      "bot, against, knobs, trials, games, params, seats, seed and run")  # fmt: skip
        info = harness_info(driver.name)
        start = check_bot_specs([bot], "bot")[0]
        opps = list(check_bot_specs(list(against or [start]), "against"))
        k = 2 if info["max_seats"] == 2 else _check_seats(info, seats)
        field = _Field(driver, opps, k, [], _params_of(params), {}, 2 if k == 2 else k, seed_)
        kind, _, opts = start.partition(":")
        given = dict(o.split("=", 1) for o in opts.split(",") if o)
        default_games = 200 if k == 2 else 50 * k
        extra = {"_info": info, "card_data": f"game {driver.name}", "decks": None}
    space = _space(kind, knobs, bots(driver.name), given)
    n = default_games if games is None else _check_whole("games", games, 1)
    if n % field.unit:
        raise ValueError(f"games must be a multiple of {field.unit} (the layout: {'2 seatings x deck pairings' if field.pairings else 'sides or seats'}), got {n}")  # fmt: skip
    holdout_n = CONFIRM * n
    driver.check_cells(
        [b for b, _ in field.blocks(start, 0, field.unit)], seed_, field.params, **field.setup
    )
    for name, (lo, hi) in space.items():  # one game of the extremes: a bad knob fails here
        for v in (lo, hi):
            probe = _spec_of(start, {name: v}, driver.is_ketharmad)
            driver.check_cells(
                [b for b, _ in field.blocks(probe, 0, field.unit)][:1],
                seed_,
                field.params,
                **field.setup,
            )

    def score(res: list[tuple[int, float]]) -> float:
        return sum(p / g for g, p in res) / len(res)

    played = 0
    rows: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(
        direction="maximize", sampler=optuna.samplers.TPESampler(seed=seed_, multivariate=True)
    )
    with executor_for(run.executor, run.cluster) as ex:
        for i in range(trials_):
            t = study.ask(
                {k: optuna.distributions.FloatDistribution(a, b) for k, (a, b) in space.items()}
            )
            cand = _spec_of(start, t.params, driver.is_ketharmad)
            res = field.play(cand, 0, n, run, ex)
            played += sum(g for g, _ in res)
            s = score(res)
            study.tell(t, s)
            rows.append(
                {
                    "trial": i,
                    **{k: float(v) for k, v in t.params.items()},
                    "score": s,
                    "bot": bot_label(cand),
                }
            )
        ranked = sorted(rows, key=lambda r: (-r["score"], r["trial"]))[:FINALISTS]
        finalists = [start] + [
            _spec_of(start, {k: r[k] for k in space}, driver.is_ketharmad) for r in ranked
        ]
        base = field.play(start, 0, n, run, ex)
        played += sum(g for g, _ in base)
        train = [score(base)] + [r["score"] for r in ranked]
        select = []
        for c in finalists:
            res = field.play(c, SELECT_OFFSET, 2 * n, run, ex)
            played += sum(g for g, _ in res)
            select.append(score(res))
        best_i = max(range(len(finalists)), key=lambda j: (select[j], -j))
        best = finalists[best_i]
        hold = field.play(best, HOLDOUT_OFFSET, holdout_n, run, ex)
        played += sum(g for g, _ in hold)
    even = 1.0 / field.seats if field.seats > 2 else 0.5
    hold_rows: list[dict[str, Any]] = []
    lows: list[Optional[float]] = []
    for opp, (g, p) in zip(opps, hold, strict=True):
        _rate, low, high = _wilson(int(round(p)), g)
        lows.append(low)
        hold_rows.append({"opponent": bot_label(opp), "games": g, "points": p, "score": p / g, "ci_low": low,
                          "ci_high": high, "even": even})  # fmt: skip
    holdout = pl.DataFrame(hold_rows)
    confirmed = best_i != 0 and all(x is not None and x > even for x in lows)
    return TuneResult(game=driver.name, best=best, start=start, knobs=space, against=opps,
                      trials=pl.DataFrame(rows), seed=seed_, params=field.params,
                      finalists=pl.DataFrame({"bot": [bot_label(c) for c in finalists], "train": train, "select": select}),
                      holdout=holdout, confirmed=confirmed, games_played=played, elapsed=time.perf_counter() - t0,
                      bots=[bot_label(best)], **extra)  # fmt: skip
