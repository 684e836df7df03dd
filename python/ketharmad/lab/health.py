"""``health(game=...)``: a game-health report a designer can trust, for every game on the
harness (issue 27 items 4 and 5; docs/health.md).

Three batches, all on the harness and seeded like :func:`ketharmad.simulate` (cell ``k`` of a
batch, a deck pairing or a seat of the strong bot, plays games ``k * per_cell ..`` of the
batch with seed ``seed`` (main), ``seed + 1`` (skill) or ``seed + 2`` (control): the games
``simulate`` plays from that first game; no two cells share a deal):

* the **main games**: the strongest bot of the ladder (``bots[-1]``) in every seat, played by
  the trajectory recorder (``_core.trajectories``, ``rust/harness/trajectory.rs``), which
  samples every seat's standing once per turn (the game's evaluation; Osztrakon: its
  position on the path). Start-seat advantage, length, draws, unfinished games, lead changes,
  drama, decisiveness and comebacks come from them; Kétharmad's are spread over every
  ordered pairing of the decks, whose matchup matrix gives the decks' Nash support;
* the **skill games**: the strongest bot in one seat, the weakest (``bots[0]``) in the others,
  the strong seat rotated; and the **control**: the weakest bot in every seat (the pure-luck
  control: uniform random play unless the ladder's weakest is another bot);
* ``game="coin_flip"`` is the pure-luck control (``rust/harness/luck.rs``): each seat in turn
  makes a choice that changes nothing, then a fair coin gives it a point or not; the most
  points after 20 rounds (every seat flips 20 times) wins, ties drawn by lot;
* Kétharmad only: :func:`ketharmad.diagnose`'s restricted-play deltas (each card made
  unplayable for its faction's seat), with a small budget, flagged must-play and dead.

Every metric has a value, a 95 % interval (``wilson``: the Wilson score interval of a share;
``bootstrap``: 2.5 and 97.5 percentiles of 400 resamples of the games, or of the cells for
the Nash support) and a one-line meaning.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Optional, Union, cast

import numpy as np
import polars as pl

from .. import _core
from ..game.data import describe_card_data, load_card_data
from ..game.spec import spec_of
from ..game.validate import check_int
from ..results.html_charts import interval_bars
from ..results.lab_report import _figure, _save, md_table
from ..run.options import RunArg, RunOptions
from ..stats import wilson_interval
from .cycles import split_cycles
from .diagnose import diagnose
from .harness import GameLabResult

__all__ = ["health", "HealthResult", "DEFAULT_BOTS", "METRIC_COLUMNS", "MUST_PLAY", "DEAD_BAND"]

#: The ladder per game when ``bots`` is not given: weakest first (the control's bot), the
#: main games' bot last.
DEFAULT_BOTS: dict[str, list[str]] = {
    "ketharmad": ["random", "heuristic"],
    "schotten_totten_2": ["random", "greedy"],
    "osztrakon": ["random", "b1"],
    "coin_flip": ["random", "search:iterations=50"],
}
#: Seats per game when ``seats`` is not given.
#: The health games that are on the games table (coin_flip, the control, is not).
_GAMES_WITH_SPEC = ("ketharmad", "schotten_totten_2", "osztrakon")
DEFAULT_SEATS = {"ketharmad": 2, "schotten_totten_2": 2, "osztrakon": 5, "coin_flip": 2}
#: The columns of ``.metrics``.
METRIC_COLUMNS = ("metric", "value", "lo", "hi", "interval", "unit", "games", "meaning")
#: A card is must-play when banning it costs its faction at least this much win rate (point
#: estimate) and the whole interval is below zero.
MUST_PLAY = 0.03
#: A card is dead when, with 95 % confidence, banning it costs its faction less than this.
DEAD_BAND = 0.02
#: Bootstrap resamples.
BOOT = 400
#: A deck is in the Nash support when its weight is above this.
SUPPORT_WEIGHT = 0.02


def is_ketharmad(game: str) -> bool:
    """Whether ``game`` (a checked health game) is Kétharmad, through its game spec
    (``coin_flip``, the luck control, has none)."""
    return game in _GAMES_WITH_SPEC and spec_of(game).is_ketharmad


def _check_game(game: object) -> str:
    if not isinstance(game, str) or game not in DEFAULT_BOTS:
        raise ValueError(f"health: unknown game {game!r} (known: {', '.join(DEFAULT_BOTS)})")
    return game


def _check_bots(game: str, bots: object) -> list[str]:
    if bots is None:
        return list(DEFAULT_BOTS[game])
    if isinstance(bots, str):
        bots = [bots]
    if not isinstance(bots, Sequence) or not bots or not all(isinstance(b, str) for b in bots):
        raise ValueError(
            f"health: bots must be a bot spec or a list of them, weakest first, got {bots!r}"
        )
    names = list(bots)  # the core checks the names (a ValueError naming a bad one)
    if len(names) > 2:
        raise ValueError(
            f"health: bots takes the weakest and the strongest bot, got {len(names)}: {names!r}"
        )
    return names if len(names) > 1 else [DEFAULT_BOTS[game][0], names[0]]


# ------------------------------------------------------------------ intervals


def _wilson_row(
    name: str, k: int, n: int, meaning: str, shift: float = 0.0, scale: float = 1.0
) -> dict[str, Any]:
    """A share k/n (mapped as (p - shift) / scale) with its Wilson interval."""
    if n == 0:
        return _row(name, math.nan, math.nan, math.nan, "wilson", "share", 0, meaning)
    lo, hi = wilson_interval(k, n)
    f = lambda p: (p - shift) / scale  # noqa: E731
    return _row(name, f(k / n), f(lo), f(hi), "wilson", "share", n, meaning)


def _row(
    name: str, v: float, lo: float, hi: float, how: str, unit: str, n: int, meaning: str
) -> dict[str, Any]:
    return {"metric": name, "value": float(v), "lo": float(lo), "hi": float(hi), "interval": how,
            "unit": unit, "games": int(n), "meaning": meaning}  # fmt: skip


def _boot(values: np.ndarray, stat: Any, rng: np.random.Generator) -> tuple[float, float, float]:
    """``stat`` of ``values`` and the 2.5 / 97.5 percentiles of ``BOOT`` resamples of them."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    v = float(stat(values))
    reps = np.empty(BOOT)
    chunk = max(1, min(BOOT, 4_000_000 // n))
    for i in range(0, BOOT, chunk):
        m = min(chunk, BOOT - i)
        idx = rng.integers(0, n, size=(m, n))
        reps[i : i + m] = (
            stat(values[idx], axis=1) if stat is not np.median else np.median(values[idx], axis=1)
        )
    lo, hi = np.percentile(reps, [2.5, 97.5])
    return v, float(min(lo, v)), float(max(hi, v))


def _iqr(x: np.ndarray, axis: Optional[int] = None) -> Any:
    q = np.percentile(x, [25, 75], axis=-1 if axis is not None else None)
    return q[1] - q[0]


# ------------------------------------------------------------------ trajectories


def _trajectory_stats(t: dict[str, Any]) -> dict[str, np.ndarray]:
    """Per game: decided (one winner), winner, lead changes, dramatic, depth (the winner's
    worst deficit), decided_at (the last clock at which the winner was not the sole leader,
    over the game's turns), halftime leader and the winner's margin there; NaN where a game
    has no samples or no single winner."""
    g = t["games"]
    n_games = len(g["turns"])
    seats = int(t["seats"])
    mask = g["winners_mask"].astype(np.uint64)
    single = (mask != 0) & ((mask & (mask - np.uint64(1))) == 0)
    winner = np.where(single, np.log2(np.maximum(mask, 1).astype(np.float64)).astype(np.int64), -1)
    turns = g["turns"].astype(np.float64)
    rows = t["samples"]["row"].astype(np.int64)
    clock = t["samples"]["clock"].astype(np.float64)
    out = {
        k: np.full(n_games, np.nan)
        for k in ("changes", "drama", "depth", "decided_at", "half_margin", "half_leader")
    }
    out["decided"] = single
    out["winner"] = winner
    if not len(rows):
        return out
    v = t["value"].reshape(-1, seats).astype(np.float64)
    top = v.max(axis=1)
    sole = (v == top[:, None]).sum(axis=1) == 1
    leader = np.where(sole, v.argmax(axis=1), -1)
    w = winner[rows]
    ok = w >= 0
    ar = np.arange(len(rows))
    others = v.copy()
    others[ar, np.maximum(w, 0)] = -np.inf
    margin = v[ar, np.maximum(w, 0)] - others.max(axis=1)
    has = np.bincount(rows, minlength=n_games) > 0
    dec = single & has
    # lead changes: between consecutive samples with a sole leader, then to the winner at the end
    lr, ll = rows[leader >= 0], leader[leader >= 0]
    same = lr[1:] == lr[:-1]
    changes = np.bincount(lr[1:][same & (ll[1:] != ll[:-1])], minlength=n_games).astype(np.float64)
    last = (
        np.flatnonzero(np.r_[lr[1:] != lr[:-1], True]) if len(lr) else np.array([], dtype=np.int64)
    )
    last_leader = np.full(n_games, -1)
    last_leader[lr[last]] = ll[last]
    changes += (last_leader >= 0) & (last_leader != winner) & single
    out["changes"] = np.where(dec, changes, np.nan)
    # drama: the winner behind at some sample, and by how much at worst
    worst = np.full(n_games, np.inf)
    np.minimum.at(worst, rows[ok], margin[ok])
    out["drama"] = np.where(dec, (worst < 0).astype(np.float64), np.nan)
    out["depth"] = np.where(dec & (worst < 0), -worst, np.nan)
    # decisiveness: the last clock at which the winner was not the sole leader, over the turns
    bad = ok & (leader != w)
    last_bad = np.zeros(n_games)
    np.maximum.at(last_bad, rows[bad], clock[bad])
    out["decided_at"] = np.where(dec, np.clip(last_bad / np.maximum(turns, 1), 0, 1), np.nan)
    # halftime: the first sample at or past half the game's turns
    past = clock >= turns[rows] / 2
    hr = rows[past]
    first = (
        np.flatnonzero(np.r_[True, hr[1:] != hr[:-1]]) if len(hr) else np.array([], dtype=np.int64)
    )
    idx = np.flatnonzero(past)[first]
    hm = np.full(n_games, np.nan)
    hl = np.full(n_games, np.nan)
    hm[rows[idx]] = margin[idx]
    hl[rows[idx]] = leader[idx]
    out["half_margin"] = np.where(dec, hm, np.nan)
    out["half_leader"] = np.where(dec, hl, np.nan)
    # the winner's share of sole leads by tenth of the game (the report's plot)
    frac = np.clip(clock / np.maximum(turns[rows], 1), 0, 0.999)
    tenth = (frac * 10).astype(np.int64)
    okd = dec[rows]
    out["tenth_n"] = np.bincount(tenth[okd], minlength=10).astype(np.float64)
    out["tenth_k"] = np.bincount(tenth[okd & (leader == w)], minlength=10).astype(np.float64)
    return out


def _concat(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The trajectories of several cells as one (rows renumbered)."""
    if len(parts) == 1:
        return parts[0]
    games = {k: np.concatenate([p["games"][k] for p in parts]) for k in parts[0]["games"]}
    offs = np.cumsum([0] + [len(p["games"]["turns"]) for p in parts[:-1]])
    rows = np.concatenate(
        [p["samples"]["row"].astype(np.int64) + o for p, o in zip(parts, offs, strict=True)]
    )
    clock = np.concatenate([p["samples"]["clock"] for p in parts])
    value = np.concatenate([p["value"] for p in parts])
    return {"games": games, "samples": {"row": rows, "clock": clock}, "value": value,
            "seats": parts[0]["seats"], "source": parts[0]["source"]}  # fmt: skip


# ------------------------------------------------------------------ Nash support


def nash(payoff: np.ndarray, iterations: int = 4000) -> np.ndarray:
    """The row player's equilibrium mix of the symmetric zero-sum game ``payoff`` (row's
    gain; antisymmetric up to noise) by fictitious play: each round both players answer the
    other's empirical mix; returns the row player's average mix."""
    k = payoff.shape[0]
    counts_r = np.zeros(k)
    counts_c = np.zeros(k)
    counts_r[0] = counts_c[0] = 1.0
    for _ in range(iterations):
        counts_r[int(np.argmax(payoff @ (counts_c / counts_c.sum())))] += 1
        counts_c[int(np.argmin((counts_r / counts_r.sum()) @ payoff))] += 1
    return counts_r / counts_r.sum()


def _nash_table(
    decks: list[str], wins: np.ndarray, games: np.ndarray, rng: np.random.Generator
) -> tuple[pl.DataFrame, dict[str, Any]]:
    """Each deck's Nash weight over the matchup matrix (row deck's win rate against the
    column deck, both seatings pooled; the diagonal 1/2), with how often it is in the support
    over parametric resamples of the cells (binomial with the cell's games)."""
    k = len(decks)
    p = np.where(games > 0, wins / np.maximum(games, 1), 0.5)
    np.fill_diagonal(p, 0.5)
    w = nash(p - 0.5)
    cyc = split_cycles(p)
    sizes, shares, floors = [], [], []
    inside = np.zeros(k)
    reps = 100
    for _ in range(reps):
        pr = np.where(
            games > 0, rng.binomial(games.astype(np.int64), p) / np.maximum(games, 1), 0.5
        )
        np.fill_diagonal(pr, 0.5)
        wr = nash(pr - 0.5, 1500)
        s = wr > SUPPORT_WEIGHT
        inside += s
        sizes.append(int(s.sum()))
        cr = split_cycles(pr)
        shares.append(cr.cyclic_share)
        floors.append(cr.floor)
    table = pl.DataFrame({"deck": decks, "nash_weight": w, "in_support": w > SUPPORT_WEIGHT,
                          "support_share": inside / reps,
                          "mean_win_rate": [float(np.mean([p[i, j] for j in range(k) if j != i])) for i in range(k)],
                          "strength_pts": cyc.strength})  # fmt: skip
    support = int((w > SUPPORT_WEIGHT).sum())

    def around(value: float, draws: Sequence[float]) -> dict[str, float]:
        lo, hi = np.percentile(draws, [2.5, 97.5])
        return {"value": value, "lo": min(float(lo), value), "hi": max(float(hi), value)}

    return table, {
        "nash_support": around(support, sizes),
        "cyclic_share": around(cyc.cyclic_share, shares),
        "cycle_floor": around(cyc.floor, floors),
    }


# ------------------------------------------------------------------ decks across the ladder


def _newcombe(
    a: float, a_lo: float, a_hi: float, b: float, b_lo: float, b_hi: float
) -> tuple[float, float]:
    """Newcombe's 95 % interval of ``a - b``, two independent shares, from their Wilson
    intervals."""
    return (
        a - b - math.sqrt((a - a_lo) ** 2 + (b_hi - b) ** 2),
        a - b + math.sqrt((a_hi - a) ** 2 + (b - b_lo) ** 2),
    )


def _decks_table(
    decks: list[str],
    main_k: np.ndarray,
    main_n: np.ndarray,
    by_deck: Mapping[str, np.ndarray],
    weak: str,
    strong: str,
    n: int,
    rng: np.random.Generator,
) -> tuple[pl.DataFrame, list[dict[str, Any]]]:
    """Each deck under the two ends of the ladder: its win rate with the weakest bot in every
    seat (the control games), with the strongest in every seat (the main games), the shift
    between them, and the strongest bot's win rate with that deck against the weakest (the
    skill games) with its uplift: that win rate minus the deck's in the weak mirror (the same
    opponents, played by the weakest bot, so the deck's own strength cancels). A deck whose
    win rate shifts with the players' skill is balanced for one rung and not for another: no
    card edit that acts alike under both rungs can make both fair. Two metrics summarise it:
    the largest shift and the spread of the uplifts, each with a parametric-bootstrap
    interval (the largest of several estimates, so both lean high)."""
    cols: dict[str, list[Any]] = {k: [] for k in (
        "deck", "weak_win_rate", "weak_lo", "weak_hi", "weak_games",
        "strong_win_rate", "strong_lo", "strong_hi", "strong_games",
        "shift", "shift_lo", "shift_hi",
        "skill_win_rate", "skill_lo", "skill_hi", "skill_games", "uplift", "uplift_lo", "uplift_hi")}  # fmt: skip
    sk = np.array([by_deck[d][0] for d in decks])
    sn = np.array([by_deck[d][1] for d in decks])
    ck = np.array([by_deck[d][2] for d in decks])
    cn = np.array([by_deck[d][3] for d in decks])
    for i, d in enumerate(decks):
        pw, ps = ck[i] / max(1, cn[i]), main_k[i] / max(1, main_n[i])
        wl, wh = wilson_interval(int(ck[i]), int(max(1, cn[i])))
        sl, sh = wilson_interval(int(main_k[i]), int(max(1, main_n[i])))
        dlo, dhi = _newcombe(ps, sl, sh, pw, wl, wh)
        pk = sk[i] / max(1, sn[i])
        kl, kh = wilson_interval(int(sk[i]), int(max(1, sn[i])))
        ulo, uhi = _newcombe(pk, kl, kh, pw, wl, wh)
        for key, v in (("deck", d), ("weak_win_rate", pw), ("weak_lo", wl), ("weak_hi", wh),
                       ("weak_games", int(cn[i])), ("strong_win_rate", ps), ("strong_lo", sl),
                       ("strong_hi", sh), ("strong_games", int(main_n[i])), ("shift", ps - pw),
                       ("shift_lo", dlo), ("shift_hi", dhi), ("skill_win_rate", pk), ("skill_lo", kl),
                       ("skill_hi", kh), ("skill_games", int(sn[i])), ("uplift", pk - pw), ("uplift_lo", ulo),
                       ("uplift_hi", uhi)):  # fmt: skip
            cols[key].append(v)
    table = pl.DataFrame(cols)
    shift = table["shift"].to_numpy()
    uplift = table["uplift"].to_numpy()

    def draw(k: np.ndarray, m: np.ndarray) -> np.ndarray:
        """Parametric resamples of counts ``k`` of ``m`` games (binomial)."""
        return rng.binomial(np.maximum(m, 0), k / np.maximum(m, 1), size=(BOOT, len(decks)))

    s_weak = draw(ck, cn) / np.maximum(cn, 1)
    s_shift = draw(main_k, main_n) / np.maximum(main_n, 1) - s_weak
    s_uplift = draw(sk, sn) / np.maximum(sn, 1) - s_weak
    top = int(np.argmax(np.abs(shift)))
    rep_max = np.abs(s_shift).max(axis=1)
    rep_spread = s_uplift.max(axis=1) - s_uplift.min(axis=1)
    v_max, v_spread = float(abs(shift[top])), float(uplift.max() - uplift.min())
    lo1, hi1 = np.percentile(rep_max, [2.5, 97.5])
    lo2, hi2 = np.percentile(rep_spread, [2.5, 97.5])
    games = int(main_n.sum() + cn.sum())
    rows = [
        _row("deck_shift_max", v_max, min(lo1, v_max), max(hi1, v_max), "bootstrap", "share", games,
             f"the largest change of a deck's win rate from {weak} to {strong} in every seat "
             f"({decks[top]} {shift[top]:+.3f}): balance under one bot is not balance under the other"),
        _row("skill_uplift_spread", v_spread, min(lo2, v_spread), max(hi2, v_spread), "bootstrap", "share",
             int(sn.sum() + cn.sum()), f"max minus min over the decks of the win rate {strong} adds to a deck "
             f"against {weak} (0: skill pays alike with every deck)"),
    ]  # fmt: skip
    return table, rows


# ------------------------------------------------------------------ the report


def health(
    game: str = "ketharmad",
    *,
    bots: Union[None, str, Sequence[str]] = None,
    games: int = 2_000,
    seed: int = 0,
    decks: Optional[Sequence[str]] = None,
    seats: Optional[int] = None,
    params: Optional[Mapping[str, Union[int, float, bool, str]]] = None,
    card_data: Optional[str] = None,
    restricted: int = 100,
    run: RunArg = None,
) -> HealthResult:
    """The game-health report of ``game`` (``"ketharmad"``, ``"schotten_totten_2"``,
    ``"osztrakon"``, or ``"coin_flip"``, the pure-luck control): at least 12 metrics, each with a value, a 95 % interval and a one-line
    meaning (``.metrics``; docs/health.md defines each).

    ``bots``: the ladder, weakest first (default :data:`DEFAULT_BOTS`: ``random`` then the
    game's rule-based bot); the main games play the last in every seat, the skill games the
    last against the first, the control the first in every seat. ``games``: games of each of
    the three batches (Kétharmad: spread over the ordered pairings of ``decks``, default all
    four factions, 2 players). ``seats``: the seat count (default 2; Osztrakon 5). ``params``
    and ``card_data`` (Kétharmad: a card file or ``"balanced"``) as for
    :func:`ketharmad.simulate`. ``restricted``: Kétharmad's restricted-play games per pairing
    per card (:func:`ketharmad.diagnose`; 0 leaves the card table out). ``run``: a
    :class:`ketharmad.RunOptions` (``threads``); the tables are the same on any thread count.

    Bad game or bot names are a ValueError naming them.
    """
    game_ = _check_game(game)
    ladder = _check_bots(game_, bots)
    games_ = check_int("games", games, 1)
    restricted_ = check_int("restricted", restricted, 0)
    n = check_int("seats", DEFAULT_SEATS[game_] if seats is None else seats, 2)
    threads = RunOptions.of(run).threads
    rng = np.random.default_rng(check_int("seed", seed, 0))
    start = time.perf_counter()
    weak, strong = ladder[0], ladder[-1]
    kw: dict[str, Any] = {"threads": threads}
    cells: list[dict[str, Any]] = [{}]
    deck_names: list[str] = []
    card_text = ""
    if is_ketharmad(game_):
        if n != 2:
            raise ValueError(
                f"health: Kétharmad is measured at 2 seats (the deck matrix), got seats={n}"
            )
        deck_names = list(_core.FACTIONS) if decks is None else [str(d) for d in decks]
        bad = [d for d in deck_names if d not in _core.FACTIONS]
        if bad or len(deck_names) < 2 or len(set(deck_names)) != len(deck_names):
            raise ValueError(
                f"health: decks must be two or more different ones of {', '.join(_core.FACTIONS)}, got {deck_names!r}"
            )
        card_text = load_card_data(card_data)
        kw.update(card_data=card_text, params=dict(params) if params else None)
        cells = [{"decks": [a, b]} for a in deck_names for b in deck_names if a != b]
    else:
        if decks is not None or card_data is not None:
            raise ValueError(f"health: decks and card_data are Kétharmad's, not {game_}'s")
        kw["params"] = dict(params) if params else None
    per_cell = max(1, games_ // len(cells))

    # 1. the main games with their trajectories
    # every cell (a deck pairing) plays its own games of the batch: cells share no deal, so
    # their outcomes are independent and the intervals' sample sizes are honest
    parts = [_core.trajectories(game_, [strong] * n, per_cell, seed, first_game=i * per_cell, **kw, **c)
             for i, c in enumerate(cells)]  # fmt: skip
    traj = _concat(parts)
    # 2. skill and control: the strong (weak) bot in seat r, the weak bot elsewhere, deals apart
    per_rot = max(1, per_cell // n)
    skill_k = skill_n = ctrl_k = ctrl_n = 0
    # Kétharmad: the same counts per deck the counted seat played (the decks table)
    by_deck = {d: np.zeros(4, dtype=np.int64) for d in deck_names}  # skill k, n; control k, n
    for i, c in enumerate(cells):
        for r in range(n):
            for agent, is_ctrl in ((strong, False), (weak, True)):
                agents = [weak] * n
                agents[r] = agent
                st = _core.trajectories(game_, agents, per_rot, seed + 1 + is_ctrl,
                                       first_game=(i * n + r) * per_rot, **kw, **c)  # fmt: skip
                won = int(((st["games"]["winners_mask"] >> np.uint64(r)) & np.uint64(1)).sum())
                if is_ctrl:
                    ctrl_k, ctrl_n = ctrl_k + won, ctrl_n + per_rot
                else:
                    skill_k, skill_n = skill_k + won, skill_n + per_rot
                if deck_names:
                    by_deck[c["decks"][r]][2 * is_ctrl : 2 * is_ctrl + 2] += (won, per_rot)

    rows: list[dict[str, Any]] = []
    g = traj["games"]
    total = len(g["turns"])
    mask = g["winners_mask"].astype(np.uint64)
    start_won = int(((mask >> g["start"].astype(np.uint64)) & np.uint64(1)).astype(bool).sum())
    rows.append(_wilson_row("first_player_advantage", start_won, total,
                            f"the start seat's win rate minus 1/{n} (0: no advantage)", shift=1 / n))  # fmt: skip
    turns = g["turns"].astype(np.float64)
    v, lo, hi = _boot(turns, np.median, rng)
    rows.append(
        _row(
            "game_length_median",
            v,
            lo,
            hi,
            "bootstrap",
            "turns",
            total,
            "median game length in the game's turns",
        )
    )
    v, lo, hi = _boot(turns, _iqr, rng)
    rows.append(
        _row(
            "game_length_iqr",
            v,
            lo,
            hi,
            "bootstrap",
            "turns",
            total,
            "spread of game length: 75th minus 25th percentile",
        )
    )
    ts = _trajectory_stats(traj)
    unit = "evaluation" if traj["source"] == "evaluation" else "position"
    for name, key, unit_, meaning in (
        (
            "lead_changes",
            "changes",
            "per game",
            "times per decided game the sole leader changes (the winner's win at the end counts)",
        ),
        (
            "drama_depth",
            "depth",
            unit,
            "in dramatic games, how far behind the eventual winner was at worst",
        ),
        (
            "decisiveness",
            "decided_at",
            "of game",
            "when the winner took the lead for good, as a share of the game (low: decided early)",
        ),
    ):
        x = ts[key][~np.isnan(ts[key])]
        v, lo, hi = _boot(x, np.mean, rng)
        rows.append(_row(name, v, lo, hi, "bootstrap", unit_, len(x), meaning))
    dr = ts["drama"][~np.isnan(ts["drama"])]
    rows.insert(
        4,
        _wilson_row(
            "drama",
            int(dr.sum()),
            len(dr),
            "share of decided games the eventual winner was behind at some turn",
        ),
    )
    hm = ts["half_margin"][~np.isnan(ts["half_margin"])]
    rows.append(_wilson_row("comeback_rate", int((hm < 0).sum()), len(hm),
                            "share of decided games the winner was behind at half-time"))  # fmt: skip
    hl, hw = ts["half_leader"], ts["winner"]
    has = ~np.isnan(hl) & (hl >= 0)
    rows.append(_wilson_row("halftime_leader_wins", int((hl[has] == hw[has]).sum()), int(has.sum()),
                            "share of games with a sole leader at half-time that this leader wins"))  # fmt: skip
    sk = _wilson_row("skill_share", skill_k, skill_n,
                     f"{strong} against {weak}: share of games decided by skill, (p - 1/{n}) / (1 - 1/{n}) of its win rate p",
                     shift=1 / n, scale=1 - 1 / n)  # fmt: skip
    ct = _wilson_row("skill_share_control", ctrl_k, ctrl_n,
                     f"the same with {weak} in every seat: the pure-luck control (0 up to noise)", shift=1 / n, scale=1 - 1 / n)  # fmt: skip
    rows += [sk, ct]
    elo = lambda p: 400 * math.log10(max(1e-9, p * (n - 1)) / max(1e-9, 1 - p))  # noqa: E731
    p, (plo, phi) = skill_k / max(1, skill_n), wilson_interval(skill_k, max(1, skill_n))
    rows.append(_row("skill_gap_elo", elo(p), elo(plo), elo(phi), "wilson", "Elo", skill_n,
                     f"rating gap of {strong} over {weak} (Bradley-Terry, one against {n - 1})"))  # fmt: skip
    draws = int(((mask == 0) & ~g["unfinished"]).sum())
    rows.append(
        _wilson_row("draw_rate", draws, total, "share of games that ended without a winner")
    )
    rows.append(
        _wilson_row(
            "unfinished_rate",
            int(g["unfinished"].sum()),
            total,
            "share of games stopped at a safety cap",
        )
    )

    nash_table = decks_table = pl.DataFrame()
    if deck_names:
        k = len(deck_names)
        wins = np.zeros((k, k))
        played = np.zeros((k, k))
        main_k = np.zeros(k, dtype=np.int64)  # the main games each deck won (the decks table)
        for c, part in zip(cells, parts, strict=True):
            a, b = (deck_names.index(d) for d in c["decks"])
            m = part["games"]["winners_mask"]
            bits = m.astype(np.uint64)
            main_k[a] += int((bits & np.uint64(1)).astype(bool).sum())
            main_k[b] += int((bits & np.uint64(2)).astype(bool).sum())
            # a game without a winner is half a win for each deck, so the matrix stays zero-sum
            half = 0.5 * int((m == 0).sum())
            wins[a, b] += int((m == 1).sum()) + half
            wins[b, a] += int((m == 2).sum()) + half
            played[a, b] += len(m)
            played[b, a] += len(m)
        nash_table, nt = _nash_table(deck_names, wins, played, rng)
        ns, cs, cf = nt["nash_support"], nt["cyclic_share"], nt["cycle_floor"]
        rows.append(_row("nash_support", ns["value"], ns["lo"], ns["hi"], "bootstrap", "decks", total,
                         f"decks with weight in the Nash mix of the deck matchup matrix (of {k}; 1: one dominant deck)"))  # fmt: skip
        rows.append(_row("cyclic_share", cs["value"], cs["lo"], cs["hi"], "bootstrap", "share", total,
                         "share of the deck matchups' imbalance that is rock-paper-scissors, not deck strength (0: all strength)"))  # fmt: skip
        rows.append(_row("cycle_floor", cf["value"], cf["lo"], cf["hi"], "bootstrap", "points", total,
                         "smallest worst pair deviation from 50 % that changing deck strengths alone can reach"))  # fmt: skip
        main_n = played.sum(axis=1).astype(np.int64)
        decks_table, deck_rows = _decks_table(
            deck_names, main_k, main_n, by_deck, weak, strong, n, rng
        )
        rows += deck_rows

    cards = pl.DataFrame()
    diag_games = 0
    if deck_names and restricted_:
        d = diagnose(deck_names, bots=strong, games=restricted_, seed=seed, params=cast(Any, params),
                     restricted=restricted_, run={"threads": threads}, card_data=card_data)  # fmt: skip
        diag_games = d.n_games
        cards = (
            d.suspects.filter(pl.col("restricted_delta").is_not_null())
            .select(
                "faction",
                "card",
                "name",
                "restricted_delta",
                "restricted_ci_low",
                "restricted_ci_high",
                "restricted_games",
            )
            .with_columns(
                must_play=(pl.col("restricted_ci_high") < 0)
                & (pl.col("restricted_delta") <= -MUST_PLAY),
                dead=pl.col("restricted_ci_low") > -DEAD_BAND,
            )
            .sort("restricted_delta")
        )
        delta = cards["restricted_delta"].to_numpy()
        se = (cards["restricted_ci_high"].to_numpy() - cards["restricted_ci_low"].to_numpy()) / (
            2 * 1.959963984540054
        )
        sim = rng.normal(delta, se, size=(BOOT, len(delta)))
        lo_sim, hi_sim = sim - 1.959963984540054 * se, sim + 1.959963984540054 * se
        for name, flag, col, meaning in (
            (
                "must_play_cards",
                (hi_sim < 0) & (sim <= -MUST_PLAY),
                "must_play",
                f"cards whose ban costs their faction {MUST_PLAY:.0%}+ win rate, interval below 0 (restricted play)",
            ),
            (
                "dead_cards",
                lo_sim > -DEAD_BAND,
                "dead",
                f"cards whose ban costs their faction under {DEAD_BAND:.0%} with 95 % confidence (restricted play)",
            ),
        ):
            counts = flag.sum(axis=1)
            v = float(cards[col].sum())
            lo, hi = np.percentile(counts, [2.5, 97.5])
            rows.append(
                _row(
                    name,
                    v,
                    min(lo, v),
                    max(hi, v),
                    "bootstrap",
                    "cards",
                    int(cast(Any, cards["restricted_games"].max())),
                    meaning,
                )
            )
        worst = cards.row(0, named=True)
        rows.append(_row("max_restricted_delta", -worst["restricted_delta"], -worst["restricted_ci_high"], -worst["restricted_ci_low"],
                         "paired", "share", int(worst["restricted_games"]),
                         f"the largest win-rate loss of a faction when one card is banned ({worst['card']})"))  # fmt: skip

    metrics = pl.DataFrame(rows, schema={"metric": pl.String, "value": pl.Float64, "lo": pl.Float64, "hi": pl.Float64,
                                         "interval": pl.String, "unit": pl.String, "games": pl.Int64, "meaning": pl.String})  # fmt: skip
    curve = pl.DataFrame({"tenth": np.arange(10), "games": ts.get("tenth_n", np.zeros(10)),
                          "winner_leads": ts.get("tenth_k", np.zeros(10))}).with_columns(
        share=pl.col("winner_leads") / pl.col("games"))  # fmt: skip
    return HealthResult(
        metrics, {"cards": cards, "nash": nash_table, "curve": curve, "decks": decks_table}, card_text,
        run=dict(game=game_, bots=ladder, seed=seed, seats=n, params=dict(params or {}),
                 n_games=total + skill_n + ctrl_n + diag_games,
                 card_data=describe_card_data(card_data) if is_ketharmad(game_) else game_,
                 source=str(traj["source"]), elapsed=time.perf_counter() - start),
    )  # fmt: skip


class HealthResult(GameLabResult):
    """The result of :func:`ketharmad.health`: ``.metrics`` (one row per metric:
    :data:`METRIC_COLUMNS`), ``.cards`` (Kétharmad: restricted play per card with its
    must-play and dead flags), ``.nash`` (Kétharmad: each deck's Nash weight), ``.decks``
    (Kétharmad: each deck's win rate under the weakest and the strongest bot, the shift and the
    strongest bot's win rate with it against the weakest) and ``.curve``
    (the share of sampled turns the eventual winner leads, per tenth of the game)."""

    kind = "health"

    def __init__(
        self, metrics: pl.DataFrame, tables: Mapping[str, pl.DataFrame], card_text: str, *,
        run: Mapping[str, Any],
    ) -> None:  # fmt: skip
        self.metrics = metrics
        self.cards, self.nash, self.curve = tables["cards"], tables["nash"], tables["curve"]
        self.decks = tables.get("decks", pl.DataFrame())
        self._card_text = card_text
        self.game: str = run["game"]
        self.bots: list[str] = run["bots"]
        self.seed: int = run["seed"]
        self.seats: int = run["seats"]
        self.params: dict[str, Any] = run["params"]
        self.n_games: int = run["n_games"]
        self.card_data: str = run["card_data"]
        self.source: str = run["source"]
        self.elapsed: float = run["elapsed"]
        self.sides: list[str] = []
        self._info = None if is_ketharmad(self.game) else {"name": self.game, "parameters": []}

    def tables(self) -> dict[str, pl.DataFrame]:
        t = {"metrics": self.metrics, "curve": self.curve}
        if self.cards.height:
            t["cards"] = self.cards
        if self.nash.height:
            t["nash"] = self.nash
        if self.decks.height:
            t["decks"] = self.decks
        return t

    def metric(self, name: str) -> dict[str, Any]:
        """One metric's row as a dict (a ValueError names an unknown metric)."""
        r = self.metrics.filter(pl.col("metric") == name)
        if not r.height:
            raise ValueError(f"no metric {name!r} (known: {', '.join(self.metrics['metric'])})")
        return r.row(0, named=True)

    def text(self) -> str:
        lines = [f"game health: {self.game}, bots {self.bots} (weakest first), {self.seats} seats, "
                 f"seed {self.seed}, {self.n_games:,} games, {self.elapsed:.1f} s"]  # fmt: skip
        for r in self.metrics.iter_rows(named=True):
            lines.append(
                f"  {r['metric']:<24} {_fmt(r['value'])} [{_fmt(r['lo'])}, {_fmt(r['hi'])}]  {r['meaning']}"
            )
        return "\n".join(lines)

    def _markdown(self, folder: Optional[Path], plots: bool) -> list[str]:
        lines = [f"# Game health: {self.game}", "",
                 f"* bots (weakest first): `{self.bots}`; seats {self.seats}; seed {self.seed}; "
                 f"games {self.n_games:,}; trajectory values: {self.source}",
                 f"* parameter overrides: `{self.params}`; wall time {self.elapsed:.1f} s", "",
                 md_table(["metric", "value", "95 % interval", "interval", "unit", "meaning"],
                          [[r["metric"], _fmt(r["value"]), f"[{_fmt(r['lo'])}, {_fmt(r['hi'])}]", r["interval"],
                            r["unit"], r["meaning"]] for r in self.metrics.iter_rows(named=True)],
                          [False, True, True, False, False, False])]  # fmt: skip
        if plots and folder is not None:
            for p in self.plots(folder):
                lines += ["", f"![{p.stem}]({p.name})"]
        if self.nash.height:
            lines += ["", "## Decks: Nash support", "",
                      md_table(["deck", "Nash weight", "in support", "support share (resamples)", "mean win rate"],
                               [[r["deck"], f"{r['nash_weight']:.3f}", r["in_support"], f"{r['support_share']:.2f}",
                                 f"{r['mean_win_rate']:.3f}"] for r in self.nash.iter_rows(named=True)])]  # fmt: skip
        if self.decks.height:
            w, s_ = self.bots[0], self.bots[-1]
            iv = lambda r, k: f"{r[k + '_win_rate']:.3f} [{r[k + '_lo']:.3f}, {r[k + '_hi']:.3f}]"  # noqa: E731
            dv = lambda r, k: f"{r[k]:+.3f} [{r[k + '_lo']:+.3f}, {r[k + '_hi']:+.3f}]"  # noqa: E731
            lines += ["", "## Decks across the ladder", "",
                      f"Each deck's win rate with `{w}` in every seat, with `{s_}` in every seat, the shift, "
                      f"`{s_}`'s win rate with the deck against `{w}`, and the uplift: that minus the "
                      f"deck's `{w}` mirror (95 % intervals).", "",
                      md_table(["deck", f"{w} mirror", f"{s_} mirror", "shift", f"{s_} vs {w}", "uplift"],
                               [[r["deck"], iv(r, "weak"), iv(r, "strong"), dv(r, "shift"), iv(r, "skill"),
                                 dv(r, "uplift")] for r in self.decks.iter_rows(named=True)])]  # fmt: skip
        if self.cards.height:
            flagged = self.cards.filter(pl.col("must_play") | pl.col("dead"))
            lines += ["", "## Cards: restricted play (flagged cards)", "",
                      md_table(["faction", "card", "delta", "95 % interval", "must-play", "dead"],
                               [[r["faction"], r["card"], f"{r['restricted_delta']:+.3f}",
                                 f"[{r['restricted_ci_low']:+.3f}, {r['restricted_ci_high']:+.3f}]",
                                 r["must_play"], r["dead"]] for r in flagged.iter_rows(named=True)])]  # fmt: skip
        return lines

    def plots(self, folder: Union[str, Any]) -> list[Path]:
        root = Path(folder)
        root.mkdir(parents=True, exist_ok=True)
        fig = _figure(6.0, 3.2)
        ax = fig.add_subplot(1, 1, 1)
        c = self.curve.filter(pl.col("games") > 0)
        ax.plot((c["tenth"].to_numpy() + 0.5) / 10, c["share"].to_numpy(), marker="o")
        ax.axhline(1 / self.seats, color="#888", linestyle="--", linewidth=1)
        ax.set_xlabel("share of the game played")
        ax.set_ylabel("eventual winner leads")
        ax.set_ylim(0, 1)
        ax.set_title(f"{self.game}: how early the winner leads")
        out = [_save(fig, root / "health_winner_leads.png")]
        fig = _figure(6.0, 0.3 * self.metrics.height + 1)
        ax = fig.add_subplot(1, 1, 1)
        shares = self.metrics.filter(pl.col("unit") == "share")
        y = np.arange(shares.height)
        v = shares["value"].to_numpy()
        ax.errorbar(v, y, xerr=[v - shares["lo"].to_numpy(), shares["hi"].to_numpy() - v], fmt="o")
        ax.set_yticks(y, shares["metric"].to_list())
        ax.axvline(0, color="#888", linewidth=1)
        ax.set_title("shares with 95 % intervals")
        out.append(_save(fig, root / "health_shares.png"))
        return out

    def html_views(self) -> list[Any]:
        shares = self.metrics.filter(pl.col("unit") == "share")
        views = [interval_bars("health_shares", f"{self.game}: shares with 95 % intervals", shares,
                               label="metric", value="value", value_title="value", low="lo", high="hi",
                               reference=0.0, reference_label="zero")]  # fmt: skip
        if self.decks.height:
            w, s_ = self.bots[0], self.bots[-1]
            views.append(interval_bars("health_deck_shift", f"each deck's win rate from {w} to {s_} in every seat",
                                       self.decks, label="deck", value="shift", value_title="shift (points)",
                                       low="shift_lo", high="shift_hi", reference=0.0, reference_label="no shift",
                                       caption="a deck with a shift is balanced for one bot and not for the other"))  # fmt: skip
        return views


def _fmt(x: Any) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "n/a"
    return f"{x:.3f}" if abs(x) < 100 else f"{x:,.0f}"
