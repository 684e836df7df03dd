"""Card-level repair (issue 24): the balancer's search when ``settings.strategy="cards"``
(the default): the suspect cards first, small steps, the fewest edits (docs/balance.md
"Card-level repair").

A designer who sees a faction off asks which card is off and nudges that card. The repair
does the same, measured:

1. **Suspects.** The factions the metrics say are off are diagnosed
   (:func:`ketharmad.diagnose`: per-card evidence and restricted play); each card gets its
   suspicion, and each parameter of a card the suspicion of its card.
2. **Rounds.** From the current point, each round measures on *fresh* blocks (common random
   numbers within the round, new games every round) the current point and a list of single
   moves: the best move of each of the most suspect cards (its parameter and size chosen by
   the screen's effects, the direction by the screen or, when the screen shows nothing, by
   what weakens or strengthens the card), then the moves the screen predicts help most, and,
   when no single move is predicted to help (a point boxed in: every single move that brings
   one metric in pushes another out), the pairs of moves predicted to; at the edit cap also
   the swaps predicted best (an edit reverted, a number not yet edited moved). The share is planned
   for ``REPAIR_ROUNDS`` rounds (or, for a far-off start, ``ROUNDS_PER_EDIT`` per edit the
   screen's effects predict it needs, renewed every round), each on as many games as that
   leaves; every point's values are the start (played every round and pooled with the
   baseline) plus the point's paired difference from the start on the round's games. A
   move that brings every metric inside what is aimed for repairs (the inner part of its
   band, ``margin``, for a metric outside it at the start; where it was for a metric in
   band at the start: what is in band is held, not chased toward the centre);
   of the moves that repair, the one on the most suspect card is taken, so the evidence
   about the card decides between edits the games cannot tell apart. Otherwise the move that
   lowers the measured score plus cost most is taken, unless a suspect card's move does at
   least ``SUSPECT_SHARE`` of that improvement (then the most suspect such card's). The cost of
   an edit counts the edit (``EDIT_COST``) and its size relative to the printed value
   (``SIZE_COST * |new - old| / max(1, |old|)``): a step of 1 on a 1-Influence card costs
   as much as a step of 5 on a 5-Influence card.
3. **Pruning.** The fewest changes first: while the point without one of its edits is
   inside the aim on fresh games (twice), the best such edit goes. Then each edit is removed
   in turn and the rest played on fresh blocks: an edit whose removal changes no metric
   measurably (every paired difference inside its 95 % interval) and does not worsen the
   score is dropped.

Every point the repair takes is a candidate for the race and the confirmation that follow
(:mod:`ketharmad.lab.balance.search`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from .candidate import Candidate, shrunk, z_of
from .metrics import KINDS, Mean, MetricStats, Rate, paired, stats

__all__ = [
    "repair",
    "edit_cost",
    "point_cost",
    "card_of_param",
    "Suspicion",
    "EDIT_COST",
    "SIZE_COST",
    "REPAIR_BLOCK",
    "suspicions",
    "off_factions",
]

#: First block of the repair's rounds (each round plays fresh blocks from here on).
REPAIR_BLOCK = 1 << 21
#: The cost of one edit, in units of the score (the sum of squared band excesses).
EDIT_COST = 0.02
#: The cost of an edit's size relative to the printed value.
SIZE_COST = 0.02
#: Suspect cards whose best move each round measures, and further moves by the screen.
SUSPECT_MOVES = 4
SCREEN_MOVES = 4
#: Pairs of moves a round measures when no single move is predicted to help (a point boxed in:
#: every single move that brings one metric in pushes another out).
PAIR_MOVES = 2
#: Swaps a round measures once the point holds ``max_edits`` edits: one edit reverted to its
#: printed value and a number not yet edited moved instead (at the cap no new number can be
#: added, so without swaps a repair that took a weaker edit early is stuck with it).
SWAP_MOVES = 2
#: The rounds the repair's share is planned for: each round plays its points on the blocks
#: the share pays for divided by this (docs/balance.md "Card-level repair").
REPAIR_ROUNDS = 8
#: When the screen predicts the start needs more edits than ``REPAIR_ROUNDS``, the rounds
#: planned per predicted edit (the measured greedy takes more moves than the predictions).
ROUNDS_PER_EDIT = 1.5
#: The smallest round the renewed plan makes, as a share of the first round's games.
MIN_ROUND_SHARE = 0.25
#: A suspect card's move is taken over a better-measured one when it does at least this share
#: of the best measured improvement of its round.
SUSPECT_SHARE = 0.5
#: Rounds in a row without progress before the repair measures finer (or stops).
PATIENCE = 2
#: How often a repair without progress doubles its rounds' games (and measures the moves of
#: its stale rounds again) before it stops, while its share pays for such rounds.
FINER = 2

#: What weakens a card, per parameter kind: the sign of a step that makes it weaker.
_WEAKER = {"influence": -1, "credibility": -1, "cost_generic": 1}


@dataclass(frozen=True)
class Suspicion:
    """One card's evidence for the repair: ``score`` (the diagnosis' suspicion: higher is
    more suspect), ``weaken`` (+1: the evidence says the card should get weaker, -1:
    stronger, 0: either)."""

    score: float
    weaken: int


def edit_cost(old: Any, new: Any, step: Any = 1) -> float:
    """The cost of one edit: ``EDIT_COST`` plus ``SIZE_COST`` times its size relative to
    the printed value (0 when unchanged)."""
    if new == old:
        return 0.0
    return EDIT_COST + SIZE_COST * abs(new - old) / max(abs(old), step, 1)


def card_of_param(space: Mapping[str, Any], name: str) -> str:
    """The card a parameter of the space belongs to (its name's stem when the space names
    none: the harness games' numbers)."""
    return space[name].card or name.rsplit(".", 1)[0]


def point_cost(point: Mapping[str, Any], space: Mapping[str, Any]) -> float:
    """The cost of a point: the sum of its edits' costs."""
    return sum(edit_cost(space[n].default, v, space[n].step) for n, v in point.items())


def _in_inner(run: Any, values: np.ndarray, inner: Any) -> bool:
    return float(run._score(values, inner)) <= 0.0


def repair(
    run: Any,
    base_st: Mapping[str, MetricStats],
    effects: Mapping[tuple[str, int], Mapping[str, MetricStats]],
    suspects: Optional[Mapping[str, Suspicion]],
    aim: Any,
    start: Optional[Mapping[str, Any]] = None,
) -> list[Candidate]:
    """The measured, suspects-first greedy repair from the starting point (module doc).
    Returns every point it took, the last (pruned) one last. ``run`` is the balancer's run
    (``search._Run``): its evaluations, budget shares, space and notes; ``aim`` the part of
    each band to end inside (one number, or one per metric: ``search.aim_of``); ``start``
    (``settings.repair_from``, checked) the edits the rounds start from instead of none:
    each counts against ``max_edits`` and may move, be reverted or swapped, and the point
    is itself a candidate."""

    run.meter.stage = "repair"
    metrics = run.metrics
    space = run.space
    names = run.order
    inner = aim
    eff: dict[tuple[str, int], np.ndarray] = {
        k: np.array([shrunk(v[m.name]) for m in metrics]) for k, v in effects.items()
    }
    limit = run.upto("repair")
    per_round = 1 + SUSPECT_MOVES + SCREEN_MOVES + PAIR_MOVES
    K = run.targets.max_edits
    N = run.targets.max_edits_per_card
    cursor = REPAIR_BLOCK

    def fresh(n: int) -> list[tuple[int, int]]:
        nonlocal cursor
        r = [(cursor, cursor + n)]
        cursor += n
        return r

    def values(vec: Mapping[str, np.ndarray]) -> np.ndarray:
        st = run.st(vec)
        return np.array([st[m.name].value for m in metrics])

    def score(v: np.ndarray) -> float:
        return float(run._score(v, inner))

    def card_of(name: str) -> str:
        return card_of_param(space, name)

    def suspicion(name: str) -> float:
        if suspects is None:
            return 0.0
        s = suspects.get(card_of(name))
        return s.score if s is not None else 0.0

    def allowed(x: Mapping[str, Any], name: str) -> bool:
        if name in x:
            return True
        if len(x) >= K:
            return False
        return sum(1 for n in x if card_of(n) == card_of(name)) < N

    def predict(x: Mapping[str, Any], vx: np.ndarray, name: str, v: Any) -> np.ndarray:
        p = space[name]
        k0, k1 = p.k_of(x.get(name, p.default)), p.k_of(v)
        d = 1 if k1 > k0 else -1
        e = eff.get((name, d))
        return vx if e is None else vx + abs(k1 - k0) * e

    def best_move(
        x: Mapping[str, Any], vx: np.ndarray, name: str, sign: int = 0
    ) -> Optional[tuple[float, Any]]:
        """The value of ``name`` with the lowest predicted score plus cost (``sign``: only
        steps in that direction); None when no value differs from the current one."""
        p = space[name]
        cur = x.get(name, p.default)
        best: Optional[tuple[float, Any]] = None
        for v in p.values(max(abs(p.k_of(p.low)), abs(p.k_of(p.high)))):
            if v == cur or (sign and (v - cur) * sign <= 0):
                continue
            y = {**x, name: v}
            if v == p.default:
                y.pop(name)
            s = score(predict(x, vx, name, v)) + point_cost(y, space)
            if best is None or s < best[0]:
                best = (s, v)
        return best

    def candidates(
        x: dict[str, Any], vx: np.ndarray, skip: set[tuple[str, Any]]
    ) -> list[tuple[str, Any, str]]:
        """This round's moves, in priority order: (name, value, why)."""
        out: list[tuple[str, Any, str]] = []
        taken: set[str] = set()
        if suspects:
            cards = sorted(
                {card_of(n) for n in names if card_of(n) in suspects and allowed(x, n)},
                key=lambda c: (-suspects[c].score, c),
            )
            for c in cards:
                if len(out) >= SUSPECT_MOVES:
                    break
                own = [n for n in names if card_of(n) == c and allowed(x, n)]
                options = []
                for n in own:
                    bm = best_move(x, vx, n)
                    if bm is not None:
                        options.append((bm[0], n, bm[1]))
                    # the direction the evidence asks for, when the screen shows nothing
                    w = _WEAKER.get(space[n].kind)
                    if w is not None and suspects[c].weaken:
                        bm = best_move(x, vx, n, w * suspects[c].weaken)
                        if bm is not None:
                            options.append((bm[0] + 1e-9, n, bm[1]))
                options.sort(key=lambda t: (t[0], names.index(t[1]), str(t[2])))
                for _s, n, v in options:
                    if (n, v) not in skip:
                        out.append((n, v, f"suspect {c}"))
                        taken.add(n)
                        break
        screen = []
        s0 = score(vx) + point_cost(x, space)
        for n in names:
            if n in taken or not allowed(x, n):
                continue
            bm = best_move(x, vx, n)
            if bm is not None and bm[0] < s0 and (n, bm[1]) not in skip:
                screen.append((bm[0], n, bm[1]))
        screen.sort(key=lambda t: (t[0], names.index(t[1])))
        out += [(n, v, "screen") for _s, n, v in screen[:SCREEN_MOVES]]
        return out

    def move_table(
        x: Mapping[str, Any], vx: np.ndarray, ns: Sequence[str], reach: Optional[int] = None
    ) -> tuple[list[tuple[str, Any]], np.ndarray, np.ndarray]:
        """Every single move of the numbers ``ns`` from ``x`` (within ``reach`` steps of the
        current value when given): the moves ``(name, value)``, their predicted changes of
        the values (one row each) and of the cost."""
        opts: list[tuple[str, Any]] = []
        deltas: list[np.ndarray] = []
        costs: list[float] = []
        base_cost = point_cost(x, space)
        for n in ns:
            p = space[n]
            cur = x.get(n, p.default)
            for v in p.values(max(abs(p.k_of(p.low)), abs(p.k_of(p.high)))):
                if v == cur or (reach is not None and abs(p.k_of(v) - p.k_of(cur)) > reach):
                    continue
                opts.append((n, v))
                deltas.append(predict(x, vx, n, v) - vx)
                costs.append(point_cost(point_with(x, n, v), space) - base_cost)
        return opts, np.array(deltas), np.array(costs)

    def pair_moves(
        x: dict[str, Any], vx: np.ndarray, skip: set[tuple[Any, Any]]
    ) -> list[tuple[tuple[str, str], tuple[Any, Any], str]]:
        """When no single move is predicted to lower the score plus cost (the point is boxed
        in: every single move that brings one metric in pushes another out), up to
        ``PAIR_MOVES`` pairs of moves (two parameters at once) predicted to lower it: two moves
        can cancel each other's side effects. (Pairs are not measured otherwise: predicted
        from the screen's noisy effects, a pair of large moves often looks better than the
        single move that is right.)"""
        base_cost = point_cost(x, space)
        opts, D, C = move_table(x, vx, [n for n in names if allowed(x, n)], reach=2)
        if len(opts) < 2:
            return []
        single = run._score(vx[None, :] + D, inner) + C
        bar = score(vx) + base_cost
        if float(single.min()) + base_cost < bar:
            return []  # a single move is predicted to help: not boxed in
        free = K - len(x)
        names_o = [o[0] for o in opts]
        cards_o = [card_of(o[0]) for o in opts]
        per_card = {c: sum(1 for n in x if card_of(n) == c) for c in set(cards_o)}
        found: list[tuple[float, int, int]] = []
        for i in range(len(opts) - 1):
            j = np.arange(i + 1, len(opts))
            sc = run._score(vx[None, :] + D[i] + D[j], inner) + C[i] + C[j] + base_cost
            for jj in np.argsort(sc, kind="stable")[:4]:
                k = int(j[jj])
                if sc[jj] >= bar or names_o[k] == names_o[i]:
                    continue
                new = {names_o[i], names_o[k]} - set(x)
                if len(new) > free or (
                    len(new) == 2 and cards_o[i] == cards_o[k] and per_card[cards_o[i]] + 2 > N
                ):
                    continue
                found.append((float(sc[jj]), i, k))
        found.sort()
        out: list[tuple[tuple[str, str], tuple[Any, Any], str]] = []
        for _s, i, k in found:
            key = ((opts[i][0], opts[k][0]), (opts[i][1], opts[k][1]))
            if key in skip or any(set(key[0]) == set(o[0]) for o in out):
                continue
            out.append((key[0], key[1], "pair"))
            if len(out) >= PAIR_MOVES:
                break
        return out

    # edit -> its value when a round measured the point without it (the revert's effect is
    # then eff[(edit, the revert's direction)], measured, not predicted)
    revert_known: dict[str, Any] = {}

    def reverted(x: Mapping[str, Any], vx: np.ndarray, a: str) -> np.ndarray:
        """``x``'s values with its edit of ``a`` undone: measured when a round measured the
        revert at this value; else predicted by the effect of the direction the edit took
        (measured when a round took it, else the screen's), reversed."""
        p = space[a]
        k = p.k_of(x[a]) - p.k_of(p.default)
        if not k:
            return vx
        d = 1 if k > 0 else -1
        if revert_known.get(a) == x[a] and (a, -d) in eff:
            return vx + abs(k) * eff[(a, -d)]
        e = eff.get((a, d))
        return vx if e is None else vx - abs(k) * e

    def revert_moves(x: Mapping[str, Any]) -> list[tuple[str, Any, str]]:
        """At the edit cap, each edit whose revert no round has measured at its value: the
        point without it (a candidate with one edit fewer, and what the swaps' predictions
        rest on)."""
        if len(x) < K:
            return []
        return [
            (a, space[a].default, "revert")
            for a in sorted(x)
            if revert_known.get(a) != x[a] and (a, space[a].default) not in skip
        ]

    def swap_moves(
        x: dict[str, Any], vx: np.ndarray, skip: set[tuple[Any, Any]]
    ) -> list[tuple[tuple[str, str], tuple[Any, Any], str]]:
        """At the edit cap (``len(x) == max_edits``: no number can be added), up to
        ``SWAP_MOVES`` swaps predicted to lower the score plus cost: an edit ``a`` reverted to
        its printed value and a number ``b`` not edited moved to its best predicted value,
        measured as one point. Without them the rounds at the cap can only move the numbers
        already edited, however weak the edit taken early turned out to be."""
        if len(x) < K or not x:
            return []
        opts, D, C = move_table(x, vx, [n for n in names if n not in x])
        if not opts:
            return []
        bar = score(vx) + point_cost(x, space)
        found: list[tuple[float, str, int]] = []
        for a in sorted(x):
            ya = point_with(x, a, space[a].default)
            va = reverted(x, vx, a)
            ok = np.array([allowed(ya, n) for n, _v in opts])
            sc = run._score(va[None, :] + D, inner) + C + point_cost(ya, space)
            sc = np.where(ok, sc, np.inf)
            for j in np.argsort(sc, kind="stable")[:SWAP_MOVES]:
                if sc[j] < bar:
                    found.append((float(sc[j]), a, int(j)))
        found.sort(key=lambda t: (t[0], t[1], t[2]))
        out: list[tuple[tuple[str, str], tuple[Any, Any], str]] = []
        for _s, a, j in found:
            key = ((a, opts[j][0]), (space[a].default, opts[j][1]))
            if key in skip:
                continue
            out.append((key[0], key[1], "swap"))
            if len(out) >= SWAP_MOVES:
                break
        return out

    def point_with(x: Mapping[str, Any], name: Any, v: Any) -> dict[str, Any]:
        """``x`` with ``name`` set to ``v`` (or each of a pair's names to its value)."""
        if isinstance(name, tuple):
            return point_with(point_with(x, name[0], v[0]), name[1], v[1])
        y = {**x, name: v}
        if v == space[name].default:
            y.pop(name)
        return y

    def predicted_edits(x: dict[str, Any], vx: np.ndarray) -> int:
        """The single moves the screen's effects predict ``x`` (at values ``vx``) still needs:
        a greedy on the predictions alone (the best predicted move while it lowers the score
        plus cost), counted until the point is predicted inside the aim."""
        start = len(x)
        while len(x) < K and score(vx) > 0.0:
            now = score(vx) + point_cost(x, space)
            best: Optional[tuple[float, str, Any]] = None
            for n in names:
                if n in x or not allowed(x, n):
                    continue
                bm = best_move(x, vx, n)
                if bm is not None and bm[0] < now and (best is None or bm[0] < best[0]):
                    best = (bm[0], n, bm[1])
            if best is None:
                break
            vx = predict(x, vx, best[1], best[2])
            x = point_with(x, best[1], best[2])
        return len(x) - start

    def blocks_for(rounds: int) -> int:
        """The blocks a point when the share left pays for ``rounds`` rounds."""
        return max(1, max(0, limit - run.used) // (rounds * per_round * run.G))

    def plan(x: dict[str, Any], vx: np.ndarray, done: int) -> int:
        """The blocks a point of the next round: the share left pays for the rounds
        left, each as many blocks as that allows, so a round's decisions rest on as many games
        as the share can give them (few big rounds, not many noisy ones whose noise the greedy
        would chase with edits). The rounds left: what is left of REPAIR_ROUNDS, or
        ROUNDS_PER_EDIT per edit the screen predicts the point still needs when that is more
        (a far-off set such as the draft needs one round per edit and some to spare): the plan
        of a far-off start, renewed every round, so a repair that progresses slower than
        predicted plans more, smaller rounds."""
        left = max(REPAIR_ROUNDS - done, math.ceil(ROUNDS_PER_EDIT * predicted_edits(x, vx)), 1)
        return blocks_for(left)

    x: dict[str, Any] = dict(start or {})
    path: list[Candidate] = [Candidate(dict(x), "repair")] if x else []
    skip: set[tuple[str, Any]] = set()
    stale = finer = 0  # finer: how often measure_finer doubled the rounds' games
    stale_skip: set[tuple[Any, Any]] = set()  # moves skipped because a stale round measured them
    verified = False
    # the start, played on every round's blocks too, pooled with the baseline: each point's
    # values are this pooled start plus its paired difference from the start on the round's
    # games (common random numbers), far less noisy than the round's own estimate
    pool: dict[str, list[np.ndarray]] = {m.name: [] for m in metrics}

    def shift_of(rng: Sequence[tuple[int, int]]) -> np.ndarray:
        """Play the start on ``rng``, pool it, and return what to add to a point's values on
        ``rng`` to anchor them on the pooled start (``pooled start - start on rng``; the pooled
        start is the games-weighted mean of the baseline's estimate and the pooled games'
        estimate). Only a metric that is a mean of per-game values (a rate, a mean) is
        anchored: for a median or a maximum (``seat_spread``) the start plus a difference is
        not the point's value, and its shift is 0."""
        vec_s = run.vectors({}, rng, "repair")
        out = []
        for m in metrics:
            if not isinstance(KINDS.get(m.kind), (Rate, Mean)):
                out.append(0.0)  # a median or a maximum: not a mean of per-game values
                continue
            pool[m.name].append(vec_s[m.name])
            b = base_st[m.name]
            p = stats(m, np.concatenate(pool[m.name]))
            pooled = (b.value * b.n + p.value * p.n) / max(1, b.n + p.n)
            out.append(pooled - stats(m, vec_s[m.name]).value)
        return np.array(out)

    def denoised(
        vec_y: Mapping[str, np.ndarray], vec_x: Mapping[str, np.ndarray], vx: np.ndarray
    ) -> np.ndarray:
        """``x``'s values plus each metric's paired difference shrunk by its noise, so a
        difference the round's games cannot tell from 0 does not look like progress."""
        return vx + np.array([shrunk(paired(m, vec_y[m.name], vec_x[m.name])) for m in metrics])

    def measure_finer(nbr: int) -> bool:
        """No measured move helps: rather than stop with the share left, the next rounds play
        twice the games a point and measure the stale rounds' moves again (an effect the
        rounds' noise shrank to nothing can show), at most ``FINER`` times. False: stop."""
        nonlocal finer, stale
        if finer >= FINER or run.used + (per_round + 1) * 2 * nbr * run.G > limit:
            return False
        finer, stale = finer + 1, 0
        skip.difference_update(stale_skip)
        stale_skip.clear()
        return True

    v_now = np.array([base_st[m.name].value for m in metrics])
    if x:  # a given start: its values predicted by the screen's effects until a round plays it
        y: dict[str, Any] = {}
        for n in sorted(x):
            v_now = predict(y, v_now, n, x[n])
            y[n] = x[n]
    # a far-off start (the screen predicts more edits than REPAIR_ROUNDS rounds can make):
    # ROUNDS_PER_EDIT rounds a predicted edit, the plan renewed every round; else the
    # REPAIR_ROUNDS rounds as planned
    pred0 = predicted_edits(x, v_now)
    far = pred0 > REPAIR_ROUNDS
    planned = math.ceil(ROUNDS_PER_EDIT * pred0) if far else REPAIR_ROUNDS
    nb = blocks_for(planned)
    nb0, done = nb, 0
    while True:
        if done and far:
            # the plan renewed from the point reached, never below MIN_ROUND_SHARE of the first
            # round's games (rounds of a few hundred games a point only feed the greedy noise;
            # a run stops earlier instead). A start near its bands keeps its rounds: renewed,
            # such starts planned ever smaller rounds and chased their noise (docs/balance.md)
            nb = max(plan(x, v_now, done), math.ceil(MIN_ROUND_SHARE * nb0))
        nbr = nb << finer  # a round's blocks a point (doubled after rounds without progress)
        if run.used + (per_round + 1) * nbr * run.G > limit:
            break
        done += 1
        rng = fresh(nbr)
        shift = shift_of(rng)
        vec_x = run.vectors(x, rng, "repair")
        vx = values(vec_x) + shift
        v_now = vx
        if _in_inner(run, vx, inner):
            # in the inner band on this round's games: check once more on twice the games
            rng2 = fresh(2 * nbr)
            shift2 = shift_of(rng2)
            if _in_inner(run, values(run.vectors(x, rng2, "repair")) + shift2, inner):
                verified = True
                break
        # single moves (name, value, why), pairs ((name, name), (value, value), "pair") and,
        # at the edit cap, swaps ((reverted, moved), (printed value, value), "swap") and the
        # reverts not measured yet (up to half the room the pairs and swaps leave, then the
        # single moves, then more reverts): at most per_round - 1 moves a round, as planned
        extra: list[tuple[Any, Any, str]] = [*pair_moves(x, vx, skip), *swap_moves(x, vx, skip)]
        room = max(0, per_round - 1 - len(extra))
        singles = candidates(x, vx, skip)
        reverts = revert_moves(x)
        seen_moves = {(n, v) for n, v, _w in reverts}
        singles = [t for t in singles if (t[0], t[1]) not in seen_moves]
        first = reverts[: room // 2]
        rest = [*singles, *reverts[room // 2 :]][: room - len(first)]
        moves: list[tuple[Any, Any, str]] = [*first, *rest, *extra]
        if not moves:
            if stale_skip and measure_finer(nbr):
                continue  # the moves left were skipped by rounds without progress
            break
        measured = []
        for n, v, why in moves:
            y = point_with(x, n, v)
            if not run.ev.valid(y):
                skip.add((n, v))
                continue
            vec_y = run.vectors(y, rng, "repair")
            vy = values(vec_y) + shift
            measured.append((n, v, why, y, vy, denoised(vec_y, vec_x, vx)))
            if isinstance(n, tuple):
                a, b = n
                if why == "swap" and revert_known.get(a) == x[a]:
                    # the revert measured: the rest of the swap is the new number's effect
                    pb = space[b]
                    kb = pb.k_of(v[1]) - pb.k_of(pb.default)
                    if kb:
                        eff[(b, 1 if kb > 0 else -1)] = (vy - reverted(x, vx, a)) / abs(kb)
                continue
            # the measured move replaces the model's per-step effect of that direction
            p = space[n]
            k = p.k_of(v) - p.k_of(x.get(n, p.default))
            if k:
                eff[(n, 1 if k > 0 else -1)] = (vy - vx) / abs(k)
                if v == p.default and n in x:
                    revert_known[n] = x[n]
        if not measured:
            break
        now = score(vx) + point_cost(x, space)
        # each move's improvement of score plus cost, from its noise-shrunk paired differences
        gains = [(now - score(t[5]) - point_cost(t[3], space), t) for t in measured]
        repaired = [t for g, t in gains if g > 0 and _in_inner(run, t[4], inner)]
        if repaired:  # the first in priority order: the most suspect card
            choice = repaired[0]
        else:
            best_gain = max(g for g, _t in gains)
            if best_gain <= 0:
                skip.update((t[0], t[1]) for t in measured)
                stale_skip.update((t[0], t[1]) for t in measured)
                stale += 1
                if stale >= PATIENCE and not measure_finer(nbr):
                    break
                continue
            # a suspect card's move that does at least SUSPECT_SHARE of the best measured
            # improvement wins over the rest (the evidence about the card breaks near-ties)
            near = [
                t for g, t in gains if g >= SUSPECT_SHARE * best_gain and t[2].startswith("suspect")
            ]
            choice = near[0] if near else max(gains, key=lambda gt: gt[0])[1]
        stale = 0
        x = choice[3]
        v_now = choice[5]
        skip.add((choice[0], choice[1]))
        path.append(Candidate(dict(x), "repair"))
    if start:
        run.notes.append(
            f"repair: started from settings.repair_from ({len(start)} edit(s)), not from the start"
        )
    run.notes.append(
        f"repair: {done} rounds ({planned} planned at the start), {nb0 * run.G:,} games a point "
        f"in the first, {(nb << finer) * run.G:,} in the last"
        + (
            f"; {finer} time(s) no measured move helped and the rounds' games were doubled"
            if finer
            else ""
        )
    )
    if not verified and path:
        run.notes.append(
            "repair: the last point was not inside the inner part of every band on fresh games "
            "when the stage ended"
        )
    x = _prune(run, x, fresh, nb, values, score, limit, shift_of)
    if x and (not path or path[-1].point != x):
        path.append(Candidate(dict(x), "repair"))
    return path


def _prune(
    run: Any,
    x: dict[str, Any],
    fresh: Any,
    nb: int,
    values: Any,
    score: Any,
    limit: int,
    shift_of: Any = None,
) -> dict[str, Any]:
    """Fewest changes, then no unmeasurable edit, on fresh blocks (``shift_of(blocks)``, when
    given, plays the start on the blocks and returns what anchors a point's values there on
    the pooled start).

    1. **Backward elimination.** The point without each edit in turn is played on common
       fresh blocks; of those inside the aim on these games and again on as many further
       fresh games, the one with the lowest score is taken (the edit it drops is not needed:
       the greedy rounds can take a move that a later move makes redundant). Repeated until
       no edit can go.
    2. **Unmeasurable edits.** Each edit whose removal changes no metric measurably (every
       paired difference inside its 95 % interval) and does not worsen the score is
       dropped."""
    z95 = z_of(0.05)
    slack = limit + run.budget // 20

    def shift(rng: Any) -> Any:
        return 0.0 if shift_of is None else shift_of(rng)

    while x and run.used + (len(x) + 2) * nb * run.G <= slack:
        rng = fresh(nb)
        sh = shift(rng)
        fewer = []
        for name in sorted(x):
            y = {k: v for k, v in x.items() if k != name}
            if not run.ev.valid(y):
                continue
            vy = values(run.vectors(y, rng, "prune")) + sh
            if score(vy) <= 0.0:
                fewer.append((score(vy), name, y))
        dropped = False
        for _s, name, y in sorted(fewer, key=lambda t: (t[0], t[1])):
            if run.used + 2 * nb * run.G > slack:
                break
            rng2 = fresh(nb)
            sh2 = shift(rng2)
            if score(values(run.vectors(y, rng2, "prune")) + sh2) <= 0.0:
                run.notes.append(
                    f"repair: dropped {name} (the point without it is inside the aim on fresh games)"
                )
                x = y
                dropped = True
                break
        if not dropped:
            break
    for name in sorted(x):
        if not x or run.used + 2 * nb * run.G > slack:
            break
        y = {k: v for k, v in x.items() if k != name}
        if not run.ev.valid(y):
            continue
        rng = fresh(nb)
        vec_x = run.vectors(x, rng, "prune")
        vec_y = run.vectors(y, rng, "prune")
        measurable = any(
            abs(e.value) > z95 * e.se
            for e in (paired(m, vec_x[m.name], vec_y[m.name]) for m in run.metrics)
            if math.isfinite(e.se)
        )
        if not measurable and score(values(vec_y)) <= score(values(vec_x)):
            run.notes.append(f"repair: dropped {name} (no measurable effect when removed)")
            x = y
    return x


def suspicions(table: Any) -> dict[str, Suspicion]:
    """The repair's evidence from a diagnosis' ``.suspects`` table: per card its suspicion
    and the direction (``too strong`` faction: weaken the card, ``too weak``: strengthen)."""
    out: dict[str, Suspicion] = {}
    for r in table.iter_rows(named=True):
        s = r["suspicion"]
        if s is None or not math.isfinite(s):
            continue
        weaken = {"too strong": 1, "too weak": -1}.get(r["direction"], 0)
        out[r["card"]] = Suspicion(float(s), weaken)
    return out


def off_factions(metrics: Sequence[Any], st: Mapping[str, MetricStats], n: int) -> list[str]:
    """The ``n`` factions the metrics say are furthest off: first the factions of the metrics
    outside their band (the damage is on one of their cards), then the rest; within each, by a
    strength per faction fitted by least squares to the 2-player win rates (``logit(p_ab) =
    s_a - s_b``) and the 4-player shares (``logit(share_f) - logit(target) = s_f``),
    strengths summing to 0, the largest ``|s|`` first. (A faction weakened by one card can
    leave a single pair out of band while the fit, over every metric, puts two other
    factions further off.)"""
    rows: list[dict[str, float]] = []
    ys: list[float] = []

    def logit(p: float) -> float:
        p = min(max(p, 1e-3), 1 - 1e-3)
        return math.log(p / (1 - p))

    for m in metrics:
        if m.kind not in ("2p", "4p") or m.faction is None:
            continue
        r = {m.faction: 1.0}
        if m.kind == "2p" and m.opponent is not None:
            r[m.opponent] = -1.0
            ys.append(logit(st[m.name].value))
        else:
            ys.append(logit(st[m.name].value) - logit(m.target))
        rows.append(r)
    factions = sorted({f for r in rows for f in r})
    if not factions:
        return []
    a = np.array([[r.get(f, 0.0) for f in factions] for r in rows] + [[1.0] * len(factions)])
    s = np.linalg.lstsq(a, np.array([*ys, 0.0]), rcond=None)[0]
    strength = dict(zip(factions, np.abs(s).tolist(), strict=True))
    out_of_band = {
        f
        for m in metrics
        if m.kind in ("2p", "4p") and m.faction is not None
        and not m.low <= st[m.name].value <= m.high
        for f in (m.faction, m.opponent) if f is not None
    }  # fmt: skip
    return sorted(factions, key=lambda f: (f not in out_of_band, -strength[f], f))[:n]
